/** The scalar store contract: close, and what a persistent store keeps for its next instance. */
import { collect, report, vector } from "./fixtures.js";
import { sampleRecord, type ScalarSuitePart } from "./harness.js";

export function persistenceTests({ runner, open, persistent, has, itWith }: ScalarSuitePart): void {
  const { it, expect } = runner;

  it("close is idempotent", async () => {
    const store = await open();
    if (has("flush")) await store.flush();
    await store.close();
    await store.close();
  });

  (persistent ? itWith("hitCounts", "sessions", "reports", "purge") : it.skip)("keeps records, bookkeeping, sessions and reports across close() and a new instance", async () => {
    const store = await open();
    const ids = await store.insert([
      sampleRecord({ keyHash: "a", embedding: vector(1), deps: [{ name: "n", data: "d", type: "str" }], session: "s" }),
      sampleRecord({ keyHash: "b", embedding: vector(2) }),
      sampleRecord({ keyHash: "c" }),
    ]);
    await store.touch([{ id: ids[0], atMs: 9_000, count: 4 }]);
    await store.markDeleted([ids[2]]);
    await store.addReports([report()]);
    const before = await collect(store.iterate());
    await store.close();

    const reopened = await open({ reopen: true });
    expect(await collect(reopened.iterate())).toEqual(before);
    expect(await reopened.get(ids[0])).toMatchObject({ lastAccessedAtMs: 9_000, hitCount: 4 });
    expect(await reopened.get(ids[2])).toBeNull();
    expect(await reopened.count()).toBe(2);
    expect((await reopened.findByKey("b"))?.id).toBe(ids[1]);
    expect(await reopened.sessionsOf(ids[0])).toEqual(["s"]);
    expect(await reopened.countReports()).toBe(1);
    expect(await reopened.purgeDeleted()).toBe(1);
    const [next] = await reopened.insert([sampleRecord()]);
    expect(next).toBeGreaterThan(ids[2]);
  });
}
