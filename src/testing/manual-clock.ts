import type { Clock } from "../core/clock.js";

/**
 * A clock that moves only when told: pass it as a data manager's `clock` and call `advance(ms)` where a test would
 * sleep. Timers that come due run inside `advance`, in time order, each seeing its own due time as `now()`.
 */
export class ManualClock implements Clock {
  private current: number;
  private timers: Array<{ at: number; run: () => void; order: number }> = [];
  private scheduled = 0;

  /** Starts at the real time by default: a store that also expires by its server's clock (Redis) agrees with it. */
  constructor(startMs = Date.now()) {
    this.current = startMs;
  }

  now(): number {
    return this.current;
  }

  schedule(run: () => void, delayMs: number): () => void {
    const timer = { at: this.current + Math.max(0, delayMs), run, order: this.scheduled++ };
    this.timers.push(timer);
    return () => {
      this.timers = this.timers.filter((pending) => pending !== timer);
    };
  }

  /** Timers waiting to run. */
  get pending(): number {
    return this.timers.length;
  }

  /** Moves time on by `ms`, running every timer that comes due on the way (timers they schedule included). */
  advance(ms: number): void {
    const until = this.current + ms;
    for (;;) {
      const due = this.timers.filter((timer) => timer.at <= until).sort((a, b) => a.at - b.at || a.order - b.order)[0];
      if (!due) break;
      this.timers = this.timers.filter((timer) => timer !== due);
      this.current = Math.max(this.current, due.at);
      due.run();
    }
    this.current = until;
  }
}
