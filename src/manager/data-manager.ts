import { systemClock, type Clock } from "../core/clock.js";
import { DimensionMismatchError } from "../core/errors.js";
import type { CacheRecord, NewRecord, ReportRow } from "../core/types.js";
import { l2Normalize } from "../core/vector-math.js";
import type { ObjectStore } from "../core/contracts/object-store.js";
import type { RecordStore, ScalarStore, ScalarStoreCapabilities, TableLenConfig } from "../core/contracts/scalar-store.js";
import type { VectorHit, VectorIndex } from "../core/contracts/vector-index.js";
import { evictionPolicy } from "../core/eviction-policies.js";
import type { EvictionPolicy } from "../core/contracts/eviction.js";
import type { DataManagerLike, SaveItem } from "../core/contracts/data-manager.js";
import { checkOptions, type DataManagerOptions } from "./data-manager-options.js";
import { EntryLimits } from "./entry-limits.js";
import { HitBookkeeper, type BookkeepingTarget } from "./hit-bookkeeper.js";
import { ReplicaSync } from "./replica-sync.js";
import { checkEvictionSupport, completeStore } from "./store-fallbacks.js";

export type { DataManagerOptions } from "./data-manager-options.js";
export type { SaveItem } from "../core/contracts/data-manager.js";

/**
 * Storage behind a cache: coordinates a scalar store (rows), an optional vector index and object store. Eviction
 * and expiry go through EntryLimits; hits through a HitBookkeeper (buffered, written in batches); an in-process
 * index follows the scalar store through a ReplicaSync.
 */
export class DataManager implements DataManagerLike {
  /** The scalar store, completed to a full ScalarStore where the given one lacks capabilities (store-fallbacks.ts). */
  readonly scalar: ScalarStore;
  readonly vector?: VectorIndex;
  readonly object?: ObjectStore;
  readonly eviction: EvictionPolicy;
  readonly maxSize?: number;
  readonly cleanSize: number;
  readonly ttlMs?: number;
  readonly clock: Clock;
  /** The scalar store as given (`scalar` may wrap it). */
  private readonly given: RecordStore;
  private readonly bookkeeper: HitBookkeeper;
  private readonly replicas: ReplicaSync;
  private readonly limits: EntryLimits;
  /** Vectors added since the index was last saved (saving a large index is costly; the scalar store can rebuild it). */
  private unsavedVectors = 0;
  private initialised?: Promise<void>;

  constructor(options: DataManagerOptions) {
    const { maxSize, cleanSize, ttlMs, touchBatch, bookkeepingIntervalMs, syncIntervalMs } = checkOptions(options);
    this.given = options.scalar;
    this.scalar = completeStore(options.scalar);
    this.clock = options.clock ?? systemClock;
    this.vector = options.vector;
    this.object = options.object;
    this.eviction = evictionPolicy(options.eviction ?? "LRU");
    if (maxSize !== undefined) checkEvictionSupport(options.scalar, this.eviction);
    this.maxSize = maxSize;
    this.cleanSize = cleanSize;
    this.ttlMs = ttlMs;
    // The store as given: a store without touch() or addReports() has nothing buffered for it.
    const target = options.scalar as RecordStore & BookkeepingTarget;
    this.bookkeeper = new HitBookkeeper(target, { touchBatch, intervalMs: bookkeepingIntervalMs, clock: this.clock });
    const limits = { eviction: this.eviction, maxSize, cleanSize, ttlMs };
    this.limits = new EntryLimits(this.scalar, this.vector, limits, () => this.bookkeeper.writeTouches());
    this.replicas = new ReplicaSync(this.scalar, this.vector, this.clock, syncIntervalMs, (added) => {
      this.unsavedVectors += added;
    });
  }

  /** Opens the stores and brings an in-process index up to date with the scalar store. Idempotent. */
  init(): Promise<void> {
    // A failed open (a store down at start) is not remembered: calling init() again retries.
    this.initialised ??= this.open().catch((error: unknown) => {
      this.initialised = undefined;
      throw error;
    });
    return this.initialised;
  }

