import { mkdir, open, rename } from "node:fs/promises";
import { dirname } from "node:path";

/**
 * Writes `data` to a temporary file beside `path`, syncs it, then renames it over `path`: a crash leaves
 * either the old file or the new one, never half of one.
 */
export async function writeFileAtomic(path: string, data: string | Uint8Array, temp = `${path}.${process.pid}.tmp`): Promise<void> {
  await mkdir(dirname(path), { recursive: true });
  const handle = await open(temp, "w");
  try {
    await handle.writeFile(data);
    await handle.sync();
  } finally {
    await handle.close();
  }
  await rename(temp, path);
}
