import type { CacheRecord } from "../../core/types.js";

/** Writes to records by the SQLite stores of this process: another store's write is seen at once, in any turn. */
let writesInProcess = 0;

/**
 * Records one SQLite connection found by key hash, kept so a repeated exact lookup skips reading the row.
 * They stay valid only while no other connection has committed to the file: SQLite's `PRAGMA data_version`
 * is read by the first lookup of each event-loop turn and the first after a write by a store of this process,
 * and a change (any commit, the store's own writer thread's included) empties the set. Once a turn is enough for other processes: a request
 * whose sender saw another process's write finish reaches this process's socket after that write, so it is
 * read in a later turn than any lookup that could have missed it. (Checked on every lookup, the statement took
 * 13% of a loaded server's time: it takes SQLite's shared-memory read lock.) The store's own writes are also
 * applied before they are posted and again once they commit (`forgetKeys`, `forgetIds`, `touched`, `clear`), so
 * a lookup never answers with anything the file no longer holds. Least recently used records go first once `capacity` are kept.
 */
export class RecentRecords {
  private readonly byKey = new Map<string, CacheRecord>();
  private readonly keyOfId = new Map<number, string>();
  private version?: number;
  /** Set by this turn's version check; a setImmediate clears it when the turn ends. */
  private versionCheckedThisTurn = false;
  private writesSeen = -1;
  private readonly endTurn = () => {
    this.versionCheckedThisTurn = false;
  };

  constructor(private readonly capacity: number) {}

  /**
   * The record for `keyHash`: a copy of the kept one (callers may change theirs) while the file's data version
   * has not moved, else `read()`'s, then kept. With a capacity of 0 just `read()`, with no version check.
   */
  find(keyHash: string, dataVersion: () => number, read: () => CacheRecord | null): CacheRecord | null {
    if (this.capacity === 0) return read();
    if (!this.versionCheckedThisTurn || this.writesSeen !== writesInProcess) this.checkVersion(dataVersion());
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

  /**
   * Counts a write by this set's store: every set of this process, this one included, re-checks the file's
   * version before its next lookup (the store writes through its writer thread's connection, whose commits move
   * the reading connection's data_version like any other's).
   */
  ownWrite(): void {
    writesInProcess++;
  }

  private checkVersion(version: number): void {
    if (version !== this.version) this.clear();
    this.version = version;
    this.writesSeen = writesInProcess;
    if (this.versionCheckedThisTurn) return;
    this.versionCheckedThisTurn = true;
    setImmediate(this.endTurn).unref();
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
  touched(hits: ReadonlyArray<{ id: number; atMs: number; count: number }>): void {
    for (const { id, atMs, count } of hits) {
      const keyHash = this.keyOfId.get(id);
      const record = keyHash === undefined ? undefined : this.byKey.get(keyHash);
      if (!record) continue;
      record.lastAccessedAtMs = Math.max(record.lastAccessedAtMs, atMs);
      record.hitCount += count;
    }
  }

  clear(): void {
    this.byKey.clear();
    this.keyOfId.clear();
  }
}
