/**
 * What GET /dashboard/data answers: one namespace's figures (or, for a caller who sees every namespace, the
 * sum of all of them) over a time window, read out of the lookup series.
 */
import { LATENCY_BINS, latencyQuantileMs, SCORE_BIN_WIDTH, SCORE_BINS } from "./bins.js";
import type { FrequentQuestion, NearMiss } from "./frequent-questions.js";
import { COUNT_FIELDS, FIELD, HOUR_MS, MINUTE_MS, SUM, SUM_FIELDS, type LookupSeries } from "./lookup-series.js";

/** The windows the page offers, each read from the ring whose buckets suit it. */
export const WINDOWS = {
  "15m": { ring: "minute", bucketMs: MINUTE_MS, buckets: 15 },
  "1h": { ring: "minute", bucketMs: MINUTE_MS, buckets: 60 },
  "24h": { ring: "hour", bucketMs: HOUR_MS, buckets: 24 },
  "7d": { ring: "hour", bucketMs: HOUR_MS, buckets: 168 },
} as const;
export type WindowName = keyof typeof WINDOWS;
export const WINDOW_NAMES = Object.keys(WINDOWS) as WindowName[];
export const DEFAULT_WINDOW: WindowName = "1h";

/** How many frequent questions and recent misses the view lists. */
const LISTED = 20;

export interface LatencySummary {
  count: number;
  p50Ms?: number;
  p90Ms?: number;
  p99Ms?: number;
}

export interface DashboardData {
  /** The namespace shown ("" the shared default); null: every namespace together. */
  namespace: string | null;
  /** The namespaces a caller who sees every namespace may pick (absent for anyone else). */
  namespaces?: string[];
  window: { name: WindowName; seconds: number; bucketSeconds: number; endMs: number };
  totals: {
    requests: number;
    hits: number;
    misses: number;
    skips: number;
    /** hits / requests (0 with no request). */
    hitRate: number;
    mapRequests: number;
    mapHits: number;
    /** Estimated tokens hits spared (characters / 4): the answers' (as /stats' savedTokens), and the prompts'. */
    savedOutputTokens: number;
    savedInputTokens: number;
    /** savedInputTokens and savedOutputTokens priced by server.prices. */
    savedCost: number;
  };
  /** One point per bucket, oldest first (columns of equal length). */
  series: { startMs: number[]; requests: number[]; hits: number[]; misses: number[]; skips: number[] };
  latency: { hit: LatencySummary; miss: LatencySummary };
  scores: {
    threshold: number;
    binWidth: number;
    /** Counts per bin of width binWidth from 0: hits' scores, and each miss's nearest candidate's. */
    hits: number[];
    nearestMisses: number[];
    /**
     * Would-be hits at other thresholds, and their share of requests (from the two histograms; a miss whose nearest
     * score the cache did not report stays a miss).
     */
    whatIf: Array<{ threshold: number; hits: number; hitRate: number }>;
  };
  frequentQuestions: Array<FrequentQuestion & { namespace?: string }>;
  recentMisses: Array<NearMiss & { namespace?: string }>;
  pricesConfigured: boolean;
  uptimeSeconds: number;
  generatedAt: number;
  /** The error budget's figures (server-wide, for a caller who sees every namespace, when one is in use). */
  errorBudget?: unknown;
}

export interface ViewContext {
  window: WindowName;
  nowMs: number;
  threshold: number;
  pricesConfigured: boolean;
  uptimeSeconds: number;
}

