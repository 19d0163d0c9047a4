/**
 * Two caches (as two replicas would be) over one PostgreSQL store, each with its own in-process HNSW index:
 * what one stores the other finds by similarity, and what one evicts neither returns.
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { get, put } from "../../src/core/api.js";
import { Cache } from "../../src/presets/cache.js";
import { managerFactory } from "../../src/presets/manager-factory.js";
import { PostgresScalarStore } from "../../src/stores/scalar/postgres.js";
import { DistanceEvaluation } from "../../src/similarity/distance.js";
import { BagOfWordsEmbedding } from "../helpers/fixtures.js";
import { testUrl, uniquePrefix } from "../helpers/server-stores.js";

const url = testUrl("postgres");

if (url) {
  describe("replicas over one PostgreSQL store with in-process indexes", () => {
    const tablePrefix = uniquePrefix("rs");
    const dirs: string[] = [];
    const caches: Cache[] = [];
    const replica = async (options: { maxSize?: number; syncIntervalMs?: number } = {}) => {
      const dataDir = await mkdtemp(join(tmpdir(), "semcache-replica-"));
      dirs.push(dataDir);
      const cache = new Cache();
      caches.push(cache);
      return cache.init({
        // Questions differing only in case and punctuation embed identically (but are not the same exact key).
        embeddingFunc: new BagOfWordsEmbedding(),
        similarityEvaluation: new DistanceEvaluation(),
        config: { similarityThreshold: 0.99 },
        dataManager: managerFactory("postgres,hnswlib", {
          dataDir,
          scalarParams: { url, tablePrefix },
          vectorParams: { dimension: 256 },
          eviction: "FIFO",
          syncIntervalMs: 0,
          ...options,
        }),
      });
    };
    afterEach(async () => {
      for (const cache of caches.splice(0)) await cache.close();
      for (const dir of dirs.splice(0)) await rm(dir, { recursive: true, force: true });
      const dropper = new PostgresScalarStore({ url, tablePrefix });
      await dropper.drop();
      await dropper.close();
    });

    it("answers a similar question through one replica with what the other stored", async () => {
      const a = await replica();
      const b = await replica();
      await put("What is the capital of France?", "Paris", { cacheObj: a });
      await a.flush();
      expect(await get("what is the capital of france", { cacheObj: b })).toBe("Paris");
      expect(await get("WHAT IS THE CAPITAL OF FRANCE!", { cacheObj: a })).toBe("Paris");
      expect(await get("Where is the Eiffel tower?", { cacheObj: b })).toBeNull();
    });

    it("a replica started later finds what was stored before, then keeps following", async () => {
      const a = await replica();
      await put("first question", "one", { cacheObj: a });
      const b = await replica();
      expect(await get("First Question", { cacheObj: b })).toBe("one");
      await put("second question", "two", { cacheObj: a });
      expect(await get("Second Question?", { cacheObj: b })).toBe("two");
      await put("third question", "three", { cacheObj: b });
      expect(await get("Third Question?", { cacheObj: a })).toBe("three");
    });

    it("between pulls (syncIntervalMs) a replica searches its index as it was", async () => {
      const a = await replica();
      const b = await replica({ syncIntervalMs: 60_000 });
      await put("warm up", "w", { cacheObj: a });
      expect(await get("Warm Up", { cacheObj: b })).toBe("w");
      await put("later entry", "l", { cacheObj: a });
      // Within the interval b searches its index as it was: the exact key still answers, a paraphrase does not yet.
      expect(await get("later entry", { cacheObj: b })).toBe("l");
      expect(await get("Later Entry!", { cacheObj: b })).toBeNull();
    });

    it("an entry one replica evicted is returned by neither", async () => {
      const a = await replica({ maxSize: 2 });
      const b = await replica({ maxSize: 2 });
      await put("oldest entry", "1", { cacheObj: a });
      await put("middle entry", "2", { cacheObj: b });
      expect(await get("Oldest Entry", { cacheObj: b })).toBe("1");
      expect(await get("Middle Entry", { cacheObj: a })).toBe("2");
      await put("newest entry", "3", { cacheObj: a });
      for (const cache of [a, b]) {
        expect(await get("Oldest Entry", { cacheObj: cache })).toBeNull();
        expect(await get("oldest entry", { cacheObj: cache })).toBeNull();
        expect(await get("Newest Entry", { cacheObj: cache })).toBe("3");
        expect(await cache.dataManager.count()).toBe(2);
      }
    });
  });
}
