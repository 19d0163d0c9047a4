/**
 * The usearch index in a thread of its own: the VectorIndex contract, errors thrown there arriving here as the
 * same typed errors, the folder's lock held by this process, and a thread that stops.
 */
import { join } from "node:path";
import { loadGptCacheConfig } from "../../src/config/gptcache-config.js";
import { DimensionMismatchError, StoreError, ValidationError } from "../../src/core/errors.js";
import { managerFactory } from "../../src/presets/manager-factory.js";
import { createVectorIndex } from "../../src/stores/vector/kinds.js";
import { ThreadedUsearchIndex } from "../../src/stores/vector/threaded-usearch-index.js";
import { UsearchIndex } from "../../src/stores/vector/usearch-index.js";
import { randomUnitVector, seededRandom, testVectorIndex, vectorAtCosine } from "../../src/testing/vector-index-contract.js";
import { tempDirEachTest } from "../helpers/fixtures.js";

testVectorIndex({
  name: "ThreadedUsearchIndex (f32, memory)",
  create: ({ dimension }) => new ThreadedUsearchIndex({ dimension, quantization: "f32" }),
});

testVectorIndex({
  name: "ThreadedUsearchIndex (i8, saved to a folder)",
  create: ({ dir, dimension }) => new ThreadedUsearchIndex({ dimension, path: join(dir, "usearch") }),
  persistent: true,
  distanceDigits: 1,
});

testVectorIndex({
  name: "ThreadedUsearchIndex (saved in process, reopened in a thread, memory-mapped)",
  create: ({ dir, dimension }) => new UsearchIndex({ dimension, quantization: "f16", path: join(dir, "usearch") }),
  reopen: ({ dir, dimension }) => new ThreadedUsearchIndex({ dimension, path: join(dir, "usearch"), view: true }),
  persistent: true,
  distanceDigits: 3,
});

