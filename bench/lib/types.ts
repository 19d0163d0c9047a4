/** What each scenario child writes as JSON; bench/run.ts composes the report tables from these. */
import type { LatencyStats, MemoryDelta } from "./measure.js";
import type { DataKind } from "./vectors.js";

export interface ImportStats {
  rows: number;
  /** Rows per importData call. */
  chunk: number;
  seconds: number;
  rowsPerSecond: number;
}

/** get() on stored questions beside the raw scalar store lookup of the same keys. */
export interface ExactHitStats {
  get: LatencyStats;
  findByKey: LatencyStats;
}

export interface Environment {
  date: string;
  node: string;
  platform: string;
}

/** bench/exact-store.ts: an exact-match cache (no vector index). */
export interface ExactResult {
  scenario: "exact";
  manager: string;
  size: number;
  import: ImportStats;
  memory: MemoryDelta;
  exactHit: ExactHitStats;
  env: Environment;
}

/** Near-duplicate queries through get(): latency and whether the answer is the source entry's. */
export interface SemanticQueryStats {
  ef: number;
  /** True when ef is the HnswIndex default (not passed in vectorParams). */
  defaultEf: boolean;
  get: LatencyStats;
  /** The data manager's own index search for the same query vectors (the baseline under get()). */
  search: LatencyStats;
  /** Queries answered at all (score >= threshold). */
  hitRate: number;
  /** Queries answered with the answer of the entry they were made from. */
  recall: number;
  /** Queries answered with the answer of the exact brute-force nearest entry. */
  agreement: number;
  /** Seconds to reopen the saved cache (sweep rows only). */
  openSeconds?: number;
}

/** bench/semantic-store.ts: sqlite + hnswlib with precomputed 512-d embeddings. */
export interface SemanticResult {
  scenario: "semantic";
  manager: string;
  data: DataKind;
  size: number;
  queries: number;
  queryCosine: number;
  threshold: number;
  topK: number;
  import: ImportStats;
  memory: MemoryDelta & { vectorBytes: number; beyondVectorPerEntry: number };
  exactRepeat: ExactHitStats;
  semantic: SemanticQueryStats;
  /** get() on the same queries with the hit bookkeeping (touch, report row) made no-ops: an ablation. */
  withoutBookkeeping: LatencyStats;
  /** Fraction of queries whose exact nearest entry is the one they were made from. */
  bruteForceRecall: number;
  saveSeconds: number;
  sweep: SemanticQueryStats[];
  env: Environment;
}

/** One operation of bench/sqlite-drivers.ts on both drivers. */
export interface DriverRow {
  op: string;
  better: LatencyStats;
  sqlite3: LatencyStats;
  /** sqlite3 p50 / better-sqlite3 p50 (rows/s ratio for inserts). */
  ratio: number;
}

export interface DriversResult extends Environment {
  sqliteVersion: string;
  rows: number;
  dimension: number;
  results: DriverRow[];
  /** The scalar store's own methods on the better-sqlite3 file. */
  store: Record<string, LatencyStats>;
}
