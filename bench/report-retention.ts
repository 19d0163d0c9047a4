/**
 * Report rows under sustained hits on SQLite: `--hits` report rows (default 1 M) written through the store in
 * the data manager's 32-row steps, with the default `maxReports` (10,000) or `--max-reports N`. Prints the
 * row count and the size of the database and its WAL every tenth of the run, and the cost per row.
 *   npx tsx bench/report-retention.ts [--hits 1000000] [--max-reports 10000]
 */
import { mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { ReportRow } from "../src/core/types.js";
import { SqliteScalarStore } from "../src/stores/scalar/sqlite.js";
import { parseArgs } from "./lib/args.js";
import { table } from "./lib/output.js";

/** Rows per addReports call, as DataManager's WRITE_STEP. */
const STEP = 32;

const args = parseArgs();
const hits = args.number("hits", 1_000_000);
const maxReports = args.value("max-reports") === undefined ? undefined : args.number("max-reports", 10_000);

/** A report row of the size seen in the field (~300 bytes: two questions and an answer). */
function row(n: number): ReportRow {
  return {
    userQuestion: `what is the capital city of country number ${n % 5000}, and how many people live there?`,
    cacheQuestionId: n % 5000,
    cacheQuestion: `what is the capital of country ${n % 5000} and its population?`,
    cacheAnswer: `The capital of country ${n % 5000} is City ${n % 5000}; about ${n % 997} thousand people live there.`,
    similarity: 0.93,
    lookupMs: 1.2,
    hitAtMs: 1_700_000_000_000 + n,
  };
}

const megabytes = (path: string) => {
  try {
    return statSync(path).size / 1e6;
  } catch {
    return 0;
  }
};

const dir = mkdtempSync(join(tmpdir(), "semcache-report-bench-"));
const path = join(dir, "sqlite.db");
const store = new SqliteScalarStore({ path, maxReports });
await store.init();
const rows: string[][] = [];
const started = performance.now();
try {
  for (let written = 0; written < hits; ) {
    const batch = Array.from({ length: Math.min(STEP, hits - written) }, (_, i) => row(written + i));
    await store.addReports(batch);
    written += batch.length;
    if (written % Math.max(STEP, Math.floor(hits / 10 / STEP) * STEP) === 0 || written === hits) {
      rows.push([written.toLocaleString("en"), (await store.countReports()).toLocaleString("en"), megabytes(path).toFixed(1), megabytes(`${path}-wal`).toFixed(1)]);
    }
  }
  const elapsedMs = performance.now() - started;
  await store.flush();
  rows.push(["after flush", (await store.countReports()).toLocaleString("en"), megabytes(path).toFixed(1), megabytes(`${path}-wal`).toFixed(1)]);
  console.log(`maxReports ${maxReports ?? "default (10,000)"}: ${((elapsedMs * 1000) / hits).toFixed(2)} us a row (${(elapsedMs / 1000).toFixed(1)} s)\n`);
  console.log(table(["hits", "report rows", "database MB", "WAL MB"], rows));
} finally {
  await store.close();
  rmSync(dir, { recursive: true, force: true });
}
