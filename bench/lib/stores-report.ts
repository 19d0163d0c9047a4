/** bench/stores.ts's result per store combination and its table. */
import type { LatencyStats } from "./measure.js";
import { count, ms, table } from "./output.js";
import type { Environment, ImportStats } from "./types.js";

export interface StoreResult {
  /** Row name, e.g. "sqlite + pgvector (PGlite in process)". */
  label: string;
  /** The factory string. */
  kinds: string;
  size: number;
  dimension: number;
  openSeconds: number;
  import: ImportStats;
  /** cache.flush() after the import (saves in-process indexes; LanceDB builds its index). */
  flushSeconds: number;
  /**
   * A new cache on the same stores after close(): init() and the first near-duplicate get answered (a restart);
   * undefined for a scalar store that keeps nothing across restarts.
   */
  reopenSeconds?: number;
  put: LatencyStats;
  get: LatencyStats;
  /** Share of near-duplicate gets answered at all, and with their own entry's answer. */
  hitRate: number;
  recall: number;
  env: Environment;
}

const percent = (value: number): string => `${(value * 100).toFixed(1)}%`;

export function storesTable(results: readonly StoreResult[]): string {
  return table(
    ["stores", "import rows/s", "restart s", "put p50 ms", "put p99 ms", "puts/s", "hit p50 ms", "hit p99 ms", "hits/s", "hit rate", "right answer"],
    results.map((r) => [
      r.label,
      count(r.import.rowsPerSecond),
      r.reopenSeconds === undefined ? "-" : r.reopenSeconds.toFixed(2),
      ms(r.put.p50),
      ms(r.put.p99),
      count(r.put.perSecond),
      ms(r.get.p50),
      ms(r.get.p99),
      count(r.get.perSecond),
      percent(r.hitRate),
      percent(r.recall),
    ]),
  );
}
