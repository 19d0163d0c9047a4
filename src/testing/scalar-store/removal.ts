/** The scalar store contract: removing records (eviction, expiry, purging, clear) and what removal leaves behind. */
import { ValidationError } from "../../core/errors.js";
import { FIFO, LFU, LRU } from "../../core/eviction-policies.js";
import type { EvictionPolicy } from "../../core/contracts/eviction.js";
import { collect, sortIds } from "./fixtures.js";
import { insertEvictionScenario, sampleRecord, type ScalarSuitePart } from "./harness.js";

export function removalTests({ runner, open, itWith }: ScalarSuitePart): void {
  const { expect } = runner;
  const evicting = itWith("eviction");

  evicting("evict does nothing at or under maxSize", async () => {
    const store = await open();
    await store.insert([1, 2, 3, 4, 5].map((n) => sampleRecord({ createdAtMs: n })));
    expect(await store.evict(LRU, 5, 2)).toEqual([]);
    expect(await store.evict(FIFO, 50, 2)).toEqual([]);
    expect(await store.count()).toBe(5);
  });

  const builtIn: Array<[string, EvictionPolicy, Array<"A" | "B" | "C" | "D">]> = [
    ["LRU", LRU, ["B", "C"]],
    ["LFU", LFU, ["C", "A"]],
    ["FIFO", FIFO, ["A", "B"]],
  ];
  for (const [name, policy, out] of builtIn) {
    itWith("eviction", "hitCounts")(`evict with ${name} marks cleanSize records deleted in the policy's order`, async () => {
      const store = await open();
      const ids = await insertEvictionScenario(store);
      const evicted = await store.evict(policy, 2, 2);
      expect(sortIds(evicted)).toEqual(sortIds(out.map((key) => ids[key])));
      for (const id of evicted) expect(await store.get(id)).toBeNull();
      expect(await store.count()).toBe(2);
    });
  }

  itWith("eviction", "hitCounts")("evict honours a custom policy (most hits first)", async () => {
    const store = await open();
    const ids = await insertEvictionScenario(store);
    const mostHits: EvictionPolicy = { name: "MFU", order: [{ column: "hitCount", direction: "desc" }] };
    expect(sortIds(await store.evict(mostHits, 3, 2))).toEqual(sortIds([ids.D, ids.B]));
  });

  evicting("evict rejects a negative maxSize or a cleanSize under 1 with ValidationError", async () => {
    const store = await open();
    await expect(store.evict(LRU, -1, 1)).rejects.toBeInstanceOf(ValidationError);
    await expect(store.evict(LRU, 1, 0)).rejects.toBeInstanceOf(ValidationError);
  });

  evicting("expire marks records created strictly before the cutoff", async () => {
    const store = await open();
    const ids = await store.insert([100, 200, 300].map((createdAtMs) => sampleRecord({ createdAtMs })));
    expect(await store.expire(200)).toEqual([ids[0]]);
    expect(await store.count()).toBe(2);
    expect(sortIds(await store.expire(1_000))).toEqual([ids[1], ids[2]]);
    expect(await store.expire(1_000)).toEqual([]);
    expect(await store.count()).toBe(0);
  });

  itWith("purge", "sessions")("purgeDeleted removes deleted records and their session links, and ids are never reused", async () => {
    const store = await open();
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

  itWith("purge", "clear")("deletedObjectKeys lists the object deps of deleted records until they are purged", async () => {
    const store = await open();
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

  itWith("clear")("clear hides every record and later inserts still work", async () => {
    const store = await open();
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
}
