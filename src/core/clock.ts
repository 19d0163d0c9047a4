/**
 * Time as the cache reads it: the wall clock in milliseconds, and a timer. Everything that ages, expires or
 * waits (ttl, maxAgeSeconds, hit bookkeeping, replica sync, the report's ages) reads one Clock, so a test passes
 * a manual one (ManualClock in ./testing) and moves time on instead of sleeping.
 */
export interface Clock {
  /** Milliseconds since the epoch. */
  now(): number;
  /** Runs `run` once after `delayMs`; the returned function cancels it. A pending timer never keeps the process alive. */
  schedule(run: () => void, delayMs: number): () => void;
}

/** Date.now() and an unref'd setTimeout. */
export const systemClock: Clock = Object.freeze({
  now: () => Date.now(),
  schedule(run: () => void, delayMs: number) {
    const timer = setTimeout(run, delayMs);
    timer.unref();
    return () => clearTimeout(timer);
  },
});
