import { spawn } from "node:child_process";
import { existsSync, readFileSync, realpathSync, writeFileSync } from "node:fs";
import { hostname } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { StoreError } from "../../src/core/errors.js";
import type { DataManager } from "../../src/manager/data-manager.js";
import { managerFactory } from "../../src/presets/manager-factory.js";
import { LOCK_FILE, lockFolder } from "../../src/stores/data-dir-lock.js";
import { HnswIndex } from "../../src/stores/vector/hnsw.js";
import { tempDirEachTest } from "../helpers/fixtures.js";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));
const CHILD = fileURLToPath(new URL("./data-dir-lock-child.ts", import.meta.url));
const ADVICE = "Give each process its own data dir; to share entries between processes, use a server store: docs/scaling.md.";

/** The unit vector on axis i (16-d), as the child process stores them. */
const axis = (i: number) => Float32Array.from({ length: 16 }, (_, j) => (j === i ? 1 : 0));

/** What a promise rejected with (fails the test if it resolved). */
async function rejection(promise: Promise<unknown>): Promise<Error> {
  try {
    await promise;
  } catch (error) {
    return error as Error;
  }
  throw new Error("expected a rejection");
}

/** Asserts a refusal: a StoreError naming the folder, the owner's pid and the advice. */
function expectRefused(error: Error, folder: string, pid: number): void {
  expect(StoreError.isInstance(error)).toBe(true);
  expect(error.message).toContain(`hnswlib: the folder ${realpathSync(folder)} is in use by `);
  expect(error.message).toMatch(new RegExp(`(process|pid) ${pid}\\b`));
  expect(error.message).toContain(ADVICE);
}

describe("data dir lock: one hnswlib index (one process, one cache) per folder", () => {
  const temp = tempDirEachTest("semcache-lock-");

  it("refuses a second index on the folder in this process; once the first is closed, the second opens (a retried init)", async () => {
    const path = join(temp.path, "hnswlib");
    const first = new HnswIndex({ dimension: 16, path });
    await first.init();
    await first.add([{ id: 1, vector: axis(1) }]);
    const second = new HnswIndex({ dimension: 16, path });
    const refused = await rejection(second.init());
    expectRefused(refused, path, process.pid);
    expect(refused.message).toContain("another cache in this process");
    // The refused index is unusable: it can never save over the first one's files.
    await expect(second.add([{ id: 2, vector: axis(2) }])).rejects.toThrow(/call init\(\)/);

    await first.close();
    expect(existsSync(join(path, LOCK_FILE))).toBe(false); // a clean close leaves no lock
    await second.init();
    expect((await second.search(axis(1), 1))[0].id).toBe(1);
    await second.close();
    // Close then reopen, the common pattern, still works.
    const third = new HnswIndex({ dimension: 16, path });
    await third.init();
    expect(await third.count()).toBe(1);
    await third.close();
  });

  it("refuses a second data manager on the data dir; it opens once the first is closed, with every entry", async () => {
    const first = managerFactory("sqlite,hnswlib", { dataDir: temp.path });
    await first.init();
    const ids = await first.save([0, 1, 2].map((i) => ({ question: `q${i}`, keyHash: `k${i}`, partition: "", answer: `a${i}`, embedding: axis(i) })));
    const second = managerFactory("sqlite,hnswlib", { dataDir: temp.path });
    try {
      expectRefused(await rejection(second.init()), join(temp.path, "hnswlib"), process.pid);
      await first.close();
      await second.init();
      for (const [i, id] of ids.entries()) expect((await second.search(axis(i), 1))[0].id).toBe(id);
    } finally {
      await first.close();
      await second.close();
    }
  });

  it("refuses the folder while another process holds it, and takes the lock over once that process is SIGKILLed", async () => {
    const child = spawn(process.execPath, ["--import", "tsx", CHILD, temp.path, "16"], { cwd: ROOT, stdio: ["ignore", "pipe", "pipe"] });
    const exited = new Promise<NodeJS.Signals | number | null>((resolve) => child.on("exit", (code, signal) => resolve(signal ?? code)));
    let manager: DataManager | undefined;
    try {
      await new Promise<void>((resolve, reject) => {
        let out = "";
        let err = "";
        child.stdout.on("data", (chunk: Buffer) => {
          out += chunk.toString();
          if (out.includes("\n")) resolve();
        });
        child.stderr.on("data", (chunk: Buffer) => (err += chunk.toString()));
        void exited.then((code) => reject(new Error(`child exited (${code}): ${err}`)));
      });
      const blocked = managerFactory("sqlite,hnswlib", { dataDir: temp.path });
      expectRefused(await rejection(blocked.init()), join(temp.path, "hnswlib"), child.pid!);

      child.kill("SIGKILL");
      expect(await exited).toBe("SIGKILL");
      // Its lock is still there, naming a process that no longer runs: stale, so taken over.
      expect(JSON.parse(readFileSync(join(temp.path, "hnswlib", LOCK_FILE), "utf8"))).toMatchObject({ pid: child.pid });
      manager = managerFactory("sqlite,hnswlib", { dataDir: temp.path });
      await manager.init();
      expect(JSON.parse(readFileSync(join(temp.path, "hnswlib", LOCK_FILE), "utf8"))).toMatchObject({ pid: process.pid });
      for (let i = 0; i < 16; i++) expect((await manager.getScalarData((await manager.search(axis(i), 1))[0].id))?.answer).toBe(`answer ${i}`);
    } finally {
      child.kill("SIGKILL");
      await exited;
      await manager?.close();
    }
  }, 60_000);
});