  private async open(): Promise<void> {
    await this.scalar.init();
    try {
      await this.vector?.init();
      await this.object?.init();
    } catch (error) {
      // The scalar store is closed again (a refused index must not leave the SQLite file open behind it); a
      // retried init() reopens it.
      await this.scalar.close().catch(() => undefined);
      throw error;
    }
    if (this.ttlMs !== undefined) await this.limits.expireOld(this.clock.now());
    await this.replicas.catchUp();
  }

  /**
   * Stores entries (one scalar transaction, then the index); evicts and purges as configured. Returns ids.
   * Resolves exactly when the entries are stored, so a caller that retries a failed save never stores one twice:
   * an index that refuses them has them hidden again before the error is thrown, and an eviction or expiry
   * failing after the commit does not fail the save (it runs again before the next save's insert). One exception:
   * a store whose write outlives its deadline (the SQLite writer thread, a server database's timeoutMs) reports
   * a failure for a transaction that may still commit afterwards.
   */
  async save(items: readonly SaveItem[]): Promise<number[]> {
    if (items.length === 0) return [];
    const now = this.clock.now();
    const records: NewRecord[] = items.map((item) => ({
      question: item.question,
      answer: item.answer,
      answerType: item.answerType ?? "str",
      keyHash: item.keyHash,
      partition: item.partition,
      deps: item.deps,
      embedding: this.prepareVector(item.embedding),
      createdAtMs: now,
      session: item.session,
    }));
    await this.limits.makeRoom(records.length);
    const ids = await this.scalar.insert(records);
    if (this.vector) {
      const vectors = [];
      for (let i = 0; i < ids.length; i++) {
        const vector = records[i].embedding;
        if (vector) vectors.push({ id: ids[i], vector });
      }
      if (vectors.length > 0) {
        await this.vector.add(vectors).catch(async (error: unknown) => {
          await this.scalar.markDeleted(ids).catch(() => undefined);
          throw error;
        });
        this.unsavedVectors += vectors.length;
        this.replicas.addedOwn(vectors.map(({ id }) => id));
      }
    }
    await this.limits.enforce(now).catch(() => undefined);
    return ids;
  }

  /** Normalises a vector and checks its length against the index; strings (exact keys) are not indexed. */
  private prepareVector(embedding: SaveItem["embedding"]): Float32Array | undefined {
    if (embedding === undefined || typeof embedding === "string") return undefined;
    const dimension = this.vector?.dimension ?? 0;
    if (dimension > 0 && embedding.length !== dimension) throw new DimensionMismatchError(dimension, embedding.length);
    return l2Normalize(embedding);
  }

  /** The newest live entry stored under this exact key, or null. */
  async findExact(keyHash: string): Promise<CacheRecord | null> {
    const record = await this.scalar.findByKey(keyHash);
    return record && !this.limits.isExpired(record, this.clock.now()) ? record : null;
  }

  /** Nearest entries to a vector (normalised here). Without a vector index: none. */
  async search(embedding: Float32Array | readonly number[], topK: number): Promise<VectorHit[]> {
    if (!this.vector) return [];
    const dimension = this.vector.dimension;
    if (dimension > 0 && embedding.length !== dimension) throw new DimensionMismatchError(dimension, embedding.length);
    await this.replicas.sync();
    return this.vector.search(l2Normalize(embedding), topK);
  }

  /** A live, unexpired entry by id, or null (a search hit whose row is gone is dropped, not an error). */
  async getScalarData(id: number): Promise<CacheRecord | null> {
    const record = await this.scalar.get(id);
    if (record && !this.limits.isExpired(record, this.clock.now())) return record;
    // An in-process index may still hold an entry another replica evicted: drop it there too.
    if (!record && this.vector && !this.vector.capabilities.shared) await this.vector.delete([id]);
    return null;
  }

  /** Records a hit (merged with other hits on the entry, written in a batch later). */
  hit(id: number, atMs = this.clock.now()): void {
    this.bookkeeper.hit(id, atMs);
  }

