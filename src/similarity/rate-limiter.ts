import { ValidationError } from "../core/errors.js";
import { isPositiveInteger, isPositiveNumber } from "../core/validation.js";

/** A clock the limiter reads and sleeps on; tests pass a fake one. */
export interface LimiterClock {
  now(): number;
  sleep(ms: number): Promise<void>;
}

const realClock: LimiterClock = { now: () => Date.now(), sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)) };

export interface TokenBucketOptions {
  /** Calls allowed per window (and the burst size). */
  limit: number;
  /** The window in milliseconds. Default 60 000 (a minute). */
  windowMs?: number;
  clock?: LimiterClock;
}

/**
 * A client-side token bucket for rate-limited APIs (Cohere's free tier: 100 rerank calls a minute): a call
 * takes a token, or waits until one refills; it never fails. Waiters are served in order.
 */
export class TokenBucket {
  readonly limit: number;
  readonly windowMs: number;
  readonly #clock: LimiterClock;
  #tokens: number;
  #updated: number;
  #queue: Promise<void> = Promise.resolve();

  constructor(options: TokenBucketOptions) {
    const { limit, windowMs = 60_000, clock = realClock } = options ?? ({} as TokenBucketOptions);
    if (!isPositiveInteger(limit)) throw new ValidationError("TokenBucket: `limit` must be a positive integer.");
    if (!isPositiveNumber(windowMs)) throw new ValidationError("TokenBucket: `windowMs` must be a positive number.");
    this.limit = limit;
    this.windowMs = windowMs;
    this.#clock = clock;
    this.#tokens = limit;
    this.#updated = clock.now();
  }

  /** Resolves when the caller may make one call. */
  take(): Promise<void> {
    const turn = this.#queue.then(() => this.#wait());
    this.#queue = turn;
    return turn;
  }

  async #wait(): Promise<void> {
    for (;;) {
      const now = this.#clock.now();
      this.#tokens = Math.min(this.limit, this.#tokens + ((now - this.#updated) * this.limit) / this.windowMs);
      this.#updated = now;
      if (this.#tokens >= 1) {
        this.#tokens -= 1;
        return;
      }
      await this.#clock.sleep(Math.ceil(((1 - this.#tokens) * this.windowMs) / this.limit));
    }
  }
}
