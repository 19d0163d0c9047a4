import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Database from "better-sqlite3";
import { StoreError, ValidationError } from "../../src/core/errors.js";
import { LRU } from "../../src/core/eviction-policies.js";
import { SqliteScalarStore } from "../../src/stores/scalar/sqlite.js";
import { sampleRecord, testScalarStore } from "../../src/testing/scalar-store-contract.js";

testScalarStore({
  name: "SqliteScalarStore",
  persistent: true,
  create: (ctx) =>
    new SqliteScalarStore({ path: join(ctx.dir, "nested", "cache.db"), tableLenConfig: ctx.tableLenConfig, maxReports: ctx.maxReports }),
});

testScalarStore({
  name: "SqliteScalarStore in memory",
  persistent: false,
  create: (ctx) => new SqliteScalarStore({ path: ":memory:", tableLenConfig: ctx.tableLenConfig, maxReports: ctx.maxReports }),
});

describe("SqliteScalarStore", () => {
  let dir: string;
  let path: string;
  const open: SqliteScalarStore[] = [];
  const store = async (options: Partial<ConstructorParameters<typeof SqliteScalarStore>[0]> = {}) => {
    const created = new SqliteScalarStore({ path, ...options });
    open.push(created);
    await created.init();
    return created;
  };
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), "semcache-sqlite-"));
    path = join(dir, "cache.db");
  });
  afterEach(async () => {
    for (const s of open.splice(0)) await s.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it("creates the prefixed tables with the documented columns, in WAL mode", async () => {
    await store({ tablePrefix: "gc_" });
    const db = new Database(path, { readonly: true });
    const columns = (table: string) => (db.prepare(`PRAGMA table_info(${table})`).all() as Array<{ name: string }>).map((c) => c.name);
    expect(columns("gc_question")).toEqual([
      "id", "question", "answer", "answer_type", "key_hash", "partition",
      "create_on", "last_access", "hit_count", "deleted", "embedding",
    ]);
    expect(columns("gc_session")).toEqual(["question_id", "session_id"]);
    expect(columns("gc_dep")).toEqual(["id", "question_id", "dep_name", "dep_data", "dep_type"]);
    expect(columns("gc_report")).toEqual([
      "id", "user_question", "cache_question_id", "cache_question", "cache_answer",
      "similarity", "cache_delta_time", "cache_time", "extra",
    ]);
    const indexes = (db.prepare("PRAGMA index_list(gc_question)").all() as Array<{ name: string }>).map((i) => i.name);
    expect(indexes).toContain("gc_question_key_hash");
    expect(db.pragma("journal_mode", { simple: true })).toBe("wal");
    db.close();
  });

  it("keeps stores with different table prefixes in one file apart", async () => {
    const a = await store({ tablePrefix: "a_" });
    const b = await store({ tablePrefix: "b_" });
    await a.insert([sampleRecord({ keyHash: "k" }), sampleRecord()]);
    expect(await b.count()).toBe(0);
    expect(await b.findByKey("k")).toBeNull();
    expect(await a.count()).toBe(2);
  });

  it("rejects a table prefix that is not an identifier, and a bad path", () => {
    expect(() => new SqliteScalarStore({ path, tablePrefix: "x; DROP TABLE y; --" })).toThrow(ValidationError);
    expect(() => new SqliteScalarStore({ path: "" })).toThrow(ValidationError);
  });

  it("evicts an excess once when two connections share the file", async () => {
    const a = await store();
    const b = await store();
    await a.insert(Array.from({ length: 11 }, (_, i) => sampleRecord({ createdAtMs: i })));
    expect(await a.evict(LRU, 10, 2)).toHaveLength(2);
    expect(await b.evict(LRU, 10, 2)).toEqual([]);
    expect(await b.count()).toBe(9);
  });

  it("answers an exact lookup with what another connection wrote since this one last read the key", async () => {
    const a = await store();
    const b = await store();
    const [id] = await a.insert([sampleRecord({ keyHash: "k", answer: "first", createdAtMs: 1_000 })]);
    expect((await a.findByKey("k"))?.answer).toBe("first");
    await b.touch([{ id, atMs: 9_000, count: 3 }]);
    expect(await a.findByKey("k")).toMatchObject({ lastAccessedAtMs: 9_000, hitCount: 3 });
    await b.insert([sampleRecord({ keyHash: "k", answer: "second" })]);
    expect((await a.findByKey("k"))?.answer).toBe("second");
    await b.clear();
    expect(await a.findByKey("k")).toBeNull();
  });

  it("answers an exact lookup, from the next turn of the event loop, with what another process wrote", async () => {
    const s = await store();
    await s.insert([sampleRecord({ keyHash: "k", answer: "first" })]);
    expect((await s.findByKey("k"))?.answer).toBe("first");
    // A connection of its own, as another process would hold: nothing in this process hears of its writes.
    const other = new Database(path);
    try {
      other.prepare("UPDATE semcache_question SET answer = 'changed elsewhere' WHERE key_hash = 'k'").run();
    } finally {
      other.close();
    }
    await new Promise((resolve) => setImmediate(resolve));
    expect((await s.findByKey("k"))?.answer).toBe("changed elsewhere");
  });

  it("answers exact lookups alike with the recent-records set turned off, and refuses a bad size", async () => {
    const s = await store({ recentRecords: 0 });
    await s.insert([sampleRecord({ keyHash: "k", answer: "only" })]);
    expect((await s.findByKey("k"))?.answer).toBe("only");
    await s.markDeleted([(await s.findByKey("k"))?.id ?? 0]);
    expect(await s.findByKey("k")).toBeNull();
    expect(() => new SqliteScalarStore({ path, recentRecords: -1 })).toThrow(ValidationError);
    expect(() => new SqliteScalarStore({ path, recentRecords: 1.5 })).toThrow(ValidationError);
  });

  it("keeps the live count equal to the rows across every kind of write", async () => {
    const s = await store();
    const ids = await s.insert(Array.from({ length: 20 }, (_, i) => sampleRecord({ createdAtMs: i })));
    await s.markDeleted([ids[0], ids[0], ids[1]]);
    await s.expire(5);
    await s.evict(LRU, 10, 3);
    await s.purgeDeleted();
    const db = new Database(path, { readonly: true });
    const live = () => (db.prepare("SELECT COUNT(*) AS n FROM semcache_question WHERE deleted = 0").get() as { n: number }).n;
    expect(await s.count()).toBe(live());
    expect(live()).toBe(12);
    await s.clear();
    expect(await s.count()).toBe(0);
    expect(live()).toBe(0);
    db.close();
  });

  it("computes the live count for a database that has no counter yet", async () => {
    const first = await store();
    await first.insert([sampleRecord(), sampleRecord(), sampleRecord()]);
    await first.close();
    const db = new Database(path);
    db.exec("DROP TABLE semcache_meta");
    db.close();
    expect(await (await store()).count()).toBe(3);
  });

  it("reports use before init as StoreError", async () => {
    const s = new SqliteScalarStore({ path });
    await expect(s.get(1)).rejects.toBeInstanceOf(StoreError);
    await expect(s.count()).rejects.toThrow(/init/);
  });

  it("turns driver faults into StoreError", async () => {
    const folder = join(dir, "a-folder");
    mkdirSync(folder);
    await expect(new SqliteScalarStore({ path: folder }).init()).rejects.toBeInstanceOf(StoreError);
    const s = await store();
    const db = new Database(path);
    db.exec("DROP TABLE semcache_report");
    db.close();
    await expect(s.countReports()).rejects.toBeInstanceOf(StoreError);
  });
});