describe("lockFolder: whose lock is stale", () => {
  const temp = tempDirEachTest("semcache-lock-");

  const writeLock = (owner: object | string) => writeFileSync(join(temp.path, LOCK_FILE), typeof owner === "string" ? owner : JSON.stringify(owner));
  const since = "2024-01-01T00:00:00.000Z";

  it("takes over a lock naming this pid that this process did not take (a previous process had the pid, e.g. pid 1 in a container)", () => {
    writeLock({ pid: process.pid, host: hostname(), since });
    const lock = lockFolder(temp.path, "test");
    expect(JSON.parse(readFileSync(lock.file, "utf8"))).toMatchObject({ pid: process.pid, host: hostname() });
    expect(JSON.parse(readFileSync(lock.file, "utf8")).since).not.toBe(since);
    lock.release();
    expect(existsSync(lock.file)).toBe(false);
  });

  it("refuses a lock of a running process of this host", () => {
    writeLock({ pid: process.ppid, host: hostname(), since });
    expect(() => lockFolder(temp.path, "test")).toThrow(`test: the folder ${realpathSync(temp.path)} is in use by process ${process.ppid} (since ${since}). ${ADVICE}`);
  });

  (existsSync("/proc/self/stat") ? it : it.skip)("takes over a lock whose pid now runs another process (its start time differs: a reboot, a reused pid)", () => {
    writeLock({ pid: process.ppid, host: hostname(), since, started: "1" });
    lockFolder(temp.path, "test").release();
  });

  it("refuses a lock from another host (its process cannot be checked), saying which file to delete if it is gone", () => {
    writeLock({ pid: 4242, host: "elsewhere.example", since });
    expect(() => lockFolder(temp.path, "test")).toThrow(
      `is in use by process 4242 on host elsewhere.example (since ${since}; if it no longer runs, delete ${join(realpathSync(temp.path), LOCK_FILE)}). ${ADVICE}`,
    );
  });

  it("refuses an unreadable lock (a process may be writing it) and says to delete it if no process uses the folder", () => {
    writeLock("");
    expect(() => lockFolder(temp.path, "test")).toThrow(/is locked by another process \(.*semcache\.lock is being written, or is damaged: delete it if no process uses/);
  });

  it("release() leaves a lock another process took over meanwhile", () => {
    const lock = lockFolder(temp.path, "test");
    writeLock({ pid: 4242, host: hostname(), since });
    lock.release();
    expect(JSON.parse(readFileSync(lock.file, "utf8"))).toMatchObject({ pid: 4242 });
  });
});
