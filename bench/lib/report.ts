/** The report tables, built from scenario results (a scenario prints its own rows; bench/run.ts all of them). */
import { bytes, count, fraction, mib, ms, ratio, table, us } from "./output.js";
import type { LatencyStats, MemoryDelta } from "./measure.js";
import type { DriversResult, ExactHitStats, ExactResult, ImportStats, SemanticQueryStats, SemanticResult } from "./types.js";

/** Targets from the brief, shown beside each figure. */
export const TARGETS = { exactP99Us: 100, semanticP99Us: 5000, recall: 0.99, beyondVectorBytes: 3072 };

const verdict = (ok: boolean) => (ok ? "yes" : "**no**");

export interface ExactRow {
  manager: string;
  size: number;
  stats: ExactHitStats;
}

export function exactRows(results: ReadonlyArray<ExactResult | SemanticResult>): ExactRow[] {
  return results.map((r) =>
    r.scenario === "exact"
      ? { manager: r.manager, size: r.size, stats: r.exactHit }
      : { manager: `${r.manager} (exact repeat, ${r.data})`, size: r.size, stats: r.exactRepeat },
  );
}

export function exactHitTable(rows: readonly ExactRow[]): string {
  return table(
    [
      "manager", "entries", "get() p50 µs", "get() p99 µs", "get() /s incl. deferred hit writes", "findByKey p50 µs",
      "findByKey p99 µs", "get / findByKey p50", "get / findByKey p99", `p99 < ${TARGETS.exactP99Us} µs`,
    ],
    rows.map(({ manager, size, stats: { get, findByKey } }) => [
      manager,
      count(size),
      us(get.p50),
      us(get.p99),
      count(Math.round(get.perSecond)),
      us(findByKey.p50),
      us(findByKey.p99),
      ratio(get.p50 / findByKey.p50),
      ratio(get.p99 / findByKey.p99),
      verdict(get.p99 < TARGETS.exactP99Us),
    ]),
  );
}

const efLabel = (q: SemanticQueryStats) => (q.defaultEf ? `${q.ef} (default)` : String(q.ef));
const msPair = (s: LatencyStats) => `${ms(s.p50)} / ${ms(s.p99)}`;

export function semanticTable(results: readonly SemanticResult[]): string {
  return table(
    [
      "data", "entries", "ef", "get() p50 ms", "get() p99 ms", "index search p50 / p99 ms", "get() p50 / p99 ms, no hit bookkeeping",
      "hit rate", "recall@1", "brute force finds source", "agrees with brute force", "p99 < 5 ms", `recall >= ${TARGETS.recall}`,
    ],
    results.map((r) => [
      r.data,
      count(r.size),
      efLabel(r.semantic),
      ms(r.semantic.get.p50),
      ms(r.semantic.get.p99),
      msPair(r.semantic.search),
      msPair(r.withoutBookkeeping),
      fraction(r.semantic.hitRate),
      fraction(r.semantic.recall),
      fraction(r.bruteForceRecall),
      fraction(r.semantic.agreement),
      verdict(r.semantic.get.p99 < TARGETS.semanticP99Us),
      verdict(r.semantic.recall >= TARGETS.recall),
    ]),
  );
}

export function sweepTable(results: readonly SemanticResult[]): string {
  return table(
    ["data", "entries", "ef", "recall@1", "agrees with brute force", "get() p50 ms", "get() p99 ms", "index search p50 / p99 ms", "reopen s"],
    results.flatMap((r) =>
      r.sweep.map((q) => [
        r.data,
        count(r.size),
        efLabel(q),
        fraction(q.recall),
        fraction(q.agreement),
        ms(q.get.p50),
        ms(q.get.p99),
        msPair(q.search),
        q.openSeconds === undefined ? "" : q.openSeconds.toFixed(1),
      ]),
    ),
  );
}

export interface ImportRow {
  manager: string;
  stats: ImportStats;
}

export function importTable(rows: readonly ImportRow[]): string {
  return table(
    ["manager", "entries", "rows per importData call", "seconds", "rows/s"],
    rows.map(({ manager, stats }) => [manager, count(stats.rows), count(stats.chunk), stats.seconds.toFixed(1), count(stats.rowsPerSecond)]),
  );
}

export interface MemoryRow {
  manager: string;
  memory: MemoryDelta;
  /** Bytes of one raw vector per entry, when the manager stores vectors. */
  vectorBytes?: number;
}

export function memoryTable(rows: readonly MemoryRow[]): string {
  return table(
    ["manager", "entries", "RSS before", "RSS after", "RSS bytes/entry", "beyond the raw vector", "JS heap bytes/entry", `beyond vector < ${count(TARGETS.beyondVectorBytes)} B`],
    rows.map(({ manager, memory, vectorBytes }) => [
      manager,
      count(memory.entries),
      mib(memory.before.rss),
      mib(memory.after.rss),
      bytes(memory.rssPerEntry),
      vectorBytes === undefined ? "" : `${bytes(memory.rssPerEntry - vectorBytes)} (vector ${count(vectorBytes)} B)`,
      bytes(memory.heapPerEntry),
      vectorBytes === undefined ? "" : verdict(memory.rssPerEntry - vectorBytes < TARGETS.beyondVectorBytes),
    ]),
  );
}

/** Import and memory rows of any scenario result. */
export function importRows(results: ReadonlyArray<ExactResult | SemanticResult>): ImportRow[] {
  return results.map((r) => ({ manager: managerLabel(r), stats: r.import }));
}

export function memoryRows(results: ReadonlyArray<ExactResult | SemanticResult>): MemoryRow[] {
  return results.map((r) => ({
    manager: managerLabel(r),
    memory: r.memory,
    vectorBytes: r.scenario === "semantic" ? r.memory.vectorBytes : undefined,
  }));
}

function managerLabel(r: ExactResult | SemanticResult): string {
  return r.scenario === "exact" ? r.manager : `${r.manager} (${r.data})`;
}

export function driversTable(result: DriversResult): string {
  const cell = (s: LatencyStats) => `${us(s.p50)} / ${us(s.p99)} µs`;
  const drivers = table(
    ["op", "better-sqlite3 p50 / p99", "sqlite3 p50 / p99", "ratio"],
    result.results.map((r) => {
      const rate = r.op.startsWith("insert") ? ` (${count(r.better.perSecond)} vs ${count(r.sqlite3.perSecond)} rows/s)` : "";
      return [r.op, cell(r.better), cell(r.sqlite3), `${ratio(r.ratio)}${rate}`];
    }),
  );
  const store = table(
    ["store op (better-sqlite3)", "p50 / p99"],
    Object.entries(result.store).map(([op, s]) => [op, cell(s)]),
  );
  return `${drivers}\n\n${store}`;
}
