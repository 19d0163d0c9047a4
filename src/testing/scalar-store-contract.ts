/// <reference types="jest" />
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ValidationError, ValueTooLongError } from "../core/errors.js";
import type { CacheRecord, NewRecord, ReportRow } from "../core/types.js";
import { FIFO, LFU, LRU } from "../manager/eviction/policies.js";
import type { EvictionPolicy } from "../manager/eviction/types.js";
import { DEFAULT_TABLE_LEN, type ScalarStore, type TableLenConfig } from "../stores/scalar/types.js";

/** What a store factory gets for one test. */
export interface StoreTestContext {
  /** An empty directory owned by the test (removed after it); the same when reopening. */
  dir: string;
  /** Unique per test and the same when reopening: a table prefix or namespace for server stores. */
  testId: string;
  /** True when the suite wants a new instance on the data of the previous one (after closing it). */
  reopen: boolean;
  /** Column lengths the test needs; undefined means the defaults. */
  tableLenConfig?: Partial<TableLenConfig>;
  /** Report rows the test wants kept (the store's `maxReports`); undefined means the default. */
  maxReports?: number;
}

/** Creates a store (not yet initialised) on the test's data: empty unless `ctx.reopen`. */
export type ScalarStoreFactory = (ctx: StoreTestContext) => ScalarStore | Promise<ScalarStore>;

export interface ScalarStoreSuiteOptions {
  name: string;
  create: ScalarStoreFactory;
  /** Whether the store keeps its data across close() and a new instance (its `capabilities.persistent`). */
  persistent: boolean;
  /** Runs after each test, once its stores are closed (e.g. drop a server database's tables). */
  cleanup?: (ctx: StoreTestContext) => void | Promise<void>;
}

/**
 * Registers beforeEach/afterEach hooks giving each test a fresh context; `open()` creates and initialises a
 * store on it, and every store opened is closed after the test. Shared by the scalar and eviction suites.
 */
export function scalarStoreHarness(create: ScalarStoreFactory, cleanup?: ScalarStoreSuiteOptions["cleanup"]) {
  let ctx: StoreTestContext;
  let opened: ScalarStore[] = [];
  let counter = 0;
  beforeEach(async () => {
    const dir = await mkdtemp(join(tmpdir(), "semcache-store-"));
    ctx = { dir, testId: `t${process.pid}x${Date.now().toString(36)}x${++counter}`, reopen: false };
  });
  afterEach(async () => {
    for (const store of opened) await store.close();
    opened = [];
    await cleanup?.(ctx);
    await rm(ctx.dir, { recursive: true, force: true });
  });
  return {
    async open(overrides: Partial<Pick<StoreTestContext, "reopen" | "tableLenConfig" | "maxReports">> = {}): Promise<ScalarStore> {
      const store = await create({ ...ctx, ...overrides });
      opened.push(store);
      await store.init();
      return store;
    },
  };
}

/** A record with defaults, for tests. */
export function sampleRecord(overrides: Partial<NewRecord> = {}): NewRecord {
  return { question: "q", answer: "a", answerType: "str", keyHash: "k", partition: "p", createOn: 1_000, ...overrides };
}

function vector(seed: number): Float32Array {
  return Float32Array.from({ length: 8 }, (_, i) => Math.sin(seed * 31 + i) / (i + 1));
}

function bytes(v: Float32Array | undefined): Buffer | undefined {
  return v && Buffer.from(v.buffer, v.byteOffset, v.byteLength);
}

async function collect<T>(items: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const item of items) out.push(item);
  return out;
}

const sortIds = (ids: readonly number[]) => [...ids].sort((a, b) => a - b);
const bySessionThenId = (a: { id: number; session: string }, b: { id: number; session: string }) =>
  a.session < b.session ? -1 : a.session > b.session ? 1 : a.id - b.id;

function report(overrides: Partial<ReportRow> = {}): ReportRow {
  return {
    userQuestion: "what?",
    cacheQuestionId: 1,
    cacheQuestion: "what",
    cacheAnswer: "that",
    similarity: 0.93,
    cacheDeltaTime: 1.5,
    cacheTime: 1_700_000_000_000,
    ...overrides,
  };
}

