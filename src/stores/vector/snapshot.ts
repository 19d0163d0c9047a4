/**
 * Crash-safe saves for file-backed vector indexes. Each save writes its data under a new generation name, then
 * renames a small manifest naming that generation into place (the one atomic step), then removes older
 * generations. A crash at any point leaves a manifest that names complete data: the previous save or this one.
 */
import { open, readFile, readdir, rm, stat } from "node:fs/promises";
import { join } from "node:path";
import { writeFileAtomic } from "../../core/atomic-file.js";
import { StoreError } from "../../core/errors.js";
import { makePrivateDir, makeTreePrivate } from "../../core/private-files.js";

/** The file a saved index keeps its manifest in (a sharded index: each shard in its folder). */
export const MANIFEST = "manifest.json";
const DATA_PREFIX = "data-";
/** Bumped when the manifest layout changes incompatibly. */
export const SNAPSHOT_FORMAT_VERSION = 1;

/** A saved state: where its data lives and the index's own metadata. */
export interface Snapshot<M> {
  generation: number;
  /** File or folder holding the index data of this generation. */
  dataPath: string;
  meta: M;
}

interface Manifest<M> {
  formatVersion: number;
  generation: number;
  meta: M;
}

function dataName(generation: number): string {
  return `${DATA_PREFIX}${generation}`;
}

function errorCode(error: unknown): string | undefined {
  return (error as { code?: string } | null)?.code;
}

/** The last committed save in `dir`, or null when nothing was saved there yet. */
export async function readSnapshot<M>(dir: string, store: string): Promise<Snapshot<M> | null> {
  let text: string;
  try {
    text = await readFile(join(dir, MANIFEST), "utf8");
  } catch (error) {
    if (errorCode(error) === "ENOENT") return null;
    throw new StoreError(store, `cannot read ${join(dir, MANIFEST)}`, { cause: error });
  }
  let manifest: Manifest<M>;
  try {
    manifest = JSON.parse(text) as Manifest<M>;
  } catch (error) {
    throw new StoreError(store, `${join(dir, MANIFEST)} is not valid JSON`, { cause: error });
  }
  if (manifest.formatVersion !== SNAPSHOT_FORMAT_VERSION || !Number.isInteger(manifest.generation)) {
    throw new StoreError(store, `${join(dir, MANIFEST)} has an unsupported format (version ${manifest.formatVersion})`);
  }
  return { generation: manifest.generation, dataPath: join(dir, dataName(manifest.generation)), meta: manifest.meta };
}

async function fsyncPath(path: string): Promise<void> {
  const handle = await open(path, "r");
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

/** fsync a file, or each file of a folder and the folder (which some systems, e.g. Windows, refuse: best effort). */
async function syncTree(path: string): Promise<void> {
  if (!(await stat(path)).isDirectory()) return fsyncPath(path);
  for (const entry of await readdir(path)) await syncTree(join(path, entry));
  await fsyncPath(path).catch(() => undefined);
}

/**
 * Commits a new save: `writeData` writes the index data to the path it is given (a file, or a folder it
 * creates), then the manifest holding `meta` is switched to it. Returns the new generation.
 */
export async function writeSnapshot<M>(
  dir: string,
  store: string,
  meta: M,
  writeData: (dataPath: string) => Promise<void>,
): Promise<number> {
  try {
    await makePrivateDir(dir);
    const generation = ((await readSnapshot<M>(dir, store))?.generation ?? 0) + 1;
    const dataPath = join(dir, dataName(generation));
    await rm(dataPath, { recursive: true, force: true });
    await writeData(dataPath);
    // Index libraries create their files with their own modes.
    await makeTreePrivate(dataPath);
    await syncTree(dataPath);

    const manifest: Manifest<M> = { formatVersion: SNAPSHOT_FORMAT_VERSION, generation, meta };
    await writeFileAtomic(join(dir, MANIFEST), JSON.stringify(manifest), join(dir, `${MANIFEST}.tmp`));
    await fsyncPath(dir).catch(() => undefined);

    const current = dataName(generation);
    for (const entry of await readdir(dir)) {
      if (entry.startsWith(DATA_PREFIX) && entry !== current) await rm(join(dir, entry), { recursive: true, force: true });
    }
    return generation;
  } catch (error) {
    if (StoreError.isInstance(error)) throw error;
    throw new StoreError(store, `cannot save to ${dir}`, { cause: error });
  }
}
