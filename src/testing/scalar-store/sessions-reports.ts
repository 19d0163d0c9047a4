/** The scalar store contract: session links and report rows. */
import { ValidationError } from "../../core/errors.js";
import { bySessionThenId, report } from "./fixtures.js";
import { sampleRecord, type ScalarSuitePart } from "./harness.js";

export function sessionAndReportTests({ runner, open, itWith }: ScalarSuitePart): void {
  const { expect } = runner;

  itWith("sessions")("links sessions idempotently, lists them and deletes them per session", async () => {
    const store = await open();
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

  itWith("reports")("appends and counts report rows", async () => {
    const store = await open();
    expect(await store.countReports()).toBe(0);
    await store.addReports([report(), report({ extra: '{"k":1}' })]);
    await store.addReports([report({ similarity: 1 })]);
    await store.addReports([]);
    expect(await store.countReports()).toBe(3);
  });

  itWith("reports", "purge")("keeps only the newest maxReports report rows", async () => {
    const store = await open({ maxReports: 3 });
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

  itWith("reports")("keeps no report rows with maxReports 0, and refuses a negative or fractional maxReports", async () => {
    const store = await open({ maxReports: 0 });
    await store.addReports([report(), report()]);
    expect(await store.countReports()).toBe(0);
    await expect(open({ maxReports: -1 })).rejects.toBeInstanceOf(ValidationError);
    await expect(open({ maxReports: 2.5 })).rejects.toBeInstanceOf(ValidationError);
  });

  itWith("reports", "purge")("purgeDeleted removes the report rows of the records it removes, and only those", async () => {
    const store = await open();
    const [gone, kept] = await store.insert([sampleRecord({ keyHash: "gone" }), sampleRecord({ keyHash: "kept" })]);
    await store.addReports([report({ cacheQuestionId: gone }), report({ cacheQuestionId: kept }), report({ cacheQuestionId: gone })]);
    await store.markDeleted([gone]);
    expect(await store.countReports()).toBe(3);
    expect(await store.purgeDeleted()).toBe(1);
    expect(await store.countReports()).toBe(1);
  });

  itWith("reports", "clear")("clear removes every report row", async () => {
    const store = await open();
    const [id] = await store.insert([sampleRecord()]);
    await store.addReports([report({ cacheQuestionId: id }), report({ cacheQuestionId: id })]);
    await store.clear();
    expect(await store.countReports()).toBe(0);
    await store.addReports([report({ cacheQuestionId: id })]);
    expect(await store.countReports()).toBe(1);
  });
}
