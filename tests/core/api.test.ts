import { rmSync } from "node:fs";
import { join } from "node:path";
import {
  Cache,
  Config,
  DimensionMismatchError,
  DistanceEvaluation,
  NotInitError,
  UnknownKindError,
  ValidationError,
  ValueTooLongError,
  cached,
  flush,
  get,
  importData,
  managerFactory,
  put,
  MapDataManager,
} from "../../src/index.js";
import { BagOfWordsEmbedding, tempDir } from "../helpers/fixtures.js";
import { ManualClock } from "../../src/testing/manual-clock.js";

describe("simple API on a plain cache.init()", () => {
  it("put then get returns the answer; a miss is null", async () => {
    const c = await new Cache().init();
    await put("hello", "world", { cacheObj: c });
    expect(await get("hello", { cacheObj: c })).toBe("world");
    expect(await get("goodbye", { cacheObj: c })).toBeNull();
  });

  it("init refuses an option it does not take, by name (never silently dropped)", async () => {
    const cache = new Cache();
    await expect(cache.init({ dataManger: new MapDataManager() } as never)).rejects.toThrow(/Unknown init option "dataManger".*managerFactory/);
    await expect(cache.init({ maxSize: 10, ttl: 5 } as never)).rejects.toBeInstanceOf(ValidationError);
    expect(cache.initialized).toBe(false);
  });

  it("works on the global cache", async () => {
    const { cache } = await import("../../src/index.js");
    await cache.init();
    await put("global question", "global answer");
    expect(await get("global question")).toBe("global answer");
    await flush();
  });

  it("rejects empty prompts and non-string answers", async () => {
    const c = await new Cache().init();
    await expect(put("", "a", { cacheObj: c })).rejects.toBeInstanceOf(ValidationError);
    await expect(put("q", 5 as unknown as string, { cacheObj: c })).rejects.toBeInstanceOf(ValidationError);
    await expect(get(undefined as unknown as string, { cacheObj: c })).rejects.toBeInstanceOf(ValidationError);
  });

  it("importData stores parallel lists and checks their lengths", async () => {
    const c = await new Cache().init();
    const ids = await importData(["a", "b", "c"], ["1", "2", "3"], undefined, { cacheObj: c });
    expect(ids).toHaveLength(3);
    expect(await get("b", { cacheObj: c })).toBe("2");
    await expect(importData(["a", "b"], ["1"], undefined, { cacheObj: c })).rejects.toBeInstanceOf(ValidationError);
    await expect(importData(["a"], ["1"], ["s1", "s2"], { cacheObj: c })).rejects.toBeInstanceOf(ValidationError);
  });

  it("importData links sessions and answers for a given partition", async () => {
    const c = await new Cache().init();
    await c.importData(["q"], ["for gpt"], ["s1"], { partition: { model: "gpt" } });
    expect(await get("q", { cacheObj: c })).toBeNull();
    expect(await get("q", { cacheObj: c, partition: { model: "gpt" } })).toBe("for gpt");
    expect(await c.dataManager.listSessions("s1")).toHaveLength(1);
  });

  it("importData restores stored partitions as exported, per entry, and rejects ones no export writes", async () => {
    const source = await new Cache().init();
    await source.importData(["q"], ["for gpt"], undefined, { partition: { model: "gpt" } });
    const records = [];
    for await (const record of source.dataManager.scalar.iterate()) records.push(record);
    const [record] = records;
    expect(record.partition).toMatch(/^[A-Za-z0-9_-]{16}$/);

    const target = await new Cache().init();
    await target.importData(["q", "q"], ["for gpt", "for any model"], undefined, { storedPartitions: [record.partition, undefined] });
    expect(await get("q", { cacheObj: target, partition: { model: "gpt" } })).toBe("for gpt");
    expect(await get("q", { cacheObj: target })).toBe("for any model");

    const stored = (partitions: unknown[]) =>
      target.importData(["x"], ["y"], undefined, { storedPartitions: partitions as string[] });
    await expect(stored(["not a partition"])).rejects.toThrow(/storedPartitions\[0\] is not a partition from an export/);
    await expect(stored([7])).rejects.toBeInstanceOf(ValidationError);
    await expect(stored([record.partition, record.partition])).rejects.toThrow(/as long as questions/);
    expect(await target.dataManager.count()).toBe(2);
  });

  it("importData batch-embeds, writes one transaction, and a too-long value writes nothing", async () => {
    const dir = tempDir();
    const embedding = new BagOfWordsEmbedding();
    const c = await new Cache().init({
      embeddingFunc: embedding,
      dataManager: managerFactory("sqlite,hnswlib", { dataDir: dir.path }),
    });
    const questions = Array.from({ length: 150 }, (_, i) => `question ${i}`);
    await c.importData(questions, questions.map((q) => `answer to ${q}`));
    expect(await c.dataManager.count()).toBe(150);
    expect(await c.dataManager.vector!.count()).toBe(150);
    await expect(c.importData(["ok", "x".repeat(3001)], ["a", "b"])).rejects.toBeInstanceOf(ValueTooLongError);
    expect(await c.dataManager.count()).toBe(150);
    await c.close();
    dir.cleanup();
  });

  it("a too-long question: put throws, an adapter still returns the answer and counts the skipped save", async () => {
    const c = await new Cache().init();
    const long = "y".repeat(3001);
    await expect(put(long, "a", { cacheObj: c })).rejects.toBeInstanceOf(ValueTooLongError);
    const ask = cached(async (prompt: string) => `answer (${prompt.length})`, { requestOptions: { cacheObj: c } });
    expect(await ask(long)).toBe("answer (3001)");
    expect(c.report.savesSkipped).toBe(1);
    expect(await c.dataManager.count()).toBe(0);
  });

  it("use before init throws NotInitError", async () => {
    const c = new Cache();
    await expect(put("q", "a", { cacheObj: c })).rejects.toBeInstanceOf(NotInitError);
    await expect(c.importData(["q"], ["a"])).rejects.toBeInstanceOf(NotInitError);
    await expect(c.flush()).rejects.toBeInstanceOf(NotInitError);
  });

  it("a vector of the wrong dimension is a DimensionMismatchError", async () => {
    const dir = tempDir();
    const c = await new Cache().init({
      embeddingFunc: new BagOfWordsEmbedding(),
      dataManager: managerFactory("sqlite,hnswlib", { dataDir: dir.path, vectorParams: { dimension: 32 } }),
    });
    await expect(put("q", "a", { cacheObj: c })).rejects.toBeInstanceOf(DimensionMismatchError);
    await c.close();
    dir.cleanup();
  });

  it("unknown kinds and malformed factory strings are typed errors", () => {
    expect(() => managerFactory("nosuch,hnswlib")).toThrow(UnknownKindError);
    expect(() => managerFactory("sqlite,nosuch")).toThrow(UnknownKindError);
    expect(() => managerFactory("sqlite,hnswlib,nosuch")).toThrow(UnknownKindError);
    expect(() => managerFactory("a,b,c,d")).toThrow(ValidationError);
    expect(() => managerFactory("memory", { eviction: "MRU" })).toThrow(UnknownKindError);
  });

  it("config is validated", () => {
    expect(() => new Config({ similarityThreshold: 1.5 })).toThrow(ValidationError);
    expect(() => new Config({ topK: 0 })).toThrow(ValidationError);
    expect(() => new Config({ ttl: -1 } as never)).toThrow(ValidationError);
    expect(new Config().similarityThreshold).toBe(0.8);
    expect(new Config().skipList).toEqual(["system", "assistant"]);
  });
});

