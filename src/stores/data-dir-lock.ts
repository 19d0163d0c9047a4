/**
 * An exclusive lock on the folder of a file-backed in-process store (the hnswlib and usearch indexes). Why: such an index is
 * loaded once and saved whole, and on start it catches up from the scalar store only above the highest id it
 * saved; two processes (or two caches) on one folder each overwrite the other's saves, and the entries lost in
 * between never come back. SQLite, and server stores shared by replicas, need no such lock.
 *
 * The lock is a file created with O_EXCL holding its owner's pid and host. A lock whose owner no longer runs on
 * this host (killed, crashed, power lost) is stale and taken over. The lock operations use the sync fs API so
 * that no other code of this process runs between a check and the step it decides.
 */
import { readFileSync, realpathSync, unlinkSync, writeFileSync } from "node:fs";
import { hostname } from "node:os";
import { dirname, join } from "node:path";
import { StoreError } from "../core/errors.js";
import { makePrivateDirSync, PRIVATE_FILE_MODE } from "../core/private-files.js";

export const LOCK_FILE = "semcache.lock";

interface Owner {
  pid: number;
  host: string;
  /** When the lock was taken (ISO time): shown in the error, and makes each lock's text unique. */
  since: string;
  /** Linux: the process's start time (/proc), which tells a reused pid from the owner after a reboot. */
  started?: string;
}

/**
 * Lock files held in this process, shared through globalThis by every copy of this package loaded in it (ESM
 * and CommonJS builds, two installs): a lock naming this pid is held only if it is in this set.
 */
const HELD_KEY = Symbol.for("langchain-semcache.held-folder-locks");
const held = ((globalThis as Record<symbol, unknown>)[HELD_KEY] ??= new Set<string>()) as Set<string>;

/** Field 22 of /proc/<pid>/stat (start time in clock ticks since boot); undefined off Linux or if it is gone. */
function processStart(pid: number): string | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    // The command name (field 2) is in parentheses and may hold spaces: count from after its closing one.
    return stat.slice(stat.lastIndexOf(")") + 2).split(" ")[19];
  } catch {
    return undefined;
  }
}

function errorCode(error: unknown): string | undefined {
  return (error as { code?: string } | null)?.code;
}

/** Whether the lock's owner may still run; a lock from another host cannot be checked, so it counts as held. */
function ownerRuns(owner: Owner, file: string): boolean {
  if (owner.host !== hostname()) return true;
  // Our own pid: held only if this process took it (else a previous process had this pid, e.g. a container's pid 1).
  if (owner.pid === process.pid) return held.has(file);
  try {
    process.kill(owner.pid, 0);
  } catch (error) {
    return errorCode(error) === "EPERM"; // EPERM: it runs, as another user
  }
  const started = owner.started === undefined ? undefined : processStart(owner.pid);
  return started === undefined || started === owner.started;
}

/** The lock file's text, or undefined when there is none. */
function readLock(file: string): string | undefined {
  try {
    return readFileSync(file, "utf8");
  } catch (error) {
    if (errorCode(error) === "ENOENT") return undefined;
    throw error;
  }
}

function parseOwner(text: string): Owner | undefined {
  try {
    const owner = JSON.parse(text) as Owner;
    return Number.isInteger(owner.pid) && typeof owner.host === "string" ? owner : undefined;
  } catch {
    return undefined;
  }
}

const ADVICE = "Give each process its own data dir; to share entries between processes, use a server store: docs/scaling.md.";

function inUse(store: string, file: string, owner: Owner | undefined): StoreError {
  const folder = dirname(file);
  let who: string;
  if (held.has(file)) {
    who = `in use by another cache in this process (pid ${process.pid}): close it first`;
  } else if (owner === undefined) {
    // Unreadable: a process is between creating and writing it, or one died there.
    who = `locked by another process (${file} is being written, or is damaged: delete it if no process uses ${folder})`;
  } else if (owner.host !== hostname()) {
    who = `in use by process ${owner.pid} on host ${owner.host} (since ${owner.since}; if it no longer runs, delete ${file})`;
  } else {
    who = `in use by process ${owner.pid} (since ${owner.since})`;
  }
  return new StoreError(store, `the folder ${folder} is ${who}. ${ADVICE}`);
}

/** A lock taken with lockFolder(); release() removes it (if it is still this lock's). */
export interface FolderLock {
  readonly file: string;
  release(): void;
}

/**
 * Takes the exclusive lock on `folder` (created if missing) for `store` (named in errors), or throws a
 * StoreError naming the folder, the owner's pid and what to do.
 */
export function lockFolder(folder: string, store: string): FolderLock {
  let file: string;
  try {
    makePrivateDirSync(folder);
    // One lock however the folder is spelled (relative, through a symlink).
    file = join(realpathSync(folder), LOCK_FILE);
  } catch (error) {
    throw new StoreError(store, `cannot create ${folder}`, { cause: error });
  }
  if (held.has(file)) throw inUse(store, file, undefined);
  const owner: Owner = { pid: process.pid, host: hostname(), since: new Date().toISOString(), started: processStart(process.pid) };
  const text = JSON.stringify(owner);
  try {
    if (!takeLock(file, text)) throw inUse(store, file, parseOwner(readLock(file) ?? ""));
  } catch (error) {
    throw StoreError.isInstance(error) ? error : new StoreError(store, `cannot lock ${file}`, { cause: error });
  }
  held.add(file);
  return {
    file,
    release: () => {
      held.delete(file);
      try {
        // Never remove a lock another process took over meanwhile (ours judged stale).
        if (readLock(file) === text) unlinkSync(file);
      } catch {
        // Folder gone or unreadable: a lock left behind names this pid, so it is stale once we exit.
      }
    },
  };
}

/** Creates the lock file holding `text`, taking over a stale one; false when a live owner holds it. */
function takeLock(file: string, text: string): boolean {
  // Three tries: a stale lock removed, then another process's fresh lock found, is the most that can happen.
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      writeFileSync(file, text, { flag: "wx", mode: PRIVATE_FILE_MODE }); // O_CREAT | O_EXCL: fails if the file exists
      return true;
    } catch (error) {
      if (errorCode(error) !== "EEXIST") throw error;
    }
    const current = readLock(file);
    if (current === undefined) continue; // released meanwhile
    const other = parseOwner(current);
    if (other === undefined || ownerRuns(other, file)) return false;
    // Stale: removed only if it is still the lock just judged (another process may have taken it over since).
    if (readLock(file) === current) unlinkSync(file);
  }
  return false;
}
