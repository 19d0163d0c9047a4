import { chmod, mkdir, readdir, stat } from "node:fs/promises";
import { mkdirSync } from "node:fs";
import { join } from "node:path";

/**
 * Cached questions and answers are users' data: files the stores create are readable by their owner only, and
 * so are the folders they create (a folder that already exists keeps its mode). The modes are passed when
 * creating, so no other user can open a file in the moment before a chmod would run; the umask can only take
 * bits away from them.
 */
export const PRIVATE_FILE_MODE = 0o600;
export const PRIVATE_DIR_MODE = 0o700;

/** Creates `path` and any missing parents with PRIVATE_DIR_MODE. */
export async function makePrivateDir(path: string): Promise<void> {
  await mkdir(path, { recursive: true, mode: PRIVATE_DIR_MODE });
}

/** makePrivateDir for code that must not yield (opening a database). */
export function makePrivateDirSync(path: string): void {
  mkdirSync(path, { recursive: true, mode: PRIVATE_DIR_MODE });
}

/**
 * Sets the private modes on a file or a folder tree written by a library that creates files with its own
 * modes (hnswlib's writeIndex).
 */
export async function makeTreePrivate(path: string): Promise<void> {
  if (!(await stat(path)).isDirectory()) return chmod(path, PRIVATE_FILE_MODE);
  await chmod(path, PRIVATE_DIR_MODE);
  for (const entry of await readdir(path)) await makeTreePrivate(join(path, entry));
}