describe("ThreadedUsearchIndex", () => {
  const random = seededRandom(41);
  const temp = tempDirEachTest("semcache-usearch-thread-");

  it("throws the thread's errors as the same classes, with their fields", async () => {
    const index = new ThreadedUsearchIndex({ dimension: 8 });
    await index.init();
    const bad = index.add([{ id: -1, vector: randomUnitVector(8, random) }]);
    await expect(bad).rejects.toThrow(ValidationError);
    await expect(bad).rejects.toMatchObject({ code: "SEMCACHE_VALIDATION", statusCode: 400, message: expect.stringMatching(/ids must be integers/) });
    expect(ValidationError.isInstance(await bad.catch((error: unknown) => error))).toBe(true);
    await expect(index.search(randomUnitVector(4, random), 1)).rejects.toThrow(DimensionMismatchError);
    await index.close();
  });

  it("checks its options and an add's ids here, as in process: a refused add leaves the dimension unset", async () => {
    expect(() => new ThreadedUsearchIndex({ dimension: 8, quantization: "f8" as "f16" })).toThrow(ValidationError);
    expect(() => new ThreadedUsearchIndex({ dimension: 8, connectivity: 1 })).toThrow(ValidationError);
    const index = new ThreadedUsearchIndex({ dimension: 0 });
    await index.init();
    await expect(index.add([{ id: -1, vector: randomUnitVector(8, random) }])).rejects.toThrow(ValidationError);
    await expect(index.add([{ id: "5" as unknown as number, vector: randomUnitVector(8, random) }])).rejects.toThrow(/ids must be integers/);
    expect(index.dimension).toBe(0);
    await index.add([{ id: 1, vector: randomUnitVector(4, random) }]);
    expect(index.dimension).toBe(4);
    await index.close();
  });

  it("refuses a saved index's other quantization with the in-process message", async () => {
    const path = join(temp.path, "usearch");
    const saved = new UsearchIndex({ dimension: 8, quantization: "f16", path });
    await saved.init();
    await saved.add([{ id: 1, vector: randomUnitVector(8, random) }]);
    await saved.close();
    const index = new ThreadedUsearchIndex({ dimension: 8, quantization: "i8", path });
    await expect(index.init()).rejects.toThrow(/stores f16 vectors, quantization asks for i8/);
    // A failed init is not remembered: the retry starts a thread again, and is refused for the same reason.
    await expect(index.init()).rejects.toThrow(/stores f16 vectors, quantization asks for i8/);
    // The failed init released the folder: another index opens it, and reads what it was built with.
    const again = new ThreadedUsearchIndex({ dimension: 8, path });
    await again.init();
    expect(again.quantization).toBe("f16");
    expect(again.capabilities.roundedDistances).toBe(true);
    expect(await again.count()).toBe(1);
    await again.close();
  });

  it("holds the folder's lock in this process: an in-process index on the same folder is refused", async () => {
    const path = join(temp.path, "usearch");
    const threaded = new ThreadedUsearchIndex({ dimension: 8, path });
    await threaded.init();
    await expect(new UsearchIndex({ dimension: 8, path }).init()).rejects.toThrow(StoreError);
    await expect(new ThreadedUsearchIndex({ dimension: 8, path }).init()).rejects.toThrow(/is in use by another cache in this process/);
    await threaded.close();
    const after = new UsearchIndex({ dimension: 8, path });
    await after.init();
    await after.close();
  });

  it("answers searches between the slices of a bulk add running in its thread", async () => {
    const index = new ThreadedUsearchIndex({ dimension: 64 });
    await index.init();
    const items = Array.from({ length: 20_000 }, (_, i) => ({ id: i + 1, vector: randomUnitVector(64, random) }));
    await index.add(items.slice(0, 1));
    let settled = false;
    const adding = index.add(items.slice(1)).finally(() => (settled = true));
    const countsDuring: number[] = [];
    while (!settled) countsDuring.push(await index.count());
    await adding;
    expect(countsDuring.some((count) => count > 1 && count < items.length)).toBe(true);
    expect(countsDuring).toEqual([...countsDuring].sort((a, b) => a - b));
    const [nearest] = await index.search(items[12_345].vector, 1);
    expect(nearest.id).toBe(12_346);
    await index.close();
  });

  const stop = (index: ThreadedUsearchIndex) => (index as unknown as { worker: { terminate(): Promise<number> } }).worker.terminate();

  it.each([
    ["fails every call from then on", async (index: ThreadedUsearchIndex) => {
      await stop(index);
      await expect(index.count()).rejects.toThrow(/the index's thread exited/);
      await expect(index.close()).rejects.toThrow(/changes since the last flush were not saved/);
    }],
    ["stops while closing", async (index: ThreadedUsearchIndex) => {
      // Stopped before the thread gets close()'s call (close() first waits a turn for an init under way).
      const closing = index.close();
      await stop(index);
      await expect(closing).rejects.toThrow(/changes since the last flush were not saved/);
    }],
  ])("a thread that stops %s: close() says what was not saved and releases the folder", async (_, stopped) => {
    const path = join(temp.path, "usearch");
    const index = new ThreadedUsearchIndex({ dimension: 8, path });
    await index.init();
    await index.add([{ id: 1, vector: randomUnitVector(8, random) }]);
    await index.flush();
    await index.add([{ id: 2, vector: randomUnitVector(8, random) }]);
    await stopped(index);
    await expect(index.close()).resolves.toBeUndefined();
    // The folder is released, and holds what was flushed.
    const reopened = new ThreadedUsearchIndex({ dimension: 8, path });
    await reopened.init();
    expect(await reopened.count()).toBe(1);
    await reopened.close();
  });

  it("is refused, with the other usearch options, by the kinds that would not read it", () => {
    expect(() => createVectorIndex("hnswlib", { dimension: 8, thread: true })).toThrow(ValidationError);
    expect(() => createVectorIndex("flat", { dimension: 8, quantization: "f16", view: true })).toThrow(
      'quantization, view are usearch options: the flat vector store does not read them. Leave them out, or use "usearch".',
    );
    expect(() => managerFactory("sqlite,hnswlib", { dataDir: temp.path, vectorParams: { expansionSearch: 64 } })).toThrow(/expansionSearch is a usearch option/);
  });

  it("is the usearch kind's `thread` option (YAML thread: true), and serves a cache across a restart", async () => {
    const config = loadGptCacheConfig("storage_config:\n  manager: sqlite,usearch\n  vector_params:\n    thread: true\n    dtype: f16\n");
    expect(config.storage?.vectorParams).toEqual({ thread: true, quantization: "f16" });
    expect(createVectorIndex("usearch", { dimension: 8, thread: true })).toBeInstanceOf(ThreadedUsearchIndex);
    expect(createVectorIndex("usearch", { dimension: 8 })).toBeInstanceOf(UsearchIndex);
    const stored = Array.from({ length: 20 }, () => randomUnitVector(32, random));
    const near = vectorAtCosine(stored[7], 0.95, random);
    const first = managerFactory("sqlite,usearch", { dataDir: temp.path, vectorParams: config.storage!.vectorParams });
    await first.init();
    const ids = await first.save(stored.map((embedding, i) => ({ question: `q${i}`, keyHash: `k${i}`, partition: "", answer: `a${i}`, embedding })));
    expect((await first.getScalarData((await first.search(near, 1))[0].id))?.answer).toBe("a7");
    await first.close();
    const second = managerFactory("sqlite,usearch", { dataDir: temp.path, vectorParams: { thread: true } });
    await second.init();
    const [hit] = await second.search(near, 1);
    expect(hit.id).toBe(ids[7]);
    expect(hit.distance).toBeCloseTo(0.05, 2);
    await second.close();
  });
});
