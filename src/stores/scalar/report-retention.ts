import { ValidationError } from "../../core/errors.js";

/**
 * Report rows kept by default. A row (~300 bytes: the user's question, the cached question and answer) is
 * written per hit; uncapped, an SQLite file grew 335 MB over 1.1 M hits.
 */
export const DEFAULT_MAX_REPORTS = 10_000;

/** The option every scalar store takes for its report rows. */
export interface ReportRetentionOptions {
  /**
   * Report rows kept (the newest); older ones are deleted as new ones are written, so a long-running cache does
   * not grow. 0 keeps none. Default 10,000.
   */
  maxReports?: number;
}

/** `maxReports` checked (a non-negative integer) with its default applied. */
export function resolveMaxReports(store: string, maxReports: number | undefined): number {
  if (maxReports === undefined) return DEFAULT_MAX_REPORTS;
  if (!(Number.isInteger(maxReports) && maxReports >= 0)) {
    throw new ValidationError(`${store}: maxReports must be a non-negative integer, got ${String(maxReports)}`);
  }
  return maxReports;
}
