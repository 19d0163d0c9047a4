/** The scalar store contract: writing records and reading them back (ids, fields, keys, deletes, touch, paging). */
import type { CacheRecord } from "../../core/types.js";
import { DEFAULT_TABLE_LEN, storeCapabilities } from "../../core/contracts/scalar-store.js";
import { bytes, collect, vector } from "./fixtures.js";
import { sampleRecord, type ScalarSuitePart, type SuiteCapability } from "./harness.js";

export function recordTests({ runner, open, persistent, tested, has, itWith }: ScalarSuitePart): void {
  const { it, expect } = runner;

  it("declares its kind, capabilities and default column lengths", async () => {
    const store = await open();
    // The probe: a store has exactly the capabilities whose tests run, so none is skipped by silence.
    const found: SuiteCapability[] = [...storeCapabilities(store), ...(store.tableLen === undefined ? [] : ["columnLengths" as const])];
    expect([...found].sort()).toEqual([...tested].sort());
    expect(typeof store.kind).toBe("string");
    expect(store.kind.length).toBeGreaterThan(0);
    expect(store.capabilities.persistent).toBe(persistent);
    expect(typeof store.capabilities.shared).toBe("boolean");
    if (has("columnLengths")) expect(store.tableLen).toEqual(DEFAULT_TABLE_LEN);
  });

  it("init is idempotent", async () => {
    const store = await open();
    await store.insert([sampleRecord()]);
    await store.init();
    expect(await store.count()).toBe(1);
  });

  it("insert returns increasing positive integer ids across batches", async () => {
    const store = await open();
    const first = await store.insert([sampleRecord(), sampleRecord(), sampleRecord()]);
    const second = await store.insert([sampleRecord(), sampleRecord()]);
    const ids = [...first, ...second];
    expect(ids.every((id) => Number.isInteger(id) && id > 0)).toBe(true);
    for (let i = 1; i < ids.length; i++) expect(ids[i]).toBeGreaterThan(ids[i - 1]);
    expect(await store.insert([])).toEqual([]);
    expect(await store.count()).toBe(5);
  });

  it("get and findByKey round-trip every field, with exact embedding bytes", async () => {
    const store = await open();
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
      createdAtMs: 1_700_000_000_123,
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
      createdAtMs: 1_700_000_000_123,
      lastAccessedAtMs: 1_700_000_000_123,
      hitCount: 0,
    };
    for (const record of [await store.get(id), await store.findByKey("hash-1")]) {
      expect(record).toEqual(expected);
      expect(record?.embedding).toBeInstanceOf(Float32Array);
      expect(bytes(record?.embedding)?.equals(bytes(embedding) as Buffer)).toBe(true);
    }
  });

  it("reads a record without deps or embedding back without them", async () => {
    const store = await open();
    const [id] = await store.insert([sampleRecord()]);
    const record = await store.get(id);
    expect(record?.embedding).toBeUndefined();
    expect(record?.deps ?? []).toEqual([]);
    expect(record?.question).toBe("q");
  });

  it("get returns null for an unknown id", async () => {
    const store = await open();
    await store.insert([sampleRecord()]);
    expect(await store.get(987_654)).toBeNull();
  });

  it("findByKey returns the newest live record with that key hash", async () => {
    const store = await open();
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
    const store = await open();
    const [first, other] = await store.insert([sampleRecord({ keyHash: "k1", answer: "first", createdAtMs: 1_000 }), sampleRecord({ keyHash: "k2", createdAtMs: 1_000 })]);
    expect((await store.findByKey("k1"))?.answer).toBe("first");
    if (has("hitCounts")) {
      await store.touch([{ id: first, atMs: 7_000, count: 2 }]);
      expect(await store.findByKey("k1")).toMatchObject({ id: first, lastAccessedAtMs: 7_000, hitCount: 2 });
    }
    const [second] = await store.insert([sampleRecord({ keyHash: "k1", answer: "second", createdAtMs: 2_000 })]);
    expect((await store.findByKey("k1"))?.id).toBe(second);
    await store.markDeleted([second]);
    expect((await store.findByKey("k1"))?.id).toBe(first);
    if (has("eviction")) expect(await store.expire(1_500)).toEqual(expect.arrayContaining([first, other]));
    else await store.markDeleted([first, other]);
    expect(await store.findByKey("k1")).toBeNull();
    const [third] = await store.insert([sampleRecord({ keyHash: "k1", answer: "third" })]);
    expect((await store.findByKey("k1"))?.id).toBe(third);
    if (has("clear")) await store.clear();
    else await store.markDeleted([third]);
    expect(await store.findByKey("k1")).toBeNull();
  });

  it("findByKey hands out records the caller may change without changing the store's", async () => {
    const store = await open();
    await store.insert([sampleRecord({ keyHash: "k", answer: "kept" })]);
    const found = await store.findByKey("k");
    if (found) found.answer = "changed by the caller";
    expect((await store.findByKey("k"))?.answer).toBe("kept");
  });

  it("hides deleted records from get, findByKey, count, iterate and embeddingsAfter", async () => {
    const store = await open();
    const ids = await store.insert([1, 2, 3].map((n) => sampleRecord({ keyHash: `k${n}`, embedding: vector(n) })));
    await store.markDeleted([ids[1]]);
    expect(await store.get(ids[1])).toBeNull();
    expect(await store.findByKey("k2")).toBeNull();
    expect(await store.count()).toBe(2);
    expect((await collect(store.iterate())).map((r) => r.id)).toEqual([ids[0], ids[2]]);
    if (has("embeddingPaging")) expect((await store.embeddingsAfter(0, 10)).map((r) => r.id)).toEqual([ids[0], ids[2]]);
  });

  it("markDeleted ignores unknown and already deleted ids", async () => {
    const store = await open();
    const [id] = await store.insert([sampleRecord(), sampleRecord()]);
    await store.markDeleted([id, 987_654]);
    await store.markDeleted([id]);
    expect(await store.count()).toBe(1);
  });

  itWith("hitCounts")("touch keeps the latest access time and adds up hit counts", async () => {
    const store = await open();
    const [id, other] = await store.insert([sampleRecord({ createdAtMs: 1_000 }), sampleRecord({ createdAtMs: 1_000 })]);
    await store.touch([
      { id, atMs: 5_000, count: 1 },
      { id, atMs: 3_000, count: 2 },
      { id: 987_654, atMs: 9_000, count: 1 },
    ]);
    expect(await store.get(id)).toMatchObject({ lastAccessedAtMs: 5_000, hitCount: 3 });
    await store.touch([{ id, atMs: 2_000, count: 1 }]);
    expect(await store.get(id)).toMatchObject({ lastAccessedAtMs: 5_000, hitCount: 4, createdAtMs: 1_000 });
    expect(await store.get(other)).toMatchObject({ lastAccessedAtMs: 1_000, hitCount: 0 });
    await store.touch([]);
  });

  itWith("embeddingPaging")("embeddingsAfter pages ascending by id and skips records without an embedding", async () => {
    const store = await open();
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
    const store = await open();
    const ids = await store.insert(
      [1, 2, 3, 4, 5, 6, 7].map((n) => sampleRecord({ question: `q${n}`, deps: [{ name: "d", data: `${n}`, type: "str" }] })),
    );
    await store.markDeleted([ids[3]]);
    const records = await collect(store.iterate(3));
    expect(records.map((r) => r.id)).toEqual(ids.filter((id) => id !== ids[3]));
    expect(records.map((r) => r.question)).toEqual(["q1", "q2", "q3", "q5", "q6", "q7"]);
    expect(records[4].deps).toEqual([{ name: "d", data: "6", type: "str" }]);
  });
}
