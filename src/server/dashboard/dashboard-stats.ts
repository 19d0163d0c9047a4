/**
 * The dashboard's figures: each namespace's lookups over time (LookupSeries), in bounded memory. Namespaces
 * the configuration names, plus the first MAX_EXTRA_SERIES others that see traffic, get series of their own
 * (about 130 KB each, allocated on their first lookup); lookups of any further namespace are added to one
 * shared overflow series, which counts in the whole server's view only, so totals still add up.
 */
import type { CacheStatus } from "../../core/pipeline.js";
import { LookupSeries, type LookupCache, type LookupSeriesSnapshot } from "./lookup-series.js";
import { PriceTable, type ModelPrice } from "./prices.js";

/** Namespaces beyond the configured ones that get series of their own. */
export const MAX_EXTRA_SERIES = 64;
/** The shared default namespace's key (no namespace name is empty). */
export const DEFAULT_NAMESPACE = "";
/** The overflow series' key: `*` is no namespace name's character. */
const OVERFLOW = "*";
/** Format of the saved snapshot (a file of another version is ignored, not misread). */
export const SNAPSHOT_VERSION = 1;

export interface DashboardSnapshot {
  version: number;
  savedAt: number;
  namespaces: Record<string, LookupSeriesSnapshot>;
}

export interface DashboardStatsOptions {
  /** Namespaces the configuration names (always given series). */
  namespaces?: Iterable<string>;
  prices?: Record<string, ModelPrice>;
  /** Milliseconds since the epoch (tests pass a clock of their own). Default Date.now. */
  now?: () => number;
}

/** Characters per token in the estimates (as `cache.report.savedTokens` counts them). */
const CHARS_PER_TOKEN = 4;

export class DashboardStats {
  readonly now: () => number;
  readonly prices: PriceTable;
  private readonly series = new Map<string, LookupSeries>();
  private readonly configured: ReadonlySet<string>;
  private extra = 0;

  constructor(options: DashboardStatsOptions = {}) {
    this.now = options.now ?? Date.now;
    this.prices = new PriceTable(options.prices);
    this.configured = new Set([DEFAULT_NAMESPACE, ...(options.namespaces ?? [])]);
  }

  /**
   * One lookup of a namespace (undefined: the shared default). `score`: a hit's, or a miss's nearest candidate's
   * when the cache reports one. `question`: the key text, for the frequent questions and the latest misses.
   */
  lookup(namespace: string | undefined, cache: LookupCache, status: CacheStatus, latencyMs: number, score?: number, question?: string): void {
    this.seriesFor(namespace).lookup(this.now(), cache, status, latencyMs, score, question);
  }

  /** A main-cache hit's estimated savings: its prompt and answer, in characters, and the model it spared. */
  saved(namespace: string | undefined, promptChars: number, answerChars: number, model?: string): void {
    const inputTokens = Math.ceil(promptChars / CHARS_PER_TOKEN);
    const outputTokens = Math.ceil(answerChars / CHARS_PER_TOKEN);
    this.seriesFor(namespace).saved(this.now(), inputTokens, outputTokens, this.prices.cost(model, inputTokens, outputTokens));
  }

  /** Runs after forgetQuestions (the saved file is written again at once). */
  onForget?: () => void;

  /** Forgets every namespace's questions (a clear of the cache removes every trace of its entries); counts stay. */
  forgetQuestions(): void {
    for (const series of this.series.values()) series.forgetQuestions();
    this.onForget?.();
  }

  /** The series of one namespace (undefined: the shared default), or none when it never had any. */
  of(namespace: string | undefined): LookupSeries | undefined {
    return this.series.get(namespace ?? DEFAULT_NAMESPACE);
  }

  /** Every series, the overflow included (the whole server's view). */
  all(): Array<[namespace: string | undefined, series: LookupSeries]> {
    return [...this.series].map(([name, series]) => [name === OVERFLOW ? undefined : name, series]);
  }

  /** The configured namespaces and those with series of their own (the overflow is none of them), sorted. */
  namespaces(): string[] {
    return [...new Set([...this.configured, ...this.series.keys()])].filter((name) => name !== OVERFLOW).sort();
  }

  private seriesFor(namespace: string | undefined): LookupSeries {
    const name = namespace ?? DEFAULT_NAMESPACE;
    let series = this.series.get(name);
    if (series) return series;
    const own = this.configured.has(name) || this.extra < MAX_EXTRA_SERIES;
    const key = own ? name : OVERFLOW;
    series = this.series.get(key);
    if (!series) {
      if (own && !this.configured.has(name)) this.extra++;
      series = new LookupSeries();
      this.series.set(key, series);
    }
    return series;
  }

  snapshot(): DashboardSnapshot {
    return { version: SNAPSHOT_VERSION, savedAt: this.now(), namespaces: Object.fromEntries([...this.series].map(([name, series]) => [name, series.snapshot()])) };
  }

  /** Loads a snapshot saved by `snapshot()` (buckets older than the rings hold are dropped). */
  restore(snapshot: unknown): void {
    const { version, namespaces } = (snapshot ?? {}) as Partial<DashboardSnapshot>;
    if (version !== SNAPSHOT_VERSION || typeof namespaces !== "object" || namespaces === null) return;
    const now = this.now();
    for (const [name, saved] of Object.entries(namespaces)) {
      if (typeof saved !== "object" || saved === null) continue;
      const series = name === OVERFLOW ? this.overflow() : this.seriesFor(name);
      series.restore(saved, now);
    }
  }

  private overflow(): LookupSeries {
    let series = this.series.get(OVERFLOW);
    if (!series) {
      series = new LookupSeries();
      this.series.set(OVERFLOW, series);
    }
    return series;
  }
}
