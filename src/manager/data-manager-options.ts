import type { Clock } from "../core/clock.js";
import { ValidationError } from "../core/errors.js";
import { isNonNegativeNumber, isPositiveInteger, isPositiveNumber } from "../core/validation.js";
import type { EvictionPolicy } from "../core/contracts/eviction.js";
import type { ObjectStore } from "../core/contracts/object-store.js";
import type { RecordStore } from "../core/contracts/scalar-store.js";
import type { VectorIndex } from "../core/contracts/vector-index.js";
import { checkSpecificationVersion } from "../core/contracts/specification.js";

export interface DataManagerOptions {
  /** The scalar store: a full ScalarStore, or any RecordStore (its missing capabilities are done on top). */
  scalar: RecordStore;
  vector?: VectorIndex;
  object?: ObjectStore;
  /** Live entries kept at most; none by default. */
  maxSize?: number;
  /** Entries evicted at once when over maxSize; default 20% of maxSize, at least 1. */
  cleanSize?: number;
  /** "LRU" (default), "LFU", "FIFO" or a custom policy. */
  eviction?: string | EvictionPolicy;
  /** Seconds an entry lives (hidden after, purged on later saves and on flush). */
  ttlSeconds?: number;
  /**
   * Hit bookkeeping is buffered and written every `bookkeepingIntervalMs`: repeated hits on an entry merge
   * into one update (latest access, summed count). This many distinct entries (or report rows) waiting start
   * the write sooner. Default 1024.
   */
  touchBatch?: number;
  /**
   * Milliseconds between writes of the buffered hit counts, last-access times and report rows (flush and
   * close write them at once; clear drops them with the entries they name). Longer merges more hits on a hot entry into one row update; a crash loses
   * at most this long of bookkeeping (never an entry). Default 5000.
   */
  bookkeepingIntervalMs?: number;
  /**
   * With a shared scalar store (several processes) and an in-process vector index: milliseconds between pulls
   * of other processes' new entries into the index, done before a search (0: before every search). Default 250.
   */
  syncIntervalMs?: number;
  /** Where time comes from (entries' ages, expiry, the bookkeeping timer). Default: the system clock. */
  clock?: Clock;
}
const DEFAULT_SYNC_MS = 250;
/**
 * Each hot entry's bookkeeping update rewrites its row (with its 2 KB embedding). At 4,000 exact hits/s on
 * 1,000 entries, writing every 5 s instead of every second cut the server's CPU per request from ~51 to
 * ~46 us (docs/benchmarks.md, HTTP server).
 */
const DEFAULT_BOOKKEEPING_MS = 5000;

/** The options checked (the components' contract versions too), with their defaults applied. */
export function checkOptions(options: DataManagerOptions): {
  maxSize?: number;
  cleanSize: number;
  ttlMs?: number;
  touchBatch: number;
  bookkeepingIntervalMs: number;
  syncIntervalMs: number;
} {
  const { maxSize, cleanSize, ttlSeconds } = options;
  if (!options.scalar) throw new ValidationError("DataManager needs a scalar store.");
  checkSpecificationVersion(options.scalar, "scalar store");
  if (options.vector) checkSpecificationVersion(options.vector, "vector index");
  if (options.object) checkSpecificationVersion(options.object, "object store");
  if (maxSize !== undefined && !isPositiveInteger(maxSize)) {
    throw new ValidationError("maxSize must be a positive integer.");
  }
  if (cleanSize !== undefined && !isPositiveInteger(cleanSize)) {
    throw new ValidationError("cleanSize must be a positive integer.");
  }
  if (ttlSeconds !== undefined && !(typeof ttlSeconds === "number" && ttlSeconds > 0)) {
    throw new ValidationError("ttlSeconds must be a positive number of seconds.");
  }
  const touchBatch = options.touchBatch ?? 1024;
  if (!isPositiveInteger(touchBatch)) throw new ValidationError("touchBatch must be a positive integer.");
  const bookkeepingIntervalMs = options.bookkeepingIntervalMs ?? DEFAULT_BOOKKEEPING_MS;
  if (!isPositiveNumber(bookkeepingIntervalMs)) {
    throw new ValidationError("bookkeepingIntervalMs must be a positive number of milliseconds.");
  }
  const syncIntervalMs = options.syncIntervalMs ?? DEFAULT_SYNC_MS;
  if (!isNonNegativeNumber(syncIntervalMs)) {
    throw new ValidationError("syncIntervalMs must be a non-negative number of milliseconds.");
  }
  return {
    maxSize,
    cleanSize: Math.min(cleanSize ?? Math.max(1, Math.floor((maxSize ?? 0) * 0.2)), maxSize ?? Infinity),
    ttlMs: ttlSeconds === undefined ? undefined : ttlSeconds * 1000,
    touchBatch,
    bookkeepingIntervalMs,
    syncIntervalMs,
  };
}
