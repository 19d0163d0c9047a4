import { nonNegativeInteger } from "../../core/validation.js";
import type { ReportRow } from "../../core/types.js";

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
  return nonNegativeInteger(`${store}: maxReports`, maxReports, DEFAULT_MAX_REPORTS);
}

/**
 * A report row as the document and file stores keep it (MongoDB documents, Redis JSON, the memory store's file):
 * the names they were first written with, so rows written by an older version still read the same.
 */
export type StoredReportRow = Omit<ReportRow, "lookupMs" | "hitAtMs"> & { cacheDeltaTime: number; cacheTime: number };

/** `row` in its stored spelling. */
export function toStoredReport({ lookupMs, hitAtMs, ...row }: ReportRow): StoredReportRow {
  return { ...row, cacheDeltaTime: lookupMs, cacheTime: hitAtMs };
}

/** A stored report row read back. */
export function fromStoredReport({ cacheDeltaTime, cacheTime, ...row }: StoredReportRow): ReportRow {
  return { ...row, lookupMs: cacheDeltaTime, hitAtMs: cacheTime };
}