describe("storage through the cache", () => {
  it("MapDataManager saves to data_map.json on flush and reloads it", async () => {
    const dir = tempDir();
    const first = await new Cache().init({ dataManager: new MapDataManager({ dataDir: dir.path }) });
    await put("persisted", "yes", { cacheObj: first });
    await first.close();
    const second = await new Cache().init({ dataManager: new MapDataManager({ dataDir: dir.path }) });
    expect(await get("persisted", { cacheObj: second })).toBe("yes");
    await second.close();
    dir.cleanup();
  });

  it("auto flush writes the map every config.autoFlush saves", async () => {
    const dir = tempDir();
    const c = await new Cache().init({ dataManager: new MapDataManager({ dataDir: dir.path }), config: { autoFlush: 3 } });
    for (const q of ["a", "b", "c"]) await put(q, q.toUpperCase(), { cacheObj: c });
    const reader = await new Cache().init({ dataManager: new MapDataManager({ dataDir: dir.path }) });
    expect(await get("c", { cacheObj: reader })).toBe("C");
    dir.cleanup();
  });

  it("maxSize 10 with cleanSize 2 after 19 inserts leaves 9", async () => {
    const c = await new Cache().init({ dataManager: new MapDataManager({ maxSize: 10, cleanSize: 2 }) });
    for (let i = 0; i < 19; i++) await put(`q${i}`, `a${i}`, { cacheObj: c });
    expect(await c.dataManager.count()).toBe(9);
  });

  it("LRU keeps a touched entry that FIFO drops", async () => {
    for (const eviction of ["LRU", "FIFO"]) {
      const clock = new ManualClock();
      const c = await new Cache().init({ dataManager: new MapDataManager({ maxSize: 3, cleanSize: 1, eviction, clock }) });
      for (const q of ["a", "b", "c"]) {
        await put(q, q, { cacheObj: c });
        clock.advance(2);
      }
      expect(await get("a", { cacheObj: c })).toBe("a"); // touch the oldest
      await put("d", "d", { cacheObj: c });
      expect(await get("a", { cacheObj: c })).toBe(eviction === "LRU" ? "a" : null);
      expect(await get("b", { cacheObj: c })).toBe(eviction === "LRU" ? null : "b");
    }
  });

  it("LFU drops the least hit entry", async () => {
    const c = await new Cache().init({ dataManager: new MapDataManager({ maxSize: 3, cleanSize: 1, eviction: "LFU" }) });
    for (const q of ["a", "b", "c"]) await put(q, q, { cacheObj: c });
    for (const q of ["a", "a", "c", "c", "b"]) await get(q, { cacheObj: c });
    await get("a", { cacheObj: c });
    await put("d", "d", { cacheObj: c });
    expect(await get("b", { cacheObj: c })).toBeNull();
    expect(await get("a", { cacheObj: c })).toBe("a");
  });

  it("TTL hides expired entries at once and purges them", async () => {
    const clock = new ManualClock();
    const c = await new Cache().init({ dataManager: new MapDataManager({ ttlSeconds: 0.05, clock }) });
    await put("short-lived", "yes", { cacheObj: c });
    expect(await get("short-lived", { cacheObj: c })).toBe("yes");
    clock.advance(80);
    expect(await get("short-lived", { cacheObj: c })).toBeNull();
    await c.flush();
    expect(await c.dataManager.count()).toBe(0);
  });

  it("a sqlite + hnswlib cache survives a restart and rebuilds its index from the rows", async () => {
    const dir = tempDir();
    const open = () =>
      new Cache().init({
        embeddingFunc: new BagOfWordsEmbedding(),
        dataManager: managerFactory("sqlite,hnswlib", { dataDir: dir.path }),
        similarityEvaluation: new DistanceEvaluation(),
        config: { autoFlush: 0 },
      });
    const first = await open();
    await put("how do volcanoes erupt", "magma pressure", { cacheObj: first });
    // The index files lost, as after a crash before they were written.
    await first.close();
    rmSync(join(dir.path, "hnswlib"), { recursive: true });
    const second = await open();
    expect(await get("how do volcanoes erupt today", { cacheObj: second })).toBe("magma pressure");
    await second.close();
    dir.cleanup();
  });
});
