/**
 * The TypeScript names of a record's times and a report row's figures (createdAtMs, lastAccessedAtMs, lookupMs,
 * hitAtMs) are not the names stored data uses: the memory store's file and the document stores keep the names
 * they were first written with (createOn, lastAccess, cacheDeltaTime, cacheTime), so data written by an older
 * version still loads, and data written now loads in an older version.
 */
import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { MemoryScalarStore } from "../../src/stores/scalar/memory.js";
import { fromStoredReport, toStoredReport } from "../../src/stores/scalar/report-retention.js";
import type { ReportRow } from "../../src/core/types.js";
import { tempDir } from "../helpers/fixtures.js";

const REPORT: ReportRow = { userQuestion: "u", cacheQuestionId: 1, cacheQuestion: "q", cacheAnswer: "a", similarity: 0.9, lookupMs: 1.5, hitAtMs: 1_700_000_000_500 };

describe("stored names", () => {
  const dir = tempDir("semcache-stored-names-");
  afterAll(() => dir.cleanup());

  it("maps a report row to its stored spelling and back", () => {
    const stored = toStoredReport(REPORT);
    expect(stored).toEqual({ userQuestion: "u", cacheQuestionId: 1, cacheQuestion: "q", cacheAnswer: "a", similarity: 0.9, cacheDeltaTime: 1.5, cacheTime: 1_700_000_000_500 });
    expect(fromStoredReport(stored)).toEqual(REPORT);
  });

  it("loads a memory store file written with the stored names, and writes them back unchanged", async () => {
    const path = join(dir.path, "data_map.json");
    const file = {
      format: "langchain-semcache/memory",
      version: 1,
      nextId: 2,
      records: [
        { id: 1, question: "q", answer: "a", answerType: "str", keyHash: "k", partition: "p", createOn: 1_700_000_000_000, lastAccess: 1_700_000_000_900, hitCount: 2, deleted: false },
      ],
      sessions: [],
      reports: [toStoredReport(REPORT)],
    };
    await writeFile(path, JSON.stringify(file));
    const store = new MemoryScalarStore({ path });
    await store.init();
    expect(await store.get(1)).toMatchObject({ id: 1, createdAtMs: 1_700_000_000_000, lastAccessedAtMs: 1_700_000_000_900, hitCount: 2 });
    expect(await store.countReports()).toBe(1);
    await store.close();

    const written = JSON.parse(await readFile(path, "utf8")) as typeof file;
    expect(written.records[0]).toMatchObject({ createOn: 1_700_000_000_000, lastAccess: 1_700_000_000_900 });
    expect(written.records[0]).not.toHaveProperty("createdAtMs");
    expect(written.reports).toEqual(file.reports);
  });
});
