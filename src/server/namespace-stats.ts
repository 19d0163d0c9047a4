/**
 * Lookups counted per namespace. The caches' own reports add up every tenant's requests, so a key that
 * works in one namespace reads these instead from /stats and /metrics: its namespace's figures, never the
 * store's totals. Counted in this process, since it started (as the caches' reports are).
 */
import type { CacheStatus } from "../core/pipeline.js";

/** The main cache (/get and the proxy) or the plain map (GET /?prompt=). */
export type CacheName = "main" | "map";

export interface LookupCounts {
  requests: number;
  hits: number;
  misses: number;
  skips: number;
}

export type NamespaceCounts = Record<CacheName, LookupCounts>;

/**
 * Namespaces counted beyond those the configuration names. Callers free to pick any namespace (admin keys,
 * any caller with no keys) could otherwise grow the table without end; a namespace past the limit is not
 * counted, and only those callers can read its figures.
 */
export const MAX_EXTRA_NAMESPACES = 1000;

/** The shared default namespace's entry (no namespace name is empty). */
const DEFAULT = "";

const zero = (): LookupCounts => ({ requests: 0, hits: 0, misses: 0, skips: 0 });
const empty = (): NamespaceCounts => ({ main: zero(), map: zero() });

export class NamespaceStats {
  private readonly counts = new Map<string, NamespaceCounts>();
  private extra = 0;

  /** `namespaces`: those the configuration names (keys' namespaces, server.namespaces), always counted. */
  constructor(namespaces: Iterable<string>) {
    this.counts.set(DEFAULT, empty());
    for (const namespace of namespaces) this.counts.set(namespace, empty());
  }

  /** Counts one lookup of a namespace (undefined: the shared default). */
  record(namespace: string | undefined, cache: CacheName, outcome: CacheStatus): void {
    const counts = this.entry(namespace ?? DEFAULT)?.[cache];
    if (!counts) return;
    counts.requests++;
    if (outcome === "HIT") counts.hits++;
    else if (outcome === "MISS") counts.misses++;
    else counts.skips++;
  }

  /** A namespace's figures (a copy; zeros for one never counted). */
  of(namespace: string | undefined): NamespaceCounts {
    const counts = this.counts.get(namespace ?? DEFAULT);
    return counts ? { main: { ...counts.main }, map: { ...counts.map } } : empty();
  }

  private entry(namespace: string): NamespaceCounts | undefined {
    let counts = this.counts.get(namespace);
    if (!counts && this.extra < MAX_EXTRA_NAMESPACES) {
      this.extra++;
      counts = empty();
      this.counts.set(namespace, counts);
    }
    return counts;
  }
}
