import { open, rename } from "node:fs/promises";
import { dirname } from "node:path";
import { makePrivateDir, PRIVATE_FILE_MODE } from "./private-files.js";

/**
 * Writes `data` to a temporary file beside `path`, syncs it, then renames it over `path`: a crash leaves
 * either the old file or the new one, never half of one. The file is created owner-only (see private-files.ts).
 */
export async function writeFileAtomic(path: string, data: string | Uint8Array, temp = `${path}.${process.pid}.tmp`): Promise<void> {
  await makePrivateDir(dirname(path));
  const handle = await open(temp, "w", PRIVATE_FILE_MODE);
  try {
    await handle.writeFile(data);
    await handle.sync();
  } finally {
    await handle.close();
  }
  await rename(temp, path);
}
