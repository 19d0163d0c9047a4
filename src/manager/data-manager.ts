import { systemClock, type Clock } from "../core/clock.js";
import { DimensionMismatchError, ValidationError } from "../core/errors.js";
import type { AnswerType, CacheRecord, NewRecord, QuestionDep, ReportRow } from "../core/types.js";
import { l2Normalize } from "../core/vector-math.js";
import type { ObjectStore } from "../core/contracts/object-store.js";
import type { ScalarStore } from "../core/contracts/scalar-store.js";
import type { VectorHit, VectorIndex } from "../core/contracts/vector-index.js";
import { evictionPolicy } from "./eviction/policies.js";
import type { EvictionPolicy } from "../core/contracts/eviction.js";

/** One entry to store. */
export interface SaveItem {
  question: string;
  keyHash: string;
  partition: string;
  answer: string;
  answerType?: AnswerType;
  /** A vector (normalised here), or the key string of an exact-match cache (not indexed). */
  embedding?: Float32Array | readonly number[] | string;
  session?: string;
  deps?: QuestionDep[];
}

export interface DataManagerOptions {
  scalar: ScalarStore;
  vector?: VectorIndex;
  object?: ObjectStore;
  /** Live entries kept at most; none by default. */
  maxSize?: number;
  /** Entries evicted at once when over maxSize; default 20% of maxSize, at least 1. */
  cleanSize?: number;
  /** "LRU" (default), "LFU", "FIFO" or a custom policy. */
  eviction?: string | EvictionPolicy;
  /** Seconds an entry lives (hidden after, purged on later saves and on flush). */
  ttl?: number;
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

interface PendingTouch {
  id: number;
  at: number;
  count: number;
}

const REBUILD_PAGE = 2000;
const DEFAULT_SYNC_MS = 250;
/**
 * Each hot entry's bookkeeping update rewrites its row (with its 2 KB embedding). At 4,000 exact hits/s on
 * 1,000 entries, writing every 5 s instead of every second cut the server's CPU per request from ~51 to
 * ~46 us (docs/benchmarks.md, HTTP server).
 */
const DEFAULT_BOOKKEEPING_MS = 5000;
/**
 * Rows written per event-loop turn: a sync driver blocks while it writes, so a long batch goes in short steps.
 * With SQLite a report row costs ~2 us plus ~14 us per commit: 256-row steps stalled the loaded server ~0.9 ms
 * each (event-loop delay p99 3.1 ms), 32-row steps ~0.1 ms (p99 2.2-2.4 ms) for ~3.2 us a row.
 */
const WRITE_STEP = 32;

/**
 * Storage behind a cache: a scalar store (rows), an optional vector index and object store, eviction and
 * expiry. Hits are recorded in memory and written in batches (a per-hit UPDATE doubles the cost of a hit;
 * with the embedding in the row it costs more than the lookup itself).
 */
export class DataManager {
  readonly scalar: ScalarStore;
  readonly vector?: VectorIndex;
  readonly object?: ObjectStore;
  readonly eviction: EvictionPolicy;
  readonly maxSize?: number;
  readonly cleanSize: number;
  readonly ttlMs?: number;
  readonly clock: Clock;
  private readonly touchBatch: number;
  private readonly bookkeepingIntervalMs: number;
  private touches = new Map<number, PendingTouch>();
  private reports: ReportRow[] = [];
  /** Cancels the pending bookkeeping write, when one is scheduled. */
  private cancelBufferTimer?: () => void;
  private bufferImmediate?: NodeJS.Immediate;
  /** The background write under way, if any. */
  private draining?: Promise<void>;
  private lastPurge = 0;
  /** Vectors added since the index was last saved (saving a large index is costly; the scalar store can rebuild it). */
  private unsavedVectors = 0;
  private initialised?: Promise<void>;
  private readonly syncIntervalMs: number;
  /** The in-process index holds every live entry of the scalar store with an id up to this one. */
  private syncedTo = 0;
  /** Ids this process added to the index above `syncedTo`: not added again when the sync reaches them. */
  private ownAhead = new Set<number>();
  private lastSync = 0;
  private syncing?: Promise<void>;

