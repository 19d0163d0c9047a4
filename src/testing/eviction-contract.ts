import { effectiveOrder, evictionComparator, evictionPolicy, FIFO, LFU, LRU } from "../core/eviction-policies.js";
import type { EvictionPolicy } from "../core/contracts/eviction.js";
import type { ScalarStore } from "../core/contracts/scalar-store.js";
import {
  insertEvictionScenario,
  sampleRecord,
  scalarStoreHarness,
  type ScalarStoreFactory,
  type ScalarStoreSuiteOptions,
} from "./scalar-store-contract.js";
import { resolveRunner, type TestRunner } from "./runner.js";

export interface EvictionSuiteOptions {
  /** "LRU", "LFU", "FIFO" or a custom policy. */
  policy: string | EvictionPolicy;
  /** A fresh empty store per test (see StoreTestContext); the store applies the policy. */
  createStore: ScalarStoreFactory;
  /** Names the store in test titles. Default "a store". */
  storeName?: string;
  cleanup?: ScalarStoreSuiteOptions["cleanup"];
  /** The test runner's functions; default its globals (see TestRunner). */
  runner?: TestRunner;
}

/** The scenario's first two records out, for the built-in policies (see insertEvictionScenario). */
const SCENARIO_OUT: Readonly<Record<string, Array<"A" | "B" | "C" | "D">>> = {
  LRU: ["B", "C"],
  LFU: ["C", "A"],
  FIFO: ["A", "B"],
};

/** Same columns as the scenario, for working out a custom policy's expected victims. */
const SCENARIO_COLUMNS = {
  A: { id: 1, createdAtMs: 1, lastAccessedAtMs: 100, hitCount: 2 },
  B: { id: 2, createdAtMs: 2, lastAccessedAtMs: 50, hitCount: 5 },
  C: { id: 3, createdAtMs: 3, lastAccessedAtMs: 60, hitCount: 1 },
  D: { id: 4, createdAtMs: 4, lastAccessedAtMs: 70, hitCount: 9 },
};

const sortIds = (ids: readonly number[]) => [...ids].sort((a, b) => a - b);

async function insertMany(store: ScalarStore, count: number, createdAtMs = (i: number) => i): Promise<number[]> {
  return store.insert(Array.from({ length: count }, (_, i) => sampleRecord({ keyHash: `k${i}`, createdAtMs: createdAtMs(i) })));
}

/** Registers how a store must apply one eviction policy. */
export function testEvictionPolicy(options: EvictionSuiteOptions): void {
  const policy = evictionPolicy(options.policy);
  const builtIn = [LRU, LFU, FIFO].includes(policy);
  const runner = resolveRunner(options.runner);
  const { describe, it, expect } = runner;

  describe(`${policy.name} eviction on ${options.storeName ?? "a store"} (eviction contract)`, () => {
    const h = scalarStoreHarness(options.createStore, options.cleanup, runner);

    it("maxSize 10 with cleanSize 2 after 19 inserts (evict after each) leaves 9", async () => {
      const store = await h.open();
      const evicted: number[] = [];
      for (let i = 0; i < 19; i++) {
        await store.insert([sampleRecord({ keyHash: `k${i}`, createdAtMs: i })]);
        evicted.push(...(await store.evict(policy, 10, 2)));
      }
      expect(await store.count()).toBe(9);
      expect(evicted).toHaveLength(10);
      expect(new Set(evicted).size).toBe(10);
    });

    it("never removes more than cleanSize in one call, however large the excess", async () => {
      const store = await h.open();
      await insertMany(store, 30);
      expect(await store.evict(policy, 10, 3)).toHaveLength(3);
      expect(await store.count()).toBe(27);
      expect(await store.evict(policy, 0, 50)).toHaveLength(27);
      expect(await store.count()).toBe(0);
    });

    it("does nothing at or under maxSize", async () => {
      const store = await h.open();
      await insertMany(store, 10);
      expect(await store.evict(policy, 10, 2)).toEqual([]);
      expect(await store.count()).toBe(10);
    });

    it("breaks ties by id", async () => {
      const store = await h.open();
      const ids = await insertMany(store, 6, () => 500);
      const idStep = effectiveOrder(policy).find((step) => step.column === "id");
      const expected = idStep?.direction === "desc" ? ids.slice(-2) : ids.slice(0, 2);
      expect(sortIds(await store.evict(policy, 4, 2))).toEqual(sortIds(expected));
    });

    it("evicts in the policy's order by last access, hits and creation time", async () => {
      const store = await h.open();
      const ids = await insertEvictionScenario(store);
      const out = builtIn
        ? SCENARIO_OUT[policy.name]
        : (Object.entries(SCENARIO_COLUMNS)
            .sort(([, a], [, b]) => evictionComparator(policy)(a, b))
            .slice(0, 2)
            .map(([key]) => key) as Array<keyof typeof ids>);
      expect(sortIds(await store.evict(policy, 2, 2))).toEqual(sortIds(out.map((key) => ids[key])));
      const left = (["A", "B", "C", "D"] as const).filter((key) => !out.includes(key));
      for (const key of left) expect(await store.get(ids[key])).not.toBeNull();
    });

    if (builtIn && policy.name !== "LFU") {
      const keeps = policy.name === "LRU";
      it(`${keeps ? "keeps" : "drops"} the oldest entry when it was just hit (${keeps ? "FIFO drops" : "LRU keeps"} it)`, async () => {
        const store = await h.open();
        const [oldest, ...rest] = await insertMany(store, 4);
        await store.touch([{ id: oldest, atMs: 1_000, count: 1 }]);
        const evicted = await store.evict(policy, 3, 1);
        expect(evicted).toEqual(keeps ? [rest[0]] : [oldest]);
      });
    }

    if (policy.name === "LFU" && builtIn) {
      it("drops the least hit entry even when it was hit last, and among equal hits the least recent", async () => {
        const store = await h.open();
        const [a, b, c] = await insertMany(store, 3);
        await store.touch([
          { id: a, atMs: 20, count: 3 },
          { id: b, atMs: 10, count: 3 },
          { id: c, atMs: 50, count: 1 },
        ]);
        expect(await store.evict(policy, 2, 1)).toEqual([c]);
        expect(await store.evict(policy, 1, 1)).toEqual([b]);
      });
    }
  });
}
