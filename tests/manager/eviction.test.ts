import { join } from "node:path";
import { UnknownKindError, ValidationError } from "../../src/core/errors.js";
import { effectiveOrder, evictionPolicy, FIFO, LFU, LRU } from "../../src/core/eviction-policies.js";
import type { EvictionPolicy } from "../../src/core/contracts/eviction.js";
import { MemoryScalarStore } from "../../src/stores/scalar/memory.js";
import { SqliteScalarStore } from "../../src/stores/scalar/sqlite.js";
import { testEvictionPolicy } from "../../src/testing/eviction-contract.js";
import type { ScalarStoreFactory } from "../../src/testing/scalar-store-contract.js";

/** Most recently used first, ties to the newest id: a custom policy the stores have never heard of. */
const MRU: EvictionPolicy = {
  name: "MRU",
  order: [
    { column: "lastAccessedAtMs", direction: "desc" },
    { column: "id", direction: "desc" },
  ],
};

const stores: Array<[string, ScalarStoreFactory]> = [
  ["memory", () => new MemoryScalarStore()],
  ["sqlite", (ctx) => new SqliteScalarStore({ path: join(ctx.dir, "cache.db") })],
];

for (const [storeName, createStore] of stores) {
  for (const policy of ["LRU", "LFU", "FIFO", MRU]) testEvictionPolicy({ policy, createStore, storeName });
}

describe("evictionPolicy", () => {
  it("resolves built-in names in any case", () => {
    expect(evictionPolicy("lru")).toBe(LRU);
    expect(evictionPolicy("Lfu")).toBe(LFU);
    expect(evictionPolicy("FIFO")).toBe(FIFO);
  });

  it("passes a valid custom policy through", () => {
    expect(evictionPolicy(MRU)).toBe(MRU);
  });

  it("names the known kinds when a name is unknown", () => {
    expect(() => evictionPolicy("ARC")).toThrow(UnknownKindError);
    expect(() => evictionPolicy("ARC")).toThrow(/LRU, LFU, FIFO/);
  });

  it.each([
    ["no order", { name: "X", order: [] }],
    ["an unknown column", { name: "X", order: [{ column: "question", direction: "asc" }] }],
    ["a bad direction", { name: "X", order: [{ column: "id", direction: "up" }] }],
    ["no name", { order: [{ column: "id", direction: "asc" }] }],
  ])("rejects a custom policy with %s", (_label, policy) => {
    expect(() => evictionPolicy(policy as unknown as EvictionPolicy)).toThrow(ValidationError);
  });

  it("ends every order with id so ties break the same way everywhere", () => {
    expect(effectiveOrder({ name: "hits", order: [{ column: "hitCount", direction: "asc" }] })).toEqual([
      { column: "hitCount", direction: "asc" },
      { column: "id", direction: "asc" },
    ]);
    expect(effectiveOrder(MRU)).toBe(MRU.order);
  });

  it("built-in policies are frozen", () => {
    expect(Object.isFrozen(LRU)).toBe(true);
    expect(Object.isFrozen(LRU.order)).toBe(true);
  });
});