  constructor(options: DataManagerOptions) {
    const { maxSize, cleanSize, ttl } = options;
    if (!options.scalar) throw new ValidationError("DataManager needs a scalar store.");
    if (maxSize !== undefined && !(Number.isInteger(maxSize) && maxSize >= 1)) {
      throw new ValidationError("maxSize must be a positive integer.");
    }
    if (cleanSize !== undefined && !(Number.isInteger(cleanSize) && cleanSize >= 1)) {
      throw new ValidationError("cleanSize must be a positive integer.");
    }
    if (ttl !== undefined && !(typeof ttl === "number" && ttl > 0)) {
      throw new ValidationError("ttl must be a positive number of seconds.");
    }
    this.scalar = options.scalar;
    this.clock = options.clock ?? systemClock;
    this.vector = options.vector;
    this.object = options.object;
    this.eviction = evictionPolicy(options.eviction ?? "LRU");
    this.maxSize = maxSize;
    this.cleanSize = Math.min(cleanSize ?? Math.max(1, Math.floor((maxSize ?? 0) * 0.2)), maxSize ?? Infinity);
    this.ttlMs = ttl === undefined ? undefined : ttl * 1000;
    const touchBatch = options.touchBatch ?? 1024;
    if (!(Number.isInteger(touchBatch) && touchBatch >= 1)) throw new ValidationError("touchBatch must be a positive integer.");
    this.touchBatch = touchBatch;
    const bookkeepingIntervalMs = options.bookkeepingIntervalMs ?? DEFAULT_BOOKKEEPING_MS;
    if (!(Number.isFinite(bookkeepingIntervalMs) && bookkeepingIntervalMs > 0)) {
      throw new ValidationError("bookkeepingIntervalMs must be a positive number of milliseconds.");
    }
    this.bookkeepingIntervalMs = bookkeepingIntervalMs;
    const syncIntervalMs = options.syncIntervalMs ?? DEFAULT_SYNC_MS;
    if (!(Number.isFinite(syncIntervalMs) && syncIntervalMs >= 0)) {
      throw new ValidationError("syncIntervalMs must be a non-negative number of milliseconds.");
    }
    this.syncIntervalMs = syncIntervalMs;
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
    if (this.ttlMs !== undefined) await this.expireOld(this.clock.now());
    await this.catchUpIndex();
  }

  /** Re-adds rows an in-process index missed (not saved before a crash, or not persistent at all). */
  private async catchUpIndex(): Promise<void> {
    const index = this.vector;
    if (!index || index.capabilities.shared || !this.scalar.capabilities.persistent) return;
    this.syncedTo = index.capabilities.persistent && index.lastId ? await index.lastId() : 0;
    await this.pullNewEntries();
  }

  /**
   * True when other processes write to the scalar store while this one keeps its own index: the index must
   * follow their inserts (their deletes are noticed when a search returns an entry whose row is gone).
   */
  private get followsReplicas(): boolean {
    return this.scalar.capabilities.shared && this.vector !== undefined && !this.vector.capabilities.shared;
  }

  /**
   * Adds the scalar store's entries with ids above `syncedTo` to the index. Shared stores assign ids in commit
   * order, so nothing committed later can appear below the point reached.
   */
  private async pullNewEntries(): Promise<void> {
    const index = this.vector;
    if (!index) return;
    for (;;) {
      const rows = await this.scalar.embeddingsAfter(this.syncedTo, REBUILD_PAGE);
      if (rows.length === 0) break;
      const fresh = rows.filter((row) => !this.ownAhead.has(row.id));
      if (fresh.length > 0) {
        await index.add(fresh.map((row) => ({ id: row.id, vector: row.embedding })));
        this.unsavedVectors += fresh.length;
      }
      this.syncedTo = rows[rows.length - 1].id;
    }
    for (const id of this.ownAhead) if (id <= this.syncedTo) this.ownAhead.delete(id);
  }