/**
 * Four records whose eviction order differs per built-in policy (created 1..4; last access / hits):
 * A 100/2, B 50/5, C 60/1, D 70/9. First two out: LRU B,C; LFU C,A; FIFO A,B.
 */
export async function insertEvictionScenario(store: ScalarStore): Promise<Record<"A" | "B" | "C" | "D", number>> {
  const [A, B, C, D] = await store.insert(
    ["A", "B", "C", "D"].map((name, i) => sampleRecord({ question: name, keyHash: name, createOn: i + 1 })),
  );
  await store.touch([
    { id: A, at: 100, count: 2 },
    { id: B, at: 50, count: 5 },
    { id: C, at: 60, count: 1 },
    { id: D, at: 70, count: 9 },
  ]);
  return { A, B, C, D };
}

/** Registers the behaviours every ScalarStore must have. */
export function testScalarStore(options: ScalarStoreSuiteOptions): void {
  const { name, persistent } = options;

  describe(`${name} (scalar store contract)`, () => {
    const h = scalarStoreHarness(options.create, options.cleanup);

    it("declares its kind, capabilities and default column lengths", async () => {
      const store = await h.open();
      expect(typeof store.kind).toBe("string");
      expect(store.kind.length).toBeGreaterThan(0);
      expect(store.capabilities.persistent).toBe(persistent);
      expect(typeof store.capabilities.shared).toBe("boolean");
      expect(store.tableLen).toEqual(DEFAULT_TABLE_LEN);
    });

    it("init is idempotent", async () => {
      const store = await h.open();
      await store.insert([sampleRecord()]);
      await store.init();
      expect(await store.count()).toBe(1);
    });

    it("insert returns increasing positive integer ids across batches", async () => {
      const store = await h.open();
      const first = await store.insert([sampleRecord(), sampleRecord(), sampleRecord()]);
      const second = await store.insert([sampleRecord(), sampleRecord()]);
      const ids = [...first, ...second];
      expect(ids.every((id) => Number.isInteger(id) && id > 0)).toBe(true);
      for (let i = 1; i < ids.length; i++) expect(ids[i]).toBeGreaterThan(ids[i - 1]);
      expect(await store.insert([])).toEqual([]);
      expect(await store.count()).toBe(5);
    });

    it("get and findByKey round-trip every field, with exact embedding bytes", async () => {
      const store = await h.open();
      const embedding = Float32Array.from([0.1, -1 / 3, 1e-30, Math.PI, -0, 3.4e38, 1.17549435e-38, 0.5]);
      const input = sampleRecord({
        question: "What is the capital of France?",
        answer: "Paris.",
        answerType: "image_url",
        keyHash: "hash-1",
        partition: "model=gpt",
        deps: [
          { name: "image", data: "aGVsbG8=", type: "image_base64" },
          { name: "caption", data: "a cat", type: "str" },
        ],
        embedding,
        createOn: 1_700_000_000_123,
      });
      const [id] = await store.insert([input]);
      const expected: CacheRecord = {
        id,
        question: input.question,
        answer: input.answer,
        answerType: "image_url",
        keyHash: "hash-1",
        partition: "model=gpt",
        deps: input.deps,
        embedding,
        createOn: 1_700_000_000_123,
        lastAccess: 1_700_000_000_123,
        hitCount: 0,
      };
      for (const record of [await store.get(id), await store.findByKey("hash-1")]) {
        expect(record).toEqual(expected);
        expect(record?.embedding).toBeInstanceOf(Float32Array);
        expect(bytes(record?.embedding)?.equals(bytes(embedding) as Buffer)).toBe(true);
      }
    });

    it("reads a record without deps or embedding back without them", async () => {
      const store = await h.open();
      const [id] = await store.insert([sampleRecord()]);
      const record = await store.get(id);
      expect(record?.embedding).toBeUndefined();
      expect(record?.deps ?? []).toEqual([]);
      expect(record?.question).toBe("q");
    });

    it("get returns null for an unknown id", async () => {
      const store = await h.open();
      await store.insert([sampleRecord()]);
      expect(await store.get(987_654)).toBeNull();
    });

    it("findByKey returns the newest live record with that key hash", async () => {
      const store = await h.open();
      const [older, , newer] = await store.insert([
        sampleRecord({ keyHash: "k1", answer: "first" }),
        sampleRecord({ keyHash: "k2", answer: "other" }),
        sampleRecord({ keyHash: "k1", answer: "second" }),
      ]);
      expect((await store.findByKey("k1"))?.id).toBe(newer);
      await store.markDeleted([newer]);
      expect((await store.findByKey("k1"))?.answer).toBe("first");
      await store.markDeleted([older]);
      expect(await store.findByKey("k1")).toBeNull();
      expect(await store.findByKey("missing")).toBeNull();
      expect((await store.findByKey("k2"))?.answer).toBe("other");
    });

    it("findByKey after a lookup still answers with every later write", async () => {
      const store = await h.open();
      const [first, other] = await store.insert([sampleRecord({ keyHash: "k1", answer: "first", createOn: 1_000 }), sampleRecord({ keyHash: "k2", createOn: 1_000 })]);
      expect((await store.findByKey("k1"))?.answer).toBe("first");
      await store.touch([{ id: first, at: 7_000, count: 2 }]);
      expect(await store.findByKey("k1")).toMatchObject({ id: first, lastAccess: 7_000, hitCount: 2 });
      const [second] = await store.insert([sampleRecord({ keyHash: "k1", answer: "second", createOn: 2_000 })]);
      expect((await store.findByKey("k1"))?.id).toBe(second);
      await store.markDeleted([second]);
      expect((await store.findByKey("k1"))?.id).toBe(first);
      expect(await store.expire(1_500)).toEqual(expect.arrayContaining([first, other]));
      expect(await store.findByKey("k1")).toBeNull();
      const [third] = await store.insert([sampleRecord({ keyHash: "k1", answer: "third" })]);
      expect((await store.findByKey("k1"))?.id).toBe(third);
      await store.clear();
      expect(await store.findByKey("k1")).toBeNull();
    });

    it("findByKey hands out records the caller may change without changing the store's", async () => {
      const store = await h.open();
      await store.insert([sampleRecord({ keyHash: "k", answer: "kept" })]);
      const found = await store.findByKey("k");
      if (found) found.answer = "changed by the caller";
      expect((await store.findByKey("k"))?.answer).toBe("kept");
    });

    it("hides deleted records from get, findByKey, count, iterate and embeddingsAfter", async () => {
      const store = await h.open();
      const ids = await store.insert([1, 2, 3].map((n) => sampleRecord({ keyHash: `k${n}`, embedding: vector(n) })));
      await store.markDeleted([ids[1]]);
      expect(await store.get(ids[1])).toBeNull();
      expect(await store.findByKey("k2")).toBeNull();
      expect(await store.count()).toBe(2);
      expect((await collect(store.iterate())).map((r) => r.id)).toEqual([ids[0], ids[2]]);
      expect((await store.embeddingsAfter(0, 10)).map((r) => r.id)).toEqual([ids[0], ids[2]]);
    });

    it("markDeleted ignores unknown and already deleted ids", async () => {
      const store = await h.open();
      const [id] = await store.insert([sampleRecord(), sampleRecord()]);
      await store.markDeleted([id, 987_654]);
      await store.markDeleted([id]);
      expect(await store.count()).toBe(1);
    });

    it("touch keeps the latest access time and adds up hit counts", async () => {
      const store = await h.open();
      const [id, other] = await store.insert([sampleRecord({ createOn: 1_000 }), sampleRecord({ createOn: 1_000 })]);
      await store.touch([
        { id, at: 5_000, count: 1 },
        { id, at: 3_000, count: 2 },
        { id: 987_654, at: 9_000, count: 1 },
      ]);
      expect(await store.get(id)).toMatchObject({ lastAccess: 5_000, hitCount: 3 });
      await store.touch([{ id, at: 2_000, count: 1 }]);
      expect(await store.get(id)).toMatchObject({ lastAccess: 5_000, hitCount: 4, createOn: 1_000 });
      expect(await store.get(other)).toMatchObject({ lastAccess: 1_000, hitCount: 0 });
      await store.touch([]);
    });

    it("evict does nothing at or under maxSize", async () => {
      const store = await h.open();
      await store.insert([1, 2, 3, 4, 5].map((n) => sampleRecord({ createOn: n })));
      expect(await store.evict(LRU, 5, 2)).toEqual([]);
      expect(await store.evict(FIFO, 50, 2)).toEqual([]);
      expect(await store.count()).toBe(5);
    });

    const builtIn: Array<[string, EvictionPolicy, Array<"A" | "B" | "C" | "D">]> = [
      ["LRU", LRU, ["B", "C"]],
      ["LFU", LFU, ["C", "A"]],
      ["FIFO", FIFO, ["A", "B"]],
    ];
    it.each(builtIn)("evict with %s marks cleanSize records deleted in the policy's order", async (_name, policy, out) => {
      const store = await h.open();
      const ids = await insertEvictionScenario(store);
      const evicted = await store.evict(policy, 2, 2);
      expect(sortIds(evicted)).toEqual(sortIds(out.map((key) => ids[key])));
      for (const id of evicted) expect(await store.get(id)).toBeNull();
      expect(await store.count()).toBe(2);
    });

    it("evict honours a custom policy (most hits first)", async () => {
      const store = await h.open();
      const ids = await insertEvictionScenario(store);
      const mostHits: EvictionPolicy = { name: "MFU", order: [{ column: "hitCount", direction: "desc" }] };
      expect(sortIds(await store.evict(mostHits, 3, 2))).toEqual(sortIds([ids.D, ids.B]));
    });

    it("evict rejects a negative maxSize or a cleanSize under 1 with ValidationError", async () => {
      const store = await h.open();
      await expect(store.evict(LRU, -1, 1)).rejects.toBeInstanceOf(ValidationError);
      await expect(store.evict(LRU, 1, 0)).rejects.toBeInstanceOf(ValidationError);
    });

    it("expire marks records created strictly before the cutoff", async () => {
      const store = await h.open();
      const ids = await store.insert([100, 200, 300].map((createOn) => sampleRecord({ createOn })));
      expect(await store.expire(200)).toEqual([ids[0]]);
      expect(await store.count()).toBe(2);
      expect(sortIds(await store.expire(1_000))).toEqual([ids[1], ids[2]]);
      expect(await store.expire(1_000)).toEqual([]);
      expect(await store.count()).toBe(0);
    });

    it("purgeDeleted removes deleted records and their session links, and ids are never reused", async () => {
      const store = await h.open();
      const ids = await store.insert([1, 2, 3].map(() => sampleRecord({ session: "s" })));
      await store.markDeleted([ids[2]]);
      expect(await store.purgeDeleted()).toBe(1);
      expect(await store.purgeDeleted()).toBe(0);
      expect(await store.sessionsOf(ids[2])).toEqual([]);
      expect(sortIds((await store.listSessions("s")).map((link) => link.id))).toEqual([ids[0], ids[1]]);
      const [next] = await store.insert([sampleRecord()]);
      expect(next).toBeGreaterThan(ids[2]);
      expect(await store.count()).toBe(3);
    });

    it("deletedObjectKeys lists the object deps of deleted records until they are purged", async () => {
      const store = await h.open();
      const object = (key: string) => ({ name: "image", data: key, type: "object" as const });
      const ids = await store.insert([
        sampleRecord({ keyHash: "a", deps: [object("a1.png"), object("a2.png"), { name: "text", data: "not a file", type: "str" }] }),
        sampleRecord({ keyHash: "b", deps: [object("b.png")] }),
        sampleRecord({ keyHash: "c", deps: [{ name: "text", data: "c", type: "str" }] }),
        sampleRecord({ keyHash: "d" }),
      ]);
      expect(await store.deletedObjectKeys()).toEqual([]);
      expect((await store.findByKey("a"))?.deps).toEqual([object("a1.png"), object("a2.png"), { name: "text", data: "not a file", type: "str" }]);
      await store.markDeleted([ids[0], ids[2], ids[3]]);
      expect((await store.deletedObjectKeys()).sort()).toEqual(["a1.png", "a2.png"]);
      await store.purgeDeleted();
      expect(await store.deletedObjectKeys()).toEqual([]);
      await store.clear();
      expect(await store.deletedObjectKeys()).toEqual(["b.png"]);
      await store.purgeDeleted();
      expect(await store.deletedObjectKeys()).toEqual([]);
    });

    it("clear hides every record and later inserts still work", async () => {
      const store = await h.open();
      const ids = await store.insert([sampleRecord({ keyHash: "x" }), sampleRecord()]);
      await store.clear();
      expect(await store.count()).toBe(0);
      expect(await store.findByKey("x")).toBeNull();
      expect(await store.get(ids[0])).toBeNull();
      expect(await collect(store.iterate())).toEqual([]);
      const [next] = await store.insert([sampleRecord({ keyHash: "x" })]);
      expect(next).toBeGreaterThan(ids[1]);
      expect((await store.findByKey("x"))?.id).toBe(next);
      expect(await store.count()).toBe(1);
    });

    it("embeddingsAfter pages ascending by id and skips records without an embedding", async () => {
      const store = await h.open();
      const ids = await store.insert(
        [1, 2, 3, 4, 5].map((n) => sampleRecord({ embedding: n === 3 ? undefined : vector(n) })),
      );
      const first = await store.embeddingsAfter(0, 2);
      expect(first.map((r) => r.id)).toEqual([ids[0], ids[1]]);
      expect(bytes(first[1].embedding)?.equals(bytes(vector(2)) as Buffer)).toBe(true);
      expect((await store.embeddingsAfter(ids[1], 2)).map((r) => r.id)).toEqual([ids[3], ids[4]]);
      expect(await store.embeddingsAfter(ids[4], 2)).toEqual([]);
    });

    it("iterate yields every live record ascending by id, across batches", async () => {
      const store = await h.open();
      const ids = await store.insert(
        [1, 2, 3, 4, 5, 6, 7].map((n) => sampleRecord({ question: `q${n}`, deps: [{ name: "d", data: `${n}`, type: "str" }] })),
      );
      await store.markDeleted([ids[3]]);
      const records = await collect(store.iterate(3));
      expect(records.map((r) => r.id)).toEqual(ids.filter((id) => id !== ids[3]));
      expect(records.map((r) => r.question)).toEqual(["q1", "q2", "q3", "q5", "q6", "q7"]);
      expect(records[4].deps).toEqual([{ name: "d", data: "6", type: "str" }]);
    });

    it("links sessions idempotently, lists them and deletes them per session", async () => {
      const store = await h.open();
      const [a, b] = await store.insert([sampleRecord({ session: "s1" }), sampleRecord()]);
      expect(await store.sessionsOf(a)).toEqual(["s1"]);
      await store.addSession(a, "s1");
      await store.addSession(a, "s2");
      await store.addSession(b, "s1");
      expect([...(await store.sessionsOf(a))].sort()).toEqual(["s1", "s2"]);
      expect(await store.sessionsOf(987_654)).toEqual([]);
      expect([...(await store.listSessions("s1"))].sort(bySessionThenId)).toEqual([
        { id: a, session: "s1" },
        { id: b, session: "s1" },
      ]);
      expect([...(await store.listSessions())].sort(bySessionThenId)).toEqual([
        { id: a, session: "s1" },
        { id: b, session: "s1" },
        { id: a, session: "s2" },
      ]);
      expect(await store.deleteSession("s1")).toBe(2);
      expect(await store.deleteSession("nope")).toBe(0);
      expect(await store.listSessions()).toEqual([{ id: a, session: "s2" }]);
      expect(await store.sessionsOf(b)).toEqual([]);
    });

    it("appends and counts report rows", async () => {
      const store = await h.open();
      expect(await store.countReports()).toBe(0);
      await store.addReports([report(), report({ extra: '{"k":1}' })]);
      await store.addReports([report({ similarity: 1 })]);
      await store.addReports([]);
      expect(await store.countReports()).toBe(3);
    });

    it("keeps only the newest maxReports report rows", async () => {
      const store = await h.open({ maxReports: 3 });
      const [older, newer] = await store.insert([sampleRecord(), sampleRecord()]);
      await store.addReports([report({ cacheQuestionId: older }), report({ cacheQuestionId: older })]);
      await store.addReports([report({ cacheQuestionId: older }), report({ cacheQuestionId: newer })]);
      await store.addReports([report({ cacheQuestionId: newer }), report({ cacheQuestionId: newer })]);
      expect(await store.countReports()).toBe(3);
      // The three kept all name `newer`: removing it leaves none.
      await store.markDeleted([newer]);
      await store.purgeDeleted();
      expect(await store.countReports()).toBe(0);
      await store.addReports(Array.from({ length: 7 }, () => report({ cacheQuestionId: older })));
      expect(await store.countReports()).toBe(3);
    });

    it("keeps no report rows with maxReports 0, and refuses a negative or fractional maxReports", async () => {
      const store = await h.open({ maxReports: 0 });
      await store.addReports([report(), report()]);
      expect(await store.countReports()).toBe(0);
      await expect(h.open({ maxReports: -1 })).rejects.toBeInstanceOf(ValidationError);
      await expect(h.open({ maxReports: 2.5 })).rejects.toBeInstanceOf(ValidationError);
    });

    it("purgeDeleted removes the report rows of the records it removes, and only those", async () => {
      const store = await h.open();
      const [gone, kept] = await store.insert([sampleRecord({ keyHash: "gone" }), sampleRecord({ keyHash: "kept" })]);
      await store.addReports([report({ cacheQuestionId: gone }), report({ cacheQuestionId: kept }), report({ cacheQuestionId: gone })]);
      await store.markDeleted([gone]);
      expect(await store.countReports()).toBe(3);
      expect(await store.purgeDeleted()).toBe(1);
      expect(await store.countReports()).toBe(1);
    });

    it("clear removes every report row", async () => {
      const store = await h.open();
      const [id] = await store.insert([sampleRecord()]);
      await store.addReports([report({ cacheQuestionId: id }), report({ cacheQuestionId: id })]);
      await store.clear();
      expect(await store.countReports()).toBe(0);
      await store.addReports([report({ cacheQuestionId: id })]);
      expect(await store.countReports()).toBe(1);
    });

    it("rejects a batch with a too-long question with ValueTooLongError and writes none of it", async () => {
      const store = await h.open();
      const tooLong = "x".repeat(DEFAULT_TABLE_LEN.question_question + 1);
      const attempt = store.insert([sampleRecord({ keyHash: "ok", session: "s" }), sampleRecord({ question: tooLong })]);
      await expect(attempt).rejects.toBeInstanceOf(ValueTooLongError);
      await expect(attempt).rejects.toMatchObject({
        field: "question_question",
        length: DEFAULT_TABLE_LEN.question_question + 1,
        maxLength: DEFAULT_TABLE_LEN.question_question,
      });
      expect(await store.count()).toBe(0);
      expect(await store.findByKey("ok")).toBeNull();
      expect(await store.listSessions()).toEqual([]);
      expect(await store.insert([sampleRecord({ question: tooLong.slice(1) })])).toHaveLength(1);
    });

    const small: TableLenConfig = { question_question: 5, answer_answer: 5, session_id: 5, dep_name: 5, dep_data: 5 };
    const fields: Array<[keyof TableLenConfig, (value: string) => Partial<NewRecord>]> = [
      ["question_question", (question) => ({ question })],
      ["answer_answer", (answer) => ({ answer })],
      ["session_id", (session) => ({ session })],
      ["dep_name", (name) => ({ deps: [{ name, data: "d", type: "str" }] })],
      ["dep_data", (data) => ({ deps: [{ name: "n", data, type: "str" }] })],
    ];
    it.each(fields)("enforces tableLenConfig.%s, accepting values at the limit", async (field, withValue) => {
      const store = await h.open({ tableLenConfig: small });
      expect(store.tableLen).toEqual(small);
      await expect(store.insert([sampleRecord(withValue("123456"))])).rejects.toMatchObject({ field, length: 6, maxLength: 5 });
      expect(await store.insert([sampleRecord(withValue("12345"))])).toHaveLength(1);
      expect(await store.count()).toBe(1);
    });

    it("rejects a too-long session id in addSession without linking it", async () => {
      const store = await h.open({ tableLenConfig: { session_id: 3 } });
      const [id] = await store.insert([sampleRecord()]);
      await expect(store.addSession(id, "abcd")).rejects.toBeInstanceOf(ValueTooLongError);
      expect(await store.sessionsOf(id)).toEqual([]);
    });

    it("counts column lengths in characters, not UTF-16 units", async () => {
      const store = await h.open({ tableLenConfig: { question_question: 5 } });
      expect(await store.insert([sampleRecord({ question: "😀😀😀😀😀" })])).toHaveLength(1);
      await expect(store.insert([sampleRecord({ question: "😀😀😀😀😀😀" })])).rejects.toMatchObject({ length: 6 });
    });

    it("rejects an invalid tableLenConfig with ValidationError", async () => {
      await expect(h.open({ tableLenConfig: { question_question: 0 } })).rejects.toBeInstanceOf(ValidationError);
      await expect(
        h.open({ tableLenConfig: { question_length: 10 } as unknown as Partial<TableLenConfig> }),
      ).rejects.toBeInstanceOf(ValidationError);
    });

    it("round-trips unicode text in every column", async () => {
      const store = await h.open();
      const text = "Ünïcödé 中文 العربية 😀👩‍👩‍👧 e\u0301 \t\n'\"\\ %_";
      const [id] = await store.insert([
        sampleRecord({
          question: text,
          answer: `${text}!`,
          keyHash: text,
          partition: text,
          session: text,
          deps: [{ name: text, data: text, type: "str" }],
        }),
      ]);
      const record = await store.findByKey(text);
      expect(record).toMatchObject({ id, question: text, answer: `${text}!`, partition: text });
      expect(record?.deps).toEqual([{ name: text, data: text, type: "str" }]);
      expect(await store.sessionsOf(id)).toEqual([text]);
      expect(await store.listSessions(text)).toEqual([{ id, session: text }]);
    });

    it("close is idempotent", async () => {
      const store = await h.open();
      await store.flush();
      await store.close();
      await store.close();
    });

    (persistent ? it : it.skip)("keeps records, bookkeeping, sessions and reports across close() and a new instance", async () => {
      const store = await h.open();
      const ids = await store.insert([
        sampleRecord({ keyHash: "a", embedding: vector(1), deps: [{ name: "n", data: "d", type: "str" }], session: "s" }),
        sampleRecord({ keyHash: "b", embedding: vector(2) }),
        sampleRecord({ keyHash: "c" }),
      ]);
      await store.touch([{ id: ids[0], at: 9_000, count: 4 }]);
      await store.markDeleted([ids[2]]);
      await store.addReports([report()]);
      const before = await collect(store.iterate());
      await store.close();

      const reopened = await h.open({ reopen: true });
      expect(await collect(reopened.iterate())).toEqual(before);
      expect(await reopened.get(ids[0])).toMatchObject({ lastAccess: 9_000, hitCount: 4 });
      expect(await reopened.get(ids[2])).toBeNull();
      expect(await reopened.count()).toBe(2);
      expect((await reopened.findByKey("b"))?.id).toBe(ids[1]);
      expect(await reopened.sessionsOf(ids[0])).toEqual(["s"]);
      expect(await reopened.countReports()).toBe(1);
      expect(await reopened.purgeDeleted()).toBe(1);
      const [next] = await reopened.insert([sampleRecord()]);
      expect(next).toBeGreaterThan(ids[2]);
    });
  });
}
