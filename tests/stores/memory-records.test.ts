/**
 * The smallest store: MemoryRecordStore implements only the required record contract. The contract suite runs its
 * required tests on it (the capability tests show as skipped), and a cache on it works end to end, the data
 * manager doing eviction, expiry and clear on top, and refusing with a clear error what it cannot do.
 */
import { get, put } from "../../src/core/api.js";
import { Cache } from "../../src/presets/cache.js";
import { ValidationError } from "../../src/core/errors.js";
import { DataManager } from "../../src/manager/data-manager.js";
import { hasStoreCapability, storeCapabilities } from "../../src/core/contracts/scalar-store.js";
import { MemoryRecordStore } from "../../src/stores/scalar/memory-records.js";
import { MemoryScalarStore } from "../../src/stores/scalar/memory.js";
import { FlatIndex } from "../../src/stores/vector/flat.js";
import { ManualClock } from "../../src/testing/manual-clock.js";
import { testScalarStore } from "../../src/testing/scalar-store-contract.js";

testScalarStore({ name: "MemoryRecordStore", persistent: false, capabilities: [], create: () => new MemoryRecordStore() });

describe("a cache on MemoryRecordStore (the required contract only)", () => {
  const caches: Cache[] = [];
  async function cacheOn(options: Omit<ConstructorParameters<typeof DataManager>[0], "scalar"> = {}): Promise<Cache> {
    const cache = new Cache();
    await cache.init({ dataManager: new DataManager({ scalar: new MemoryRecordStore(), ...options }) });
    caches.push(cache);
    return cache;
  }
  afterEach(async () => {
    for (const cache of caches.splice(0)) await cache.dataManager.close();
  });

  it("has no optional capability", () => {
    expect(storeCapabilities(new MemoryRecordStore())).toEqual([]);
    const full = new MemoryScalarStore();
    expect(hasStoreCapability(full, "sessions")).toBe(true);
    // A full store is used as it is; a record store is completed on top.
    expect(new DataManager({ scalar: full }).scalar).toBe(full);
    const minimal = new MemoryRecordStore();
    expect(new DataManager({ scalar: minimal }).scalar).not.toBe(minimal);
    expect(new DataManager({ scalar: minimal }).tableLen.question).toBe(Number.MAX_SAFE_INTEGER);
  });

  it("answers a hit and a miss", async () => {
    const cache = await cacheOn();
    expect(await get("hello", { cacheObj: cache })).toBeNull();
    await put("hello", "world", { cacheObj: cache });
    expect(await get("hello", { cacheObj: cache })).toBe("world");
    expect(await get("other", { cacheObj: cache })).toBeNull();
    expect(await cache.dataManager.count()).toBe(1);
    expect(await cache.dataManager.countReports()).toBe(0);
  });

  it("evicts FIFO by scanning the store", async () => {
    const cache = await cacheOn({ maxSize: 3, cleanSize: 1, eviction: "FIFO" });
    for (const n of [1, 2, 3, 4, 5]) await put(`q${n}`, `a${n}`, { cacheObj: cache });
    expect(await cache.dataManager.count()).toBe(3);
    expect(await get("q1", { cacheObj: cache })).toBeNull();
    expect(await get("q2", { cacheObj: cache })).toBeNull();
    expect(await get("q5", { cacheObj: cache })).toBe("a5");
  });

  it("refuses LRU and LFU eviction, naming the store and the missing capability", () => {
    for (const eviction of [undefined, "LRU", "LFU"]) {
      expect(() => new DataManager({ scalar: new MemoryRecordStore(), maxSize: 3, eviction })).toThrow(ValidationError);
      expect(() => new DataManager({ scalar: new MemoryRecordStore(), maxSize: 3, eviction })).toThrow(
        /"memory-records" scalar store has no hitCounts capability \(touch\(\)\)/,
      );
    }
    // Without maxSize the policy is never used.
    expect(() => new DataManager({ scalar: new MemoryRecordStore(), eviction: "LRU" })).not.toThrow();
  });

  it("refuses scan eviction on a shared store", () => {
    const store = Object.assign(new MemoryRecordStore(), { capabilities: { persistent: true, shared: true } });
    expect(() => new DataManager({ scalar: store, maxSize: 3, eviction: "FIFO" })).toThrow(/no eviction capability/);
  });

  it("expires by scanning, and clears by deleting what it iterates", async () => {
    const clock = new ManualClock(1_000_000);
    const cache = await cacheOn({ ttlSeconds: 10, clock });
    await put("old", "1", { cacheObj: cache });
    clock.advance(11_000);
    await put("new", "2", { cacheObj: cache });
    expect(await get("old", { cacheObj: cache })).toBeNull();
    await cache.dataManager.flush();
    expect(await cache.dataManager.count()).toBe(1);
    await cache.dataManager.clear();
    expect(await cache.dataManager.count()).toBe(0);
    expect(await get("new", { cacheObj: cache })).toBeNull();
  });

  it("searches a vector index and catches it up from iterate()", async () => {
    const store = new MemoryRecordStore();
    const manager = new DataManager({ scalar: store, vector: new FlatIndex({ dimension: 2 }) });
    await manager.init();
    const [id] = await manager.save([{ question: "q", keyHash: "k", partition: "", answer: "a", embedding: [1, 0] }]);
    expect((await manager.search([1, 0.1], 1)).map((hit) => hit.id)).toEqual([id]);
    expect(await manager.scalar.embeddingsAfter(0, 10)).toEqual([{ id, embedding: expect.any(Float32Array) }]);
    await manager.close();
  });

  it("refuses sessions with an error naming the capability", async () => {
    const cache = await cacheOn();
    await expect(put("q", "a", { cacheObj: cache, session: "s1" })).rejects.toThrow(/no sessions capability/);
    await expect(cache.dataManager.listSessions()).rejects.toBeInstanceOf(ValidationError);
  });

  it("refuses a store written against an unknown contract version", () => {
    const store = Object.assign(new MemoryRecordStore(), { specificationVersion: "v2" }) as unknown as MemoryRecordStore;
    expect(() => new DataManager({ scalar: store })).toThrow(/implements contract v2; this version of langchain-semcache implements v1/);
  });
});