  /** Queues a report row (written with the hit updates). */
  report(row: ReportRow): void {
    this.bookkeeper.report(row);
  }

  /** Resolves once the bookkeeping write under way (or due at the end of this turn) has finished: for tests. */
  settled(): Promise<void> {
    return this.bookkeeper.settled();
  }

  addSession(id: number, session: string): Promise<void> {
    return this.scalar.addSession(id, session);
  }

  sessionsOf(id: number): Promise<string[]> {
    return this.scalar.sessionsOf(id);
  }

  listSessions(session?: string): Promise<Array<{ id: number; session: string }>> {
    return this.scalar.listSessions(session);
  }

  deleteSession(session: string): Promise<number> {
    return this.scalar.deleteSession(session);
  }

  /** Number of live entries. */
  count(): Promise<number> {
    return this.scalar.count();
  }

  /** Report rows the store keeps (written hits; 0 for a store without the reports capability). */
  countReports(): Promise<number> {
    return this.scalar.countReports();
  }

  /** Every live entry, ascending by id (export, warm-up); expired ones included until they are purged. */
  entries(batchSize?: number): AsyncIterable<CacheRecord> {
    return this.scalar.iterate(batchSize);
  }

  /** The scalar store's kind, capabilities and file (a file store's `path`), for the server's files beside it. */
  storeInfo(): { kind: string; capabilities: ScalarStoreCapabilities; path?: string } {
    const path = (this.given as { path?: unknown }).path;
    return { kind: this.scalar.kind, capabilities: this.scalar.capabilities, ...(typeof path === "string" ? { path } : {}) };
  }

  /** The column lengths the scalar store enforces (unlimited for a store that declares none). */
  get tableLen(): Readonly<TableLenConfig> {
    return this.scalar.tableLen;
  }

  /**
   * Removes every entry, and every trace of them: buffered hits and report rows are dropped, the rows are
   * purged with their report rows, and the stores are flushed (a file store drops the old copies it still
   * holds, see ScalarStore.flush).
   */
  async clear(): Promise<void> {
    await this.bookkeeper.discard();
    await this.scalar.clear();
    await this.vector?.clear();
    await this.purgeDeleted();
    await this.scalar.flush();
    if (this.vector) {
      await this.vector.flush();
      this.unsavedVectors = 0;
    }
  }

  /**
   * Writes buffered hits and reports, purges deleted rows, and saves file-backed stores. With `partial`
   * (auto flush), a file-backed index is saved only once it lags by 1,000 vectors or 10%: rows are durable in
   * the scalar store already and the index catches up from them on start.
   */
  async flush(options: { partial?: boolean } = {}): Promise<void> {
    await this.bookkeeper.writeAll();
    await this.limits.expireOld(this.clock.now());
    await this.purgeDeleted();
    await this.scalar.flush();
    // A saved index must hold every entry up to its highest id, which is where it catches up from on start.
    await this.replicas.sync(true);
    if (this.vector && this.unsavedVectors > 0) {
      const lagging = this.unsavedVectors >= Math.max(1000, (await this.vector.count()) / 10);
      if (!options.partial || lagging) {
        await this.vector.flush();
        this.unsavedVectors = 0;
      }
    }
  }

  /**
   * Removes deleted rows for good, and first the object-store files their deps name (a generated image): a
   * failing object store leaves the rows to the next purge, so no file is forgotten while its entry is listed.
   */
  private async purgeDeleted(): Promise<void> {
    if (this.object) {
      const keys = await this.scalar.deletedObjectKeys();
      if (keys.length > 0) await this.object.delete(keys);
    }
    await this.scalar.purgeDeleted();
  }

  async close(): Promise<void> {
    if (!this.initialised) return;
    try {
      await this.flush();
    } finally {
      await Promise.allSettled([this.scalar.close(), this.vector?.close(), this.object?.close()]);
      this.initialised = undefined;
    }
  }
}
