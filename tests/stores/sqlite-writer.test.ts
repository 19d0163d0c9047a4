/**
 * The SQLite store's writes run on a writer thread: a write that waits for the file's lock (another process
 * holding it: an import, a replica, the sqlite3 shell) or on a disk that stopped answering holds that thread,
 * never the event loop, and its caller gives up after timeoutMs (the request fails open). Another connection of
 * the test holds the lock with an open IMMEDIATE transaction, as another process would.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Database from "better-sqlite3";
import { Cache } from "../../src/presets/cache.js";
import { StoreError } from "../../src/core/errors.js";
import { managerFactory } from "../../src/presets/manager-factory.js";
import { SqliteScalarStore } from "../../src/stores/scalar/sqlite.js";
import { sampleRecord } from "../../src/testing/scalar-store-contract.js";
import { countingCachedModel } from "../helpers/connection-cut.js";

/** Scheduling on a loaded test machine, on top of the timeouts themselves. */
const SLACK_MS = 600;

describe("SqliteScalarStore writer thread", () => {
  let dir: string;
  let path: string;
  const closing: Array<{ close(): unknown }> = [];
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), "semcache-writer-"));
    path = join(dir, "cache.db");
  });
  afterEach(async () => {
    for (const c of closing.splice(0).reverse()) await c.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const open = async (options: { busyTimeoutMs?: number; timeoutMs?: number } = {}) => {
    const store = new SqliteScalarStore({ path, ...options });
    closing.push(store);
    await store.init();
    return store;
  };
  /** Another connection holding the write lock, as another process would, until released. */
  const holdLock = () => {
    const other = new Database(path);
    closing.push(other);
    other.exec("BEGIN IMMEDIATE");
    return { release: () => other.exec("COMMIT") };
  };

  it("keeps the event loop free while a write waits for another connection's lock, then commits it", async () => {
    const store = await open({ busyTimeoutMs: 5000, timeoutMs: 10_000 });
    const [first] = await store.insert([sampleRecord({ question: "before", keyHash: "k0" })]);
    const lock = holdLock();
    let settled = false;
    const waiting = store.insert([sampleRecord({ question: "while locked", keyHash: "k1" })]).finally(() => (settled = true));
    // Reads go on meanwhile (in WAL mode a reader never waits for the lock), and the lock is released from this
    // event loop. Before the writer thread the insert slept in SQLite's busy handler on the event loop itself: no read
    // ran and no release came until its busy timeout, and then it failed (SQLITE_BUSY). Asserted on what happened,
    // not on a stall's length, which a loaded machine stretches.
    let reads = 0;
    for (let i = 0; i < 20; i++) {
      await new Promise((resolve) => setTimeout(resolve, 20));
      expect((await store.get(first))?.question).toBe("before");
      reads++;
    }
    expect(settled).toBe(false);
    lock.release();
    const [second] = await waiting;
    expect(reads).toBe(20);
    expect((await store.get(second))?.question).toBe("while locked");
  });

  it("gives up on a write after timeoutMs; the thread skips a write whose caller gave up before it started", async () => {
    const store = await open({ busyTimeoutMs: 60_000, timeoutMs: 300 });
    const lock = holdLock();
    const started = performance.now();
    // The first write starts (its transaction waits for the lock); the second waits in the thread's queue.
    const [first, second] = await Promise.all(
      ["started", "queued"].map((key) => store.insert([sampleRecord({ question: key, keyHash: key })]).catch((error: unknown) => error)),
    );
    const elapsedMs = performance.now() - started;
    expect(first).toBeInstanceOf(StoreError);
    expect(String(first)).toMatch(/no answer within 300 ms \(timeoutMs\)/);
    expect(second).toBeInstanceOf(StoreError);
    expect(elapsedMs).toBeLessThan(300 + SLACK_MS);
    lock.release();
    const [next] = await store.insert([sampleRecord({ question: "next", keyHash: "next" })]);
    expect((await store.get(next))?.question).toBe("next");
    // The started one commits once the lock goes (documented: a started write may land after its caller gave up);
    // the queued one, whose caller had given up before the thread reached it, was never run.
    expect((await store.findByKey("started"))?.question).toBe("started");
    expect(await store.findByKey("queued")).toBeNull();
  });

  it("reports the driver's own fault (SQLITE_BUSY after busyTimeoutMs) as a StoreError", async () => {
    const store = await open({ busyTimeoutMs: 50, timeoutMs: 5000 });
    const lock = holdLock();
    const failed = await store.clear().catch((error: unknown) => error);
    lock.release();
    expect(failed).toBeInstanceOf(StoreError);
    expect(String(failed)).toMatch(/clear failed: database is locked/);
  });

  it("refuses a write after close and a bad timeoutMs at construction", async () => {
    const store = await open();
    await store.close();
    await expect(store.insert([sampleRecord()])).rejects.toThrow(StoreError);
    expect(() => new SqliteScalarStore({ path, timeoutMs: 0 })).toThrow(/timeoutMs must be a positive integer/);
  });

  it("a cache on a locked file answers from the model within timeoutMs and counts the failed save", async () => {
    const cache = await new Cache().init({
      dataManager: managerFactory("sqlite", { dataDir: dir, scalarParams: { busyTimeoutMs: 60_000, timeoutMs: 300 } }),
    });
    closing.push({ close: () => cache.close() });
    path = join(dir, "sqlite.db");
    const { ask, calls } = countingCachedModel(cache);
    const lock = holdLock();
    const started = performance.now();
    expect(await ask("What is the capital of France?")).toMatch(/capital of France/);
    expect(performance.now() - started).toBeLessThan(300 + SLACK_MS);
    expect(calls()).toBe(1);
    expect(cache.report.toJSON().errors).toBeGreaterThanOrEqual(1);
    lock.release();
  });
});
