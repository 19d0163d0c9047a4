/**
 * One namespace's lookups over time, for the dashboard: two rings (a minute's buckets for the last hour, an
 * hour's for the last week), the most frequent questions and the latest misses. Recording touches
 * preallocated rows only (a hit costs a few array writes and a map lookup for the question's count).
 */
import type { CacheStatus } from "../../core/pipeline.js";
import { LATENCY_BINS, latencyBin, SCORE_BINS, scoreBin } from "./bins.js";
import { FrequentQuestions, RecentMisses } from "./frequent-questions.js";
import { RingSeries, type RingSnapshot } from "./ring-series.js";

/** Counter positions in a bucket's row. */
export const FIELD = {
  requests: 0,
  hits: 1,
  misses: 2,
  skips: 3,
  mapRequests: 4,
  mapHits: 5,
  hitLatency: 6,
  missLatency: 6 + LATENCY_BINS,
  hitScore: 6 + 2 * LATENCY_BINS,
  nearestMissScore: 6 + 2 * LATENCY_BINS + SCORE_BINS,
} as const;
export const COUNT_FIELDS = FIELD.nearestMissScore + SCORE_BINS;

/** Sum positions: estimated tokens a hit saved (prompt and answer characters / 4) and their price. */
export const SUM = { savedInputTokens: 0, savedOutputTokens: 1, savedCost: 2 } as const;
export const SUM_FIELDS = 3;

export const MINUTE_MS = 60_000;
export const HOUR_MS = 3_600_000;
/** Ring sizes: the last hour by the minute, the last 7 days by the hour. */
export const MINUTE_BUCKETS = 60;
export const HOUR_BUCKETS = 168;
export const FREQUENT_QUESTIONS = 50;
export const RECENT_MISSES = 20;

/** The main cache (/get and the proxy) or the plain map. */
export type LookupCache = "main" | "map";

export interface LookupSeriesSnapshot {
  minute: RingSnapshot;
  hour: RingSnapshot;
  frequent: ReturnType<FrequentQuestions["snapshot"]>;
  misses: ReturnType<RecentMisses["list"]>;
}

function addSaved(ring: RingSeries, nowMs: number, inputTokens: number, outputTokens: number, cost: number): void {
  const at = ring.slot(nowMs) * SUM_FIELDS;
  ring.sums[at + SUM.savedInputTokens] += inputTokens;
  ring.sums[at + SUM.savedOutputTokens] += outputTokens;
  ring.sums[at + SUM.savedCost] += cost;
}

/** Characters of a question kept for the frequent questions and the latest misses (the page shows as many). */
export const KEPT_QUESTION_CHARS = 300;

export class LookupSeries {
  readonly minute = new RingSeries(MINUTE_MS, MINUTE_BUCKETS, COUNT_FIELDS, SUM_FIELDS);
  readonly hour = new RingSeries(HOUR_MS, HOUR_BUCKETS, COUNT_FIELDS, SUM_FIELDS);
  readonly frequent = new FrequentQuestions(FREQUENT_QUESTIONS);
  readonly misses = new RecentMisses(RECENT_MISSES);

  /** One lookup. `score`: a hit's, or on a miss the nearest candidate's when the cache reports it. */
  lookup(nowMs: number, cache: LookupCache, status: CacheStatus, latencyMs: number, score: number | undefined, question: string | undefined): void {
    this.add(this.minute, nowMs, cache, status, latencyMs, score);
    this.add(this.hour, nowMs, cache, status, latencyMs, score);
    if (question === undefined) return;
    // Only the start of a long question is kept: the rings stay small, and so does the saved file.
    const kept = question.length > KEPT_QUESTION_CHARS ? `${question.slice(0, KEPT_QUESTION_CHARS)}…` : question;
    this.frequent.add(kept);
    if (status === "MISS") this.misses.add(kept, score, nowMs);
  }

  /** Forgets the questions it holds (a clear of the cache); the counts stay. */
  forgetQuestions(): void {
    this.frequent.clear();
    this.misses.clear();
  }

  /** A hit's estimated savings: tokens and their price. */
  saved(nowMs: number, inputTokens: number, outputTokens: number, cost: number): void {
    addSaved(this.minute, nowMs, inputTokens, outputTokens, cost);
    addSaved(this.hour, nowMs, inputTokens, outputTokens, cost);
  }

  private add(ring: RingSeries, nowMs: number, cache: LookupCache, status: CacheStatus, latencyMs: number, score: number | undefined): void {
    const row = ring.slot(nowMs) * COUNT_FIELDS;
    const counts = ring.counts;
    if (cache === "map") {
      counts[row + FIELD.mapRequests]++;
      if (status === "HIT") counts[row + FIELD.mapHits]++;
      return;
    }
    counts[row + FIELD.requests]++;
    if (status === "HIT") {
      counts[row + FIELD.hits]++;
      counts[row + FIELD.hitLatency + latencyBin(latencyMs)]++;
      if (score !== undefined) counts[row + FIELD.hitScore + scoreBin(score)]++;
    } else if (status === "MISS") {
      counts[row + FIELD.misses]++;
      counts[row + FIELD.missLatency + latencyBin(latencyMs)]++;
      if (score !== undefined) counts[row + FIELD.nearestMissScore + scoreBin(score)]++;
    } else counts[row + FIELD.skips]++;
  }

  snapshot(): LookupSeriesSnapshot {
    return { minute: this.minute.snapshot(), hour: this.hour.snapshot(), frequent: this.frequent.snapshot(), misses: this.misses.list() };
  }

  restore(snapshot: Partial<LookupSeriesSnapshot>, nowMs: number): void {
    if (snapshot.minute) this.minute.restore(snapshot.minute, nowMs);
    if (snapshot.hour) this.hour.restore(snapshot.hour, nowMs);
    this.frequent.restore(snapshot.frequent);
    this.misses.restore(snapshot.misses);
  }
}
