/** The benchmark data sets (/work/shared/data, or QUALITY_DATA_DIR) and the fixed QQP split. */
import { readFileSync } from "node:fs";
import { join } from "node:path";

const DATA_DIR = process.env.QUALITY_DATA_DIR ?? "/work/shared/data";

/** QQP indexes below this are for fitting and tuning; from it on, for reporting only. */
export const QQP_REPORT_START = 60_000;

export interface QqpPair {
  text_a: string;
  text_b: string;
  label: 0 | 1;
}

export interface ParaphrasePair {
  origin: string;
  similar: string;
}

export function loadQqp(): QqpPair[] {
  return JSON.parse(readFileSync(join(DATA_DIR, "qqp-pairs-80k.json"), "utf8")) as QqpPair[];
}

export function loadParaphrases(): ParaphrasePair[] {
  return JSON.parse(readFileSync(join(DATA_DIR, "paraphrase-pairs-999.json"), "utf8")) as ParaphrasePair[];
}

/** The tune split (optionally its first `limit` pairs) and the report split. */
export function qqpSplits(pairs: readonly QqpPair[], tuneLimit = QQP_REPORT_START): { tune: QqpPair[]; report: QqpPair[] } {
  return { tune: pairs.slice(0, Math.min(tuneLimit, QQP_REPORT_START)), report: pairs.slice(QQP_REPORT_START) };
}

/**
 * Whether returning `stored` for the query `pair.text_b` is right: the pair's own partner when QQP labels the
 * pair a duplicate, or the very same text (Quora questions recur across pairs; an identical question is the
 * same question whatever the pair's label).
 */
export function isRight(pair: QqpPair, stored: string): boolean {
  return stored === pair.text_b || (pair.label === 1 && stored === pair.text_a);
}

/** Queries (text_b) of `pairs` that have a right answer among the pairs' text_a. */
export function answerableCount(pairs: readonly QqpPair[]): number {
  const stored = new Set(pairs.map((p) => p.text_a));
  return pairs.filter((p) => p.label === 1 || stored.has(p.text_b)).length;
}
