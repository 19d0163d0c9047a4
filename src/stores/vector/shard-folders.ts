/**
 * Where a sharded index keeps its shards: one folder each inside the index's folder, named for its place and the
 * shard count ("shard-1-of-2"), so a folder saved with one count is never read as another (ids are routed by count).
 */
import { existsSync } from "node:fs";
import { readdir } from "node:fs/promises";
import { join } from "node:path";
import { StoreError } from "../../core/errors.js";
import { MANIFEST } from "./snapshot.js";

const SHARD_FOLDER = /^shard-\d+-of-(\d+)$/;

/** The folder of shard `index` (from 0) of `count` inside `path`. */
export function shardFolder(path: string, index: number, count: number): string {
  return join(path, `shard-${index + 1}-of-${count}`);
}

/**
 * What `path` holds: the shard count it was saved with, 1 for an unsharded index, 0 for nothing saved. A shard
 * folder counts once it holds a saved shard (the folders are made, locked, before anything is saved).
 */
export async function savedShardCount(kind: string, path: string): Promise<number> {
  let names: string[];
  try {
    names = await readdir(path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return 0;
    throw new StoreError(kind, `cannot read the folder ${path}`, { cause: error });
  }
  if (names.includes(MANIFEST)) return 1;
  const counts = new Set<number>();
  for (const name of names) {
    const count = SHARD_FOLDER.exec(name)?.[1];
    if (count !== undefined && existsSync(join(path, name, MANIFEST))) counts.add(Number(count));
  }
  return counts.size === 0 ? 0 : Math.max(...counts);
}

/**
 * Refuses a folder saved with another shard count than `count` (1: unsharded): its entries are spread by that
 * count, and another would look for them in the wrong shard.
 */
export async function checkShardCount(kind: string, path: string, count: number): Promise<void> {
  const saved = await savedShardCount(kind, path);
  if (saved === 0 || saved === count) return;
  const rebuild = "or remove the folder to build the index again from the stored entries";
  if (saved === 1) {
    throw new StoreError(kind, `${path} holds an index saved unsharded, not in ${count} shards: leave shards out (or give 1), ${rebuild}`);
  }
  const asked = count === 1 ? "" : `, not in ${count}`;
  throw new StoreError(kind, `${path} holds a usearch index saved in ${saved} shards${asked}: open it as usearch with shards: ${saved}, ${rebuild}`);
}
