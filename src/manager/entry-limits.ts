import type { CacheRecord } from "../core/types.js";
import type { ScalarStore } from "../core/contracts/scalar-store.js";
import type { VectorIndex } from "../core/contracts/vector-index.js";
import type { EvictionPolicy } from "../core/contracts/eviction.js";

/** A DataManager's limits on its entries: how many it keeps, and for how long. */
export interface LimitSettings {
  eviction: EvictionPolicy;
  maxSize?: number;
  cleanSize: number;
  ttlMs?: number;
}

/**
 * Applies a DataManager's size and age limits to its stores: eviction (before an insert, and after it to trim to
 * maxSize) and expiry (entries past the ttl are hidden on read at once, and purged from the stores in batches).
 * Victims leave the scalar store and the vector index together.
 */
export class EntryLimits {
  private lastPurge = 0;

  constructor(
    private readonly scalar: ScalarStore,
    private readonly vector: VectorIndex | undefined,
    private readonly settings: LimitSettings,
    /** Runs before an eviction picks its victims (buffered hits written, so LRU and LFU see them). */
    private readonly beforeEvict: () => Promise<void>,
  ) {}

  /**
   * Evicts before inserting, so new entries are never their own victims (under LFU a fresh entry has the
   * fewest hits of all).
   */
  async makeRoom(incoming: number): Promise<void> {
    const { maxSize } = this.settings;
    if (maxSize === undefined || incoming >= maxSize) return;
    await this.beforeEvict();
    await this.evict(maxSize - incoming);
  }

  private async evict(limit: number): Promise<number> {
    const evicted = await this.scalar.evict(this.settings.eviction, limit, Math.min(this.settings.cleanSize, limit));
    if (evicted.length > 0) await this.vector?.delete(evicted);
    return evicted.length;
  }

  /** After an insert: trims to maxSize, and purges expired entries when due. */
  async enforce(now: number): Promise<void> {
    const { maxSize, ttlMs } = this.settings;
    // Still over (a batch larger than the room made, or another replica writing at once): trim to maxSize.
    if (maxSize !== undefined) while ((await this.evict(maxSize)) > 0);
    // Expired rows are hidden on read at once; purging them is throttled to once per tenth of the ttl.
    if (ttlMs !== undefined && now - this.lastPurge >= ttlMs / 10) await this.expireOld(now);
  }

  /** Marks entries older than the ttl deleted in the store and drops them from the index. */
  async expireOld(now: number): Promise<void> {
    const { ttlMs } = this.settings;
    if (ttlMs === undefined) return;
    this.lastPurge = now;
    const expired = await this.scalar.expire(now - ttlMs);
    if (expired.length > 0) await this.vector?.delete(expired);
  }

  isExpired(record: CacheRecord, now: number): boolean {
    const { ttlMs } = this.settings;
    return ttlMs !== undefined && record.createdAtMs < now - ttlMs;
  }
}