  /** Pulls other replicas' new entries when `syncIntervalMs` has passed (or `now`); one pull at a time. */
  private syncIndex(now = false): Promise<void> {
    if (!this.followsReplicas || (!now && this.clock.now() - this.lastSync < this.syncIntervalMs)) return Promise.resolve();
    this.syncing ??= this.pullNewEntries().finally(() => {
      this.syncing = undefined;
      this.lastSync = this.clock.now();
    });
    return this.syncing;
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
      createOn: now,
      session: item.session,
    }));
    await this.makeRoom(records.length);
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
        if (this.followsReplicas) for (const { id } of vectors) if (id > this.syncedTo) this.ownAhead.add(id);
      }
    }
    await this.enforceLimits(now).catch(() => undefined);
    return ids;
  }

  /** Normalises a vector and checks its length against the index; strings (exact keys) are not indexed. */
  private prepareVector(embedding: SaveItem["embedding"]): Float32Array | undefined {
    if (embedding === undefined || typeof embedding === "string") return undefined;
    const dimension = this.vector?.dimension ?? 0;
    if (dimension > 0 && embedding.length !== dimension) throw new DimensionMismatchError(dimension, embedding.length);
    return l2Normalize(embedding);
  }

  /**
   * Evicts before inserting, so new entries are never their own victims (under LFU a fresh entry has the
   * fewest hits of all).
   */
  private async makeRoom(incoming: number): Promise<void> {
    if (this.maxSize === undefined || incoming >= this.maxSize) return;
    await this.writeTouches();
    await this.evict(this.maxSize - incoming);
  }

  private async evict(limit: number): Promise<number> {
    const evicted = await this.scalar.evict(this.eviction, limit, Math.min(this.cleanSize, limit));
    if (evicted.length > 0) await this.vector?.delete(evicted);
    return evicted.length;
  }

  private async enforceLimits(now: number): Promise<void> {
    // Still over (a batch larger than the room made, or another replica writing at once): trim to maxSize.
    if (this.maxSize !== undefined) while ((await this.evict(this.maxSize)) > 0);
    // Expired rows are hidden on read at once; purging them is throttled to once per tenth of the ttl.
    if (this.ttlMs !== undefined && now - this.lastPurge >= this.ttlMs / 10) await this.expireOld(now);
  }

  /** Marks entries older than the ttl deleted in the store and drops them from the index. */
  private async expireOld(now: number): Promise<void> {
    if (this.ttlMs === undefined) return;
    this.lastPurge = now;
    const expired = await this.scalar.expire(now - this.ttlMs);
    if (expired.length > 0) await this.vector?.delete(expired);
  }

  private isExpired(record: CacheRecord, now = this.clock.now()): boolean {
    return this.ttlMs !== undefined && record.createOn < now - this.ttlMs;
  }

  /** The newest live entry stored under this exact key, or null. */
  async findExact(keyHash: string): Promise<CacheRecord | null> {
    const record = await this.scalar.findByKey(keyHash);
    return record && !this.isExpired(record) ? record : null;
  }

  /** Nearest entries to a vector (normalised here). Without a vector index: none. */
  async search(embedding: Float32Array | readonly number[], topK: number): Promise<VectorHit[]> {
    if (!this.vector) return [];
    const dimension = this.vector.dimension;
    if (dimension > 0 && embedding.length !== dimension) throw new DimensionMismatchError(dimension, embedding.length);
    await this.syncIndex();
    return this.vector.search(l2Normalize(embedding), topK);
  }

  /** A live, unexpired entry by id, or null (a search hit whose row is gone is dropped, not an error). */
  async getScalarData(id: number): Promise<CacheRecord | null> {
    const record = await this.scalar.get(id);
    if (record && !this.isExpired(record)) return record;
    // An in-process index may still hold an entry another replica evicted: drop it there too.
    if (!record && this.vector && !this.vector.capabilities.shared) await this.vector.delete([id]);
    return null;
  }

  /** Records a hit (merged with other hits on the entry, written in a batch later). */
  hit(id: number, at = this.clock.now()): void {
    const pending = this.touches.get(id);
    if (pending) {
      pending.count++;
      pending.at = Math.max(pending.at, at);
    } else {
      this.touches.set(id, { id, at, count: 1 });
    }
    this.scheduleBufferWrite(this.touches.size >= this.touchBatch);
  }

  /** Queues a report row (written with the hit updates). */
  report(row: ReportRow): void {
    this.reports.push(row);
    this.scheduleBufferWrite(this.reports.length >= this.touchBatch);
  }

  /**
   * Writes buffered hits later, never inside the request that made the hit: within bookkeepingIntervalMs (so
   * repeated hits merge), or right after the current turn of the event loop once touchBatch are waiting.
   */
  private scheduleBufferWrite(full: boolean): void {
    if (full && !this.bufferImmediate && !this.draining) {
      this.bufferImmediate = setImmediate(() => {
        this.bufferImmediate = undefined;
        // Only the full buffer: hits keep merging (one row write for many hits) until their own batch fills
        // or the timer fires, however fast report rows arrive.
        const full = (size: number) => (size >= this.touchBatch ? size : 0);
        this.drainInBackground(full(this.touches.size), full(this.reports.length));
      });
    }
    if (this.cancelBufferTimer) return;
    this.cancelBufferTimer = this.clock.schedule(() => {
      this.cancelBufferTimer = undefined;
      this.drainInBackground();
    }, this.bookkeepingIntervalMs);
  }

  /**
   * Resolves once the bookkeeping write under way, or started at the end of this turn (a full batch), has
   * finished: for tests, which then read the store. A write waiting for its timer is not started by this.
   */
  async settled(): Promise<void> {
    while (this.bufferImmediate || this.draining) {
      if (this.bufferImmediate) await new Promise((resolve) => setImmediate(resolve));
      await this.draining;
    }
  }

  /** One background write at a time; a failed write drops that step's bookkeeping, as a crash would. */
  private drainInBackground(touches = this.touches.size, reports = this.reports.length): void {
    this.draining ??= this.drain(touches, reports)
      .catch(() => undefined)
      .finally(() => {
        this.draining = undefined;
      });
  }

  /**
   * Writes the first `touches` buffered entries and `reports` report rows, WRITE_STEP rows a statement and a
   * turn of the event loop apiece, so requests keep being answered in between. Hits arriving meanwhile wait
   * for the next round (an entry hit again is queued anew; its counts add up in the store).
   */
  private async drain(touches: number, reports: number): Promise<void> {
    while (touches > 0 || reports > 0) {
      const hits = this.takeTouches(Math.min(touches, WRITE_STEP));
      const rows = this.reports.splice(0, Math.min(reports, WRITE_STEP));
      touches -= hits.length;
      reports -= rows.length;
      if (hits.length > 0) await this.scalar.touch(hits);
      if (rows.length > 0) await this.scalar.addReports(rows);
      if (touches > 0 || reports > 0) await new Promise((resolve) => setImmediate(resolve));
    }
  }

  /** Removes and returns up to `limit` buffered touches, oldest first. */
  private takeTouches(limit: number): PendingTouch[] {
    const taken: PendingTouch[] = [];
    for (const touch of this.touches.values()) {
      if (taken.length >= limit) break;
      taken.push(touch);
    }
    for (const { id } of taken) this.touches.delete(id);
    return taken;
  }

  /** Writes every buffered touch now (eviction decides from the store's columns). */
  private async writeTouches(): Promise<void> {
    await this.draining;
    const touches = this.takeTouches(this.touches.size);
    if (touches.length > 0) await this.scalar.touch(touches);
  }

  private cancelBufferWrites(): void {
    this.cancelBufferTimer?.();
    clearImmediate(this.bufferImmediate);
    this.cancelBufferTimer = undefined;
    this.bufferImmediate = undefined;
  }

  /** Writes everything buffered now (flush, close). */
  private async writeBuffers(): Promise<void> {
    this.cancelBufferWrites();
    await this.writeTouches();
    if (this.reports.length > 0) {
      const reports = this.reports;
      this.reports = [];
      await this.scalar.addReports(reports);
    }
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

  /**
   * Removes every entry, and every trace of them: buffered hits and report rows are dropped, the rows are
   * purged with their report rows, and the stores are flushed (a file store drops the old copies it still
   * holds, see ScalarStore.flush).
   */
  async clear(): Promise<void> {
    this.cancelBufferWrites();
    await this.draining;
    this.touches.clear();
    this.reports = [];
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
    await this.writeBuffers();
    await this.expireOld(this.clock.now());
    await this.purgeDeleted();
    await this.scalar.flush();
    // A saved index must hold every entry up to its highest id, which is where it catches up from on start.
    await this.syncIndex(true);
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
