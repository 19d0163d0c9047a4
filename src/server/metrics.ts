/**
 * Prometheus metrics (text exposition format 0.0.4), `semcache_` prefix, base units (seconds, bytes):
 * HTTP requests and their latency by route, the caches' counters and per-stage timings (from `cache.report`),
 * proxy outcomes, and the number of stored entries.
 */
import type { Cache } from "../presets/cache.js";
import type { CacheStatus } from "../core/pipeline.js";
import { STAGES } from "../core/report.js";
import type { ErrorBudgetStats } from "../similarity/error-budget-evaluation.js";
import type { LookupCounts, NamespaceCounts } from "./namespace-stats.js";

/** Upper bounds (seconds) of the request latency histogram: a hit takes well under a millisecond, a model call seconds. */
const BUCKETS = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];

/** One route's series: its latency histogram and its answers by status (label strings built once). */
interface RouteSeries {
  labels: string;
  buckets: number[];
  sum: number;
  count: number;
  statuses: Map<number, number>;
}

export type { RouteSeries };

export type ProxyOutcome = CacheStatus;

function escapeLabel(value: string): string {
  return value.replace(/\\/g, "\\\\").replace(/"/g, '\\"').replace(/\n/g, "\\n");
}

function labels(pairs: Record<string, string>): string {
  return Object.entries(pairs)
    .map(([name, value]) => `${name}="${escapeLabel(value)}"`)
    .join(",");
}

/** One metric family: its HELP and TYPE lines, then its samples. */
function family(name: string, type: string, help: string, samples: string[]): string {
  return `# HELP ${name} ${help}\n# TYPE ${name} ${type}\n${samples.join("\n")}${samples.length > 0 ? "\n" : ""}`;
}

export class Metrics {
  private readonly routes = new Map<string, RouteSeries>();
  private readonly proxy = new Map<ProxyOutcome, number>([
    ["HIT", 0],
    ["MISS", 0],
    ["SKIP", 0],
  ]);

  /**
   * The series of one method and route pattern (bounded, never the raw URL). Routes look theirs up once and
   * keep it, so the hot path only adds numbers.
   */
  series(method: string, route: string): RouteSeries {
    const key = `${method} ${route}`;
    let series = this.routes.get(key);
    if (!series) {
      series = { labels: labels({ method, route }), buckets: new Array<number>(BUCKETS.length).fill(0), sum: 0, count: 0, statuses: new Map() };
      this.routes.set(key, series);
    }
    return series;
  }

  /** Counts one answered request of a series. */
  observe(series: RouteSeries, status: number, seconds: number): void {
    series.statuses.set(status, (series.statuses.get(status) ?? 0) + 1);
    let bucket = 0;
    while (bucket < BUCKETS.length && seconds > BUCKETS[bucket]) bucket++;
    if (bucket < BUCKETS.length) series.buckets[bucket]++;
    series.sum += seconds;
    series.count++;
  }

  observeProxy(outcome: ProxyOutcome): void {
    this.proxy.set(outcome, (this.proxy.get(outcome) ?? 0) + 1);
  }

  /** The exposition text. `caches` are labelled by name; `entries` is the data manager's live count. */
  render(caches: Record<string, Cache>, entries: number): string {
    const named = Object.entries(caches);
    const counter = (name: string, help: string, read: (cache: Cache) => number) =>
      family(name, "counter", help, named.map(([label, cache]) => `${name}{${labels({ cache: label })}} ${read(cache)}`));
    const stageSamples = named.flatMap(([label, cache]) =>
      STAGES.flatMap((stage) => {
        const timing = cache.report.stages[stage];
        const at = labels({ cache: label, stage });
        return [`semcache_stage_duration_seconds_sum{${at}} ${timing.totalMs / 1000}`, `semcache_stage_duration_seconds_count{${at}} ${timing.count}`];
      }),
    );
    const routes = [...this.routes.values()].filter((series) => series.count > 0);
    const requestSamples = routes.flatMap((series) =>
      [...series.statuses].map(([status, n]) => `semcache_http_requests_total{${series.labels},status="${status}"} ${n}`),
    );
    const histogramSamples = routes.flatMap((h) => {
      let cumulative = 0;
      const lines = BUCKETS.map((bound, i) => {
        cumulative += h.buckets[i];
        return `semcache_http_request_duration_seconds_bucket{${h.labels},le="${bound}"} ${cumulative}`;
      });
      lines.push(`semcache_http_request_duration_seconds_bucket{${h.labels},le="+Inf"} ${h.count}`);
      lines.push(`semcache_http_request_duration_seconds_sum{${h.labels}} ${h.sum}`, `semcache_http_request_duration_seconds_count{${h.labels}} ${h.count}`);
      return lines;
    });
    return [
      family("semcache_http_requests_total", "counter", "HTTP requests answered, by method, route and status.", requestSamples),
      family("semcache_http_request_duration_seconds", "histogram", "Time to answer an HTTP request, by method and route.", histogramSamples),
      counter("semcache_cache_requests_total", "Requests that went through a cache.", (c) => c.report.requests),
      counter("semcache_cache_hits_total", "Requests answered from a cache.", (c) => c.report.hits),
      counter("semcache_cache_misses_total", "Lookups that found no answer.", (c) => c.report.misses),
      counter("semcache_cache_skips_total", "Requests that did not read the cache (cache_skip, temperature, no-cache).", (c) => c.report.skips),
      counter("semcache_cache_errors_total", "Cache faults absorbed (the model answer was still returned).", (c) => c.report.errors),
      counter("semcache_cache_saves_skipped_total", "Answers not stored because a value was longer than its column.", (c) => c.report.savesSkipped),
      counter("semcache_cache_saved_tokens_total", "Estimated completion tokens answered from a cache (answer characters / 4).", (c) => c.report.savedTokens),
      family("semcache_stage_duration_seconds", "summary", "Time spent in each stage of the request flow (pre, embedding, search, data, evaluation, post, llm, save).", stageSamples),
      family("semcache_proxy_responses_total", "counter", "Chat completions answered by the proxy, by x-semcache outcome.", [...this.proxy].map(([outcome, n]) => `semcache_proxy_responses_total{${labels({ outcome })}} ${n}`)),
      errorBudgetFamilies(named),
      family("semcache_entries", "gauge", "Live entries in the store.", [`semcache_entries ${entries}`]),
      family("process_resident_memory_bytes", "gauge", "Resident memory size in bytes.", [`process_resident_memory_bytes ${process.memoryUsage.rss()}`]),
      family("process_start_time_seconds", "gauge", "Start time of the process since the Unix epoch, in seconds.", [`process_start_time_seconds ${Math.floor(performance.timeOrigin / 1000)}`]),
    ].join("");
  }
}

/** A sample value as the text format spells it (+Inf, -Inf, NaN). */
function sample(value: number): string {
  if (value === Number.POSITIVE_INFINITY) return "+Inf";
  if (value === Number.NEGATIVE_INFINITY) return "-Inf";
  return String(value);
}

/** The error budget's section of a cache's report, when its judge has one. */
export function errorBudgetOf(cache: Cache): ErrorBudgetStats | undefined {
  return cache.report.sections().errorBudget as ErrorBudgetStats | undefined;
}

/** The error budget's figures (docs/error-budget.md), for each cache whose judge has one; nothing otherwise. */
function errorBudgetFamilies(caches: ReadonlyArray<[string, Cache]>): string {
  const budgets = caches.flatMap(([label, cache]) => {
    const stats = errorBudgetOf(cache);
    return stats ? [[labels({ cache: label }), stats] as const] : [];
  });
  if (budgets.length === 0) return "";
  const metric = (name: string, type: string, help: string, read: (stats: ErrorBudgetStats) => number) =>
    family(name, type, help, budgets.map(([at, stats]) => `${name}{${at}} ${sample(read(stats))}`));
  return [
    metric("semcache_error_budget_max_rate", "gauge", "The false-hit rate the error budget keeps under (maxErrorRate).", (b) => b.maxErrorRate),
    family(
      "semcache_error_budget_false_hit_rate",
      "gauge",
      "Estimated false-hit rate of served hits (bound=estimate), with its confidence interval (bound=lower, upper), from the audited sample.",
      budgets.flatMap(([at, b]) => (["estimate", "lower", "upper"] as const).map((bound) => `semcache_error_budget_false_hit_rate{${at},bound="${bound}"} ${sample(bound === "estimate" ? b.estimate.rate : b.estimate[bound])}`)),
    ),
    metric("semcache_error_budget_samples", "gauge", "Audited outcomes behind the false-hit estimate.", (b) => b.estimate.samples),
    metric("semcache_error_budget_within_budget", "gauge", "1 when the interval's upper bound is under the budget.", (b) => (b.withinBudget ? 1 : 0)),
    metric("semcache_error_budget_decisions_total", "counter", "Lookups the budget decided (their nearest candidate).", (b) => b.decisions),
    metric("semcache_error_budget_served_total", "counter", "Decisions that served the entry.", (b) => b.served),
    metric("semcache_error_budget_explored_total", "counter", "Decisions sent to the model because the fit was not sure enough.", (b) => b.explored),
    metric("semcache_error_budget_audited_total", "counter", "Would-be hits sent to the model anyway (the audit sample).", (b) => b.audited),
    metric("semcache_error_budget_sample_share", "gauge", "(explored + audited) / decisions: the share of would-be lookups sent to the model.", (b) => b.sampleShare),
    metric("semcache_error_budget_observations_total", "counter", "Outcomes compared and learned from.", (b) => b.observations),
    metric("semcache_error_budget_pending_comparisons", "gauge", "Answer comparisons in flight.", (b) => b.pendingComparisons),
    metric("semcache_error_budget_failed_comparisons_total", "counter", "Answer comparisons that failed (their observation dropped).", (b) => b.failedComparisons),
    metric("semcache_error_budget_pooled_threshold", "gauge", "The pooled fit's threshold, where an entry without history starts.", (b) => b.pooledThreshold),
    metric("semcache_error_budget_entries", "gauge", "Entries with a learned threshold of their own.", (b) => b.entries),
  ].join("");
}

/**
 * The exposition text a key working in one namespace reads: that namespace's lookups only, under the
 * cache counters' names with a `namespace` label ("" for the shared default). No HTTP, store or process
 * figures: those add up every tenant's traffic.
 */
export function renderNamespace(namespace: string | undefined, counts: NamespaceCounts): string {
  const counter = (name: string, help: string, read: (c: LookupCounts) => number) =>
    family(
      name,
      "counter",
      help,
      (["main", "map"] as const).map((cache) => `${name}{${labels({ cache, namespace: namespace ?? "" })}} ${read(counts[cache])}`),
    );
  return [
    counter("semcache_cache_requests_total", "Lookups of this namespace.", (c) => c.requests),
    counter("semcache_cache_hits_total", "Lookups of this namespace answered from a cache.", (c) => c.hits),
    counter("semcache_cache_misses_total", "Lookups of this namespace that found no answer.", (c) => c.misses),
    counter("semcache_cache_skips_total", "Requests of this namespace that did not read the cache.", (c) => c.skips),
  ].join("");
}
