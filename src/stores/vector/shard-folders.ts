/**
 * Where a sharded index keeps its shards: one folder each inside the index's folder, named for its place and the
 * shard count ("shard-1-of-2"), so a folder saved with one count is never read as another (ids are routed by count).
 */
import { readdir } from "node:fs/promises";
import { join } from "node:path";
import { StoreError } from "../../core/errors.js";

const SHARD_FOLDER = /^shard-\d+-of-(\d+)$/;
/** The file a saved unsharded index keeps its manifest in (snapshot.ts). */
const UNSHARDED_MANIFEST = "manifest.json";

/** The folder of shard `index` (from 0) of `count` inside `path`. */
export function shardFolder(path: string, index: number, count: number): string {
  return join(path, `shard-${index + 1}-of-${count}`);
}

/** What `path` holds: the shard count it was saved with, 1 for an unsharded index, 0 for nothing saved. */
export async function savedShardCount(path: string): Promise<number> {
  let names: string[];
  try {
    names = await readdir(path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return 0;
    throw error;
  }
  if (names.includes(UNSHARDED_MANIFEST)) return 1;
  const counts = new Set(names.map((name) => SHARD_FOLDER.exec(name)?.[1]).filter((count) => count !== undefined).map(Number));
  return counts.size === 0 ? 0 : Math.max(...counts);
}

/**
 * Refuses a folder saved with another shard count than `count` (1: unsharded): its entries are spread by that
 * count, and another would look for them in the wrong shard.
 */
export async function checkShardCount(kind: string, path: string, count: number): Promise<void> {
  const saved = await savedShardCount(path);
  if (saved === 0 || saved === count) return;
  const was = saved === 1 ? "unsharded" : `in ${saved} shards`;
  const give = saved === 1 ? "leave shards out (or give 1)" : `give shards: ${saved}`;
  throw new StoreError(kind, `${path} holds an index saved ${was}, not in ${count === 1 ? "one" : count}: ${give}, or remove the folder to build the index again from the stored entries`);
}
