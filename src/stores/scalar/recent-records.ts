import type { CacheRecord } from "../../core/types.js";

/**
 * Records one SQLite connection found by key hash, kept so a repeated exact lookup skips reading the row.
 * They stay valid only while no other connection has committed to the file: every lookup first reads SQLite's
 * `PRAGMA data_version` (one cheap statement, about a quarter of reading the row), and any change made
 * elsewhere empties the set. This connection's own writes are applied as they happen (`forgetKeys`,
 * `forgetIds`, `touched`, `clear`), so a lookup never answers with anything the file no longer holds.
 * Least recently used records go first once `capacity` are kept.
 */
export class RecentRecords {
  private readonly byKey = new Map<string, CacheRecord>();
  private readonly keyOfId = new Map<number, string>();
  private version?: number;

  constructor(private readonly capacity: number) {}

  /**
   * The record for `keyHash`: a copy of the kept one (callers may change theirs) while the file's data version
   * has not moved, else `read()`'s, then kept. With a capacity of 0 just `read()`, with no version check.
   */
  find(keyHash: string, dataVersion: () => number, read: () => CacheRecord | null): CacheRecord | null {
    if (this.capacity === 0) return read();
    const version = dataVersion();
    if (version !== this.version) this.clear();
    this.version = version;
    const kept = this.byKey.get(keyHash);
    if (kept) {
      this.byKey.delete(keyHash);
      this.byKey.set(keyHash, kept);
      return { ...kept };
    }
    const record = read();
    if (record) this.remember(record);
    return record;
  }

  private remember(record: CacheRecord): void {
    this.forgetKeys([record.keyHash]);
    this.byKey.set(record.keyHash, { ...record });
    this.keyOfId.set(record.id, record.keyHash);
    if (this.byKey.size > this.capacity) {
      const [oldest] = this.byKey.keys();
      this.forgetKeys([oldest]);
    }
  }

  /** A key written anew (an insert makes the newest row the answer). */
  forgetKeys(keyHashes: Iterable<string>): void {
    for (const keyHash of keyHashes) {
      const record = this.byKey.get(keyHash);
      if (!record) continue;
      this.byKey.delete(keyHash);
      this.keyOfId.delete(record.id);
    }
  }

  /** Rows deleted, evicted or expired by this connection. */
  forgetIds(ids: Iterable<number>): void {
    for (const id of ids) {
      const keyHash = this.keyOfId.get(id);
      if (keyHash !== undefined) this.forgetKeys([keyHash]);
    }
  }

  /** Keeps the bookkeeping columns as the store now holds them. */
  touched(hits: ReadonlyArray<{ id: number; at: number; count: number }>): void {
    for (const { id, at, count } of hits) {
      const keyHash = this.keyOfId.get(id);
      const record = keyHash === undefined ? undefined : this.byKey.get(keyHash);
      if (!record) continue;
      record.lastAccess = Math.max(record.lastAccess, at);
      record.hitCount += count;
    }
  }

  clear(): void {
    this.byKey.clear();
    this.keyOfId.clear();
  }
}
