/** Latency percentiles and memory snapshots, shared by every benchmark. */

/** Latencies of one measured loop, in microseconds. */
export interface LatencyStats {
  n: number;
  p50: number;
  p99: number;
  p999: number;
  mean: number;
  max: number;
  /** Operations per second over the whole loop. */
  perSecond: number;
}

/**
 * Runs `op(0..count-1)` one at a time (each awaited) after `warmup` untimed calls of `warm` (or `op`), and
 * times each call with the monotonic clock.
 */
export async function measure(
  count: number,
  op: (i: number) => Promise<unknown>,
  options: { warmup?: number; warm?: (i: number) => Promise<unknown> } = {},
): Promise<LatencyStats> {
  const warm = options.warm ?? op;
  const warmup = options.warmup ?? Math.min(500, count);
  for (let i = 0; i < warmup; i++) await warm(i);
  const times = new Float64Array(count);
  const start = process.hrtime.bigint();
  for (let i = 0; i < count; i++) {
    const t0 = process.hrtime.bigint();
    await op(i);
    times[i] = Number(process.hrtime.bigint() - t0) / 1_000;
    // A server turns the event loop between requests (I/O): deferred work (buffered hit updates) runs here,
    // outside the request's latency but inside perSecond, which so counts what that work costs.
    await new Promise((resolve) => setImmediate(resolve));
  }
  const seconds = Number(process.hrtime.bigint() - start) / 1e9;
  times.sort();
  const at = (q: number) => times[Math.min(count - 1, Math.floor(count * q))];
  let total = 0;
  for (const t of times) total += t;
  return { n: count, p50: at(0.5), p99: at(0.99), p999: at(0.999), mean: total / count, max: times[count - 1], perSecond: count / seconds };
}

/** Process memory in bytes. */
export interface MemorySnapshot {
  rss: number;
  /** V8 heap reserved (live objects and free space it keeps). */
  heapTotal: number;
  heapUsed: number;
  external: number;
  arrayBuffers: number;
}

/** Memory after a full collection (when the process runs with --expose-gc; the figures are noisier without). */
export async function memorySnapshot(): Promise<MemorySnapshot> {
  for (let i = 0; i < 2; i++) {
    globalThis.gc?.();
    await new Promise((resolve) => setImmediate(resolve));
  }
  const { rss, heapTotal, heapUsed, external, arrayBuffers } = process.memoryUsage();
  return { rss, heapTotal, heapUsed, external, arrayBuffers };
}

/** What storing `entries` entries added, per entry. */
export interface MemoryDelta {
  entries: number;
  before: MemorySnapshot;
  after: MemorySnapshot;
  rssPerEntry: number;
  heapPerEntry: number;
  /** Whether a full GC ran before each snapshot. */
  gc: boolean;
}

export function memoryDelta(entries: number, before: MemorySnapshot, after: MemorySnapshot): MemoryDelta {
  return {
    entries,
    before,
    after,
    rssPerEntry: (after.rss - before.rss) / entries,
    heapPerEntry: (after.heapUsed - before.heapUsed) / entries,
    gc: typeof globalThis.gc === "function",
  };
}

/** Seconds since `start` (a process.hrtime.bigint() reading). */
export function secondsSince(start: bigint): number {
  return Number(process.hrtime.bigint() - start) / 1e9;
}

/** The middle value (the upper of the two middle ones for an even count): one disturbed run cannot move it. */
export function median(values: readonly number[]): number {
  return [...values].sort((a, b) => a - b)[values.length >> 1];
}
