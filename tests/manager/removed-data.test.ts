/**
 * Data that outlives a clear: after DataManager.clear() or a flush that purges evicted entries, no question,
 * answer or user question of a removed entry may be read back from any file of the data dir (the SQLite
 * database, its WAL, the index folder). The files are searched byte by byte.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { ReportRow } from "../../src/core/types.js";
import type { DataManager } from "../../src/manager/data-manager.js";
import { managerFactory } from "../../src/presets/manager-factory.js";

const DIMENSION = 8;

function vector(seed: number): Float32Array {
  return Float32Array.from({ length: DIMENSION }, (_, i) => Math.sin(seed * 31 + i) + 1.5);
}

/** Text unlikely to occur in a file by chance: one per entry and field. */
const secret = (entry: string, field: string) => `${field}-${entry}-b5f0c2e9d4a1`;

function hitReport(id: number, entry: string): ReportRow {
  return {
    userQuestion: secret(entry, "user-question"),
    cacheQuestionId: id,
    cacheQuestion: secret(entry, "question"),
    cacheAnswer: secret(entry, "answer"),
    similarity: 0.97,
    lookupMs: 1,
    hitAtMs: 1_700_000_000_000,
  };
}

/** Every file under `dir`, recursively. */
function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? filesUnder(path) : [path];
  });
}

/** The files of `dir` holding `text` (as UTF-8 bytes). */
function filesHolding(dir: string, text: string): string[] {
  const needle = Buffer.from(text, "utf8");
  return filesUnder(dir).filter((file) => readFileSync(file).includes(needle));
}

const fields = ["user-question", "question", "answer"];

describe("DataManager: removed entries leave nothing behind (sqlite,hnswlib)", () => {
  let dataDir: string;
  let manager: DataManager;

  beforeEach(() => {
    dataDir = mkdtempSync(join(tmpdir(), "semcache-removed-"));
  });
  afterEach(async () => {
    await manager.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  async function store(entry: string, seed: number): Promise<number> {
    const [id] = await manager.save([
      {
        question: secret(entry, "question"),
        answer: secret(entry, "answer"),
        keyHash: `key-${entry}`,
        partition: "p",
        embedding: vector(seed),
        session: `session-${entry}`,
      },
    ]);
    manager.hit(id);
    manager.report(hitReport(id, entry));
    return id;
  }

  it("clear removes every question, answer and report row from every file of the data dir", async () => {
    manager = managerFactory("sqlite,hnswlib", { dataDir, vectorParams: { dimension: DIMENSION } });
    await manager.init();
    for (let i = 0; i < 20; i++) await store(`cleared${i}`, i);
    await manager.flush();
    expect(filesHolding(dataDir, secret("cleared3", "user-question")).length).toBeGreaterThan(0);
    await store("buffered", 99); // its report row is still buffered

    await manager.clear();

    expect(await manager.count()).toBe(0);
    expect(await manager.scalar.countReports()).toBe(0);
    for (const entry of ["cleared0", "cleared3", "cleared19", "buffered"]) {
      for (const field of fields) expect(filesHolding(dataDir, secret(entry, field))).toEqual([]);
    }
    // The store works on after a clear.
    await store("after", 7);
    await manager.flush();
    expect(filesHolding(dataDir, secret("after", "answer")).length).toBeGreaterThan(0);
  });

  it("a flush that purges evicted entries removes their rows and report rows from the files, and keeps the rest", async () => {
    manager = managerFactory("sqlite,hnswlib", { dataDir, vectorParams: { dimension: DIMENSION }, maxSize: 2, cleanSize: 1, eviction: "FIFO" });
    await manager.init();
    await store("evicted", 1);
    await store("kept1", 2);
    await manager.flush();
    expect(filesHolding(dataDir, secret("evicted", "user-question")).length).toBeGreaterThan(0);
    await store("kept2", 3); // evicts the oldest
    await manager.flush();

    expect(await manager.scalar.countReports()).toBe(2);
    for (const field of fields) expect(filesHolding(dataDir, secret("evicted", field))).toEqual([]);
    for (const field of fields) expect(filesHolding(dataDir, secret("kept1", field)).length).toBeGreaterThan(0);
  });
});