/** The view of `sources` (one namespace's series, or every one): labels the lists with namespaces when several. */
export function buildView(namespace: string | null, sources: ReadonlyArray<[namespace: string | undefined, series: LookupSeries]>, context: ViewContext): DashboardData {
  const spec = WINDOWS[context.window];
  const counts = new Float64Array(COUNT_FIELDS);
  const sums = new Float64Array(SUM_FIELDS);
  const series: DashboardData["series"] = { startMs: [], requests: [], hits: [], misses: [], skips: [] };
  const last = Math.floor(context.nowMs / spec.bucketMs);
  for (let index = last - spec.buckets + 1; index <= last; index++) {
    series.startMs.push(index * spec.bucketMs);
    series.requests.push(0);
    series.hits.push(0);
    series.misses.push(0);
    series.skips.push(0);
  }
  for (const [, source] of sources) {
    const ring = spec.ring === "minute" ? source.minute : source.hour;
    let point = 0;
    for (const { slot } of ring.window(context.nowMs, spec.buckets)) {
      if (slot !== undefined) {
        for (let field = 0; field < COUNT_FIELDS; field++) counts[field] += ring.countAt(slot, field);
        for (let field = 0; field < SUM_FIELDS; field++) sums[field] += ring.sumAt(slot, field);
        series.requests[point] += ring.countAt(slot, FIELD.requests);
        series.hits[point] += ring.countAt(slot, FIELD.hits);
        series.misses[point] += ring.countAt(slot, FIELD.misses);
        series.skips[point] += ring.countAt(slot, FIELD.skips);
      }
      point++;
    }
  }
  const requests = counts[FIELD.requests];
  const hitScores = Array.from(counts.subarray(FIELD.hitScore, FIELD.hitScore + SCORE_BINS));
  const missScores = Array.from(counts.subarray(FIELD.nearestMissScore, FIELD.nearestMissScore + SCORE_BINS));
  const labelled = sources.length > 1 || namespace === null;
  return {
    namespace,
    window: { name: context.window, seconds: (spec.buckets * spec.bucketMs) / 1000, bucketSeconds: spec.bucketMs / 1000, endMs: (last + 1) * spec.bucketMs },
    totals: {
      requests,
      hits: counts[FIELD.hits],
      misses: counts[FIELD.misses],
      skips: counts[FIELD.skips],
      hitRate: requests === 0 ? 0 : counts[FIELD.hits] / requests,
      mapRequests: counts[FIELD.mapRequests],
      mapHits: counts[FIELD.mapHits],
      savedOutputTokens: sums[SUM.savedOutputTokens],
      savedInputTokens: sums[SUM.savedInputTokens],
      savedCost: sums[SUM.savedCost],
    },
    series,
    latency: { hit: latency(counts.subarray(FIELD.hitLatency, FIELD.hitLatency + LATENCY_BINS)), miss: latency(counts.subarray(FIELD.missLatency, FIELD.missLatency + LATENCY_BINS)) },
    scores: {
      threshold: context.threshold,
      binWidth: SCORE_BIN_WIDTH,
      hits: hitScores,
      nearestMisses: missScores,
      whatIf: whatIf(hitScores, missScores, requests),
    },
    frequentQuestions: frequent(sources, labelled),
    recentMisses: recent(sources, labelled),
    pricesConfigured: context.pricesConfigured,
    uptimeSeconds: context.uptimeSeconds,
    generatedAt: context.nowMs,
  };
}

function latency(bins: Float64Array): LatencySummary {
  let count = 0;
  for (const n of bins) count += n;
  if (count === 0) return { count };
  const round = (ms: number | undefined) => (ms === undefined ? undefined : Math.round(ms * 1000) / 1000);
  return { count, p50Ms: round(latencyQuantileMs(bins, 0.5)), p90Ms: round(latencyQuantileMs(bins, 0.9)), p99Ms: round(latencyQuantileMs(bins, 0.99)) };
}

/** At each bin edge t: hits scoring at least t, plus misses whose nearest candidate scored at least t. */
function whatIf(hits: number[], nearest: number[], requests: number): DashboardData["scores"]["whatIf"] {
  const rows: DashboardData["scores"]["whatIf"] = [];
  let above = 0;
  for (let bin = SCORE_BINS - 1; bin >= 1; bin--) {
    above += hits[bin] + nearest[bin];
    rows.push({ threshold: Math.round(bin * SCORE_BIN_WIDTH * 100) / 100, hits: above, hitRate: requests === 0 ? 0 : above / requests });
  }
  return rows.reverse();
}

function frequent(sources: ReadonlyArray<[string | undefined, LookupSeries]>, labelled: boolean): DashboardData["frequentQuestions"] {
  return sources
    .flatMap(([namespace, series]) =>
      series.frequent.top(LISTED).map((row) => ({ ...row, ...(labelled ? { namespace: namespace ?? "(other namespaces)" } : {}) })),
    )
    .sort((a, b) => b.count - a.count)
    .slice(0, LISTED);
}

function recent(sources: ReadonlyArray<[string | undefined, LookupSeries]>, labelled: boolean): DashboardData["recentMisses"] {
  return sources
    .flatMap(([namespace, series]) =>
      series.misses.list().map((row) => ({ ...row, ...(labelled ? { namespace: namespace ?? "(other namespaces)" } : {}) })),
    )
    .sort((a, b) => b.at - a.at)
    .slice(0, LISTED);
}
