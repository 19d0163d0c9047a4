import { ValidationError } from "../../src/core/errors.js";
import type { DataManager } from "../../src/manager/data-manager.js";
import { managerFactory } from "../../src/presets/manager-factory.js";
import type { ReportRow } from "../../src/core/types.js";
import { ManualClock } from "../../src/testing/manual-clock.js";
import { tempDir } from "../helpers/fixtures.js";

const row = (id: number): ReportRow => ({
  userQuestion: "q", cacheQuestionId: id, cacheQuestion: "q", cacheAnswer: "a", similarity: 1, lookupMs: 1, hitAtMs: Date.now(),
});

describe("DataManager hit bookkeeping (sqlite)", () => {
  let dir: ReturnType<typeof tempDir>;
  let manager: DataManager;
  let ids: number[];

  beforeEach(async () => {
    dir = tempDir();
    manager = managerFactory("sqlite", { dataDir: dir.path, touchBatch: 4 });
    await manager.init();
    ids = await manager.save(["a", "b", "c", "d", "e"].map((question) => ({ question, keyHash: question, partition: "", answer: question, embedding: question })));
  });

  afterEach(async () => {
    await manager.close();
    dir.cleanup();
  });

  it("merges repeated hits on an entry into one update: summed count, latest access", async () => {
    const later = Date.now() + 60_000;
    manager.hit(ids[0], later - 2);
    manager.hit(ids[0], later);
    manager.hit(ids[0], later - 1);
    await manager.flush();
    expect(await manager.scalar.get(ids[0])).toMatchObject({ hitCount: 3, lastAccessedAtMs: later });
  });

  it("writes a full batch of distinct hits without waiting for the timer", async () => {
    for (const id of ids.slice(0, 4)) manager.hit(id);
    await manager.settled();
    expect((await manager.scalar.get(ids[3]))?.hitCount).toBe(1);
    expect((await manager.scalar.get(ids[0]))?.hitCount).toBe(1);
  });

  it("writes a full batch of report rows and leaves the pending hits merging", async () => {
    manager.hit(ids[0]);
    for (let i = 0; i < 4; i++) manager.report(row(ids[0]));
    await manager.settled();
    expect(await manager.scalar.countReports()).toBe(4);
    expect((await manager.scalar.get(ids[0]))?.hitCount).toBe(0);
    manager.hit(ids[0]);
    await manager.flush();
    expect((await manager.scalar.get(ids[0]))?.hitCount).toBe(2);
  });

  it("writes a lone hit and report row on its interval timer, not before", async () => {
    const clock = new ManualClock();
    const quick = managerFactory("sqlite", { dataDir: dir.path, bookkeepingIntervalMs: 150, clock });
    await quick.init();
    try {
      quick.hit(ids[1]);
      quick.report(row(ids[1]));
      clock.advance(149);
      await quick.settled();
      expect((await quick.scalar.get(ids[1]))?.hitCount).toBe(0);
      clock.advance(1);
      await quick.settled();
      expect((await quick.scalar.get(ids[1]))?.hitCount).toBe(1);
      expect(await quick.scalar.countReports()).toBe(1);
    } finally {
      await quick.close();
    }
  });

  it("refuses an interval that is not a positive number", () => {
    for (const bookkeepingIntervalMs of [0, -5, Number.NaN, Infinity]) {
      expect(() => managerFactory("sqlite", { dataDir: dir.path, bookkeepingIntervalMs })).toThrow(ValidationError);
    }
  });
});
