import { ValidationError } from "../core/errors.js";
import type { CacheRecord, NewRecord, ReportRow } from "../core/types.js";
import type { EvictionPolicy } from "../core/contracts/eviction.js";
import {
  hasStoreCapability,
  STORE_CAPABILITY_METHODS,
  storeCapabilities,
  type RecordStore,
  type ScalarStore,
  type ScalarStoreCapabilities,
  type StoreCapability,
  type TableLenConfig,
} from "../core/contracts/scalar-store.js";
import { checkEvictSizes, effectiveOrder, evictionComparator } from "../core/eviction-policies.js";

/** The column lengths of a store that declares none: no limits. */
const UNLIMITED: Readonly<TableLenConfig> = Object.freeze({
  question: Number.MAX_SAFE_INTEGER,
  answer: Number.MAX_SAFE_INTEGER,
  sessionId: Number.MAX_SAFE_INTEGER,
  depName: Number.MAX_SAFE_INTEGER,
  depData: Number.MAX_SAFE_INTEGER,
});

/** The error for something a store cannot do, naming the store, the capability and its methods. */
export function missingCapability(store: RecordStore, capability: StoreCapability, needed: string): ValidationError {
  const methods = STORE_CAPABILITY_METHODS[capability].map((method) => `${String(method)}()`).join(", ");
  return new ValidationError(
    `The "${store.kind}" scalar store has no ${capability} capability (${methods}), which ${needed} needs: use a store that has it.`,
  );
}

/**
 * A full ScalarStore for a RecordStore: the store itself when it has every capability, else the store with the
 * missing capabilities done on top of the required contract (see each method). Scans read `iterate()`, so they
 * suit the small stores that lack the capability; a shared store should have eviction natively (the data manager
 * refuses maxSize otherwise).
 */
export function completeStore(store: RecordStore): ScalarStore {
  if (store.tableLen !== undefined && storeCapabilities(store).length === Object.keys(STORE_CAPABILITY_METHODS).length) {
    return store as ScalarStore;
  }
  return new CompletedStore(store);
}

async function collect(records: AsyncIterable<CacheRecord>, keep: (record: CacheRecord) => boolean = () => true): Promise<CacheRecord[]> {
  const out: CacheRecord[] = [];
  for await (const record of records) if (keep(record)) out.push(record);
  return out;
}

class CompletedStore implements ScalarStore {
  readonly kind: string;
  readonly capabilities: ScalarStoreCapabilities;
  readonly tableLen: Readonly<TableLenConfig>;
  /** Object keys of records deleted through this wrapper, for a store without the purge capability. */
  private deletedObjects: string[] = [];

  constructor(private readonly store: RecordStore) {
    this.kind = store.kind;
    this.capabilities = store.capabilities;
    this.tableLen = store.tableLen ?? UNLIMITED;
  }

  init(): Promise<void> {
    return this.store.init();
  }

  insert(records: readonly NewRecord[]): Promise<number[]> {
    if (!hasStoreCapability(this.store, "sessions") && records.some((record) => record.session !== undefined)) {
      return Promise.reject(missingCapability(this.store, "sessions", "an entry saved with a session"));
    }
    return this.store.insert(records);
  }

  get(id: number): Promise<CacheRecord | null> {
    return this.store.get(id);
  }

  findByKey(keyHash: string): Promise<CacheRecord | null> {
    return this.store.findByKey(keyHash);
  }

  count(): Promise<number> {
    return this.store.count();
  }

  iterate(batchSize?: number): AsyncIterable<CacheRecord> {
    return this.store.iterate(batchSize);
  }

  /** Without the purge capability, first notes the records' object keys (the store forgets them at once). */
  async markDeleted(ids: readonly number[]): Promise<void> {
    if (!hasStoreCapability(this.store, "purge")) {
      for (const id of ids) {
        const record = await this.store.get(id);
        for (const dep of record?.deps ?? []) if (dep.type === "object") this.deletedObjects.push(dep.data);
      }
    }
    await this.store.markDeleted(ids);
  }

  async purgeDeleted(): Promise<number> {
    if (hasStoreCapability(this.store, "purge")) return this.store.purgeDeleted();
    this.deletedObjects = [];
    return 0;
  }

  async deletedObjectKeys(): Promise<string[]> {
    return hasStoreCapability(this.store, "purge") ? this.store.deletedObjectKeys() : [...this.deletedObjects];
  }

  /** Hits are not recorded by a store without the capability (the data manager refuses LRU and LFU on it). */
  async touch(hits: ReadonlyArray<{ id: number; atMs: number; count: number }>): Promise<void> {
    if (hasStoreCapability(this.store, "hitCounts")) await this.store.touch(hits);
  }

  /** Without the capability: the live records in the policy's order, from a scan (not atomic across processes). */
  async evict(policy: EvictionPolicy, maxSize: number, cleanSize: number): Promise<number[]> {
    if (hasStoreCapability(this.store, "eviction")) return this.store.evict(policy, maxSize, cleanSize);
    checkEvictSizes(maxSize, cleanSize);
    if ((await this.store.count()) <= maxSize) return [];
    const victims = (await collect(this.store.iterate())).sort(evictionComparator(policy)).slice(0, cleanSize);
    const ids = victims.map((record) => record.id);
    await this.markDeleted(ids);
    return ids;
  }

  async expire(createdBefore: number): Promise<number[]> {
    if (hasStoreCapability(this.store, "eviction")) return this.store.expire(createdBefore);
    const ids = (await collect(this.store.iterate(), (record) => record.createdAtMs < createdBefore)).map((record) => record.id);
    if (ids.length > 0) await this.markDeleted(ids);
    return ids;
  }

  async clear(): Promise<void> {
    if (hasStoreCapability(this.store, "clear")) return this.store.clear();
    const ids = (await collect(this.store.iterate())).map((record) => record.id);
    if (ids.length > 0) await this.markDeleted(ids);
  }

  async embeddingsAfter(afterId: number, limit: number): Promise<Array<{ id: number; embedding: Float32Array }>> {
    if (hasStoreCapability(this.store, "embeddingPaging")) return this.store.embeddingsAfter(afterId, limit);
    const out: Array<{ id: number; embedding: Float32Array }> = [];
    for await (const { id, embedding } of this.store.iterate()) {
      if (out.length >= limit) break;
      if (id > afterId && embedding) out.push({ id, embedding });
    }
    return out;
  }

  private sessions(needed: string) {
    if (hasStoreCapability(this.store, "sessions")) return this.store;
    throw missingCapability(this.store, "sessions", needed);
  }

  async addSession(id: number, session: string): Promise<void> {
    return this.sessions("a session").addSession(id, session);
  }

  async sessionsOf(id: number): Promise<string[]> {
    return this.sessions("a session").sessionsOf(id);
  }

  async listSessions(session?: string): Promise<Array<{ id: number; session: string }>> {
    return this.sessions("listing sessions").listSessions(session);
  }

  async deleteSession(session: string): Promise<number> {
    return this.sessions("deleting a session").deleteSession(session);
  }

  /** Without the capability report rows are not kept (the hit bookkeeper does not even buffer them). */
  async addReports(rows: readonly ReportRow[]): Promise<void> {
    if (hasStoreCapability(this.store, "reports")) await this.store.addReports(rows);
  }

  async countReports(): Promise<number> {
    return hasStoreCapability(this.store, "reports") ? this.store.countReports() : 0;
  }

  async flush(): Promise<void> {
    if (hasStoreCapability(this.store, "flush")) await this.store.flush();
  }

  close(): Promise<void> {
    return this.store.close();
  }
}

/**
 * Refuses an eviction the store cannot serve: a policy ordering by hits or last access on a store that records
 * none (it would quietly become FIFO), or a scan eviction on a shared store (two replicas could both evict).
 */
export function checkEvictionSupport(store: RecordStore, policy: EvictionPolicy): void {
  if (hasStoreCapability(store, "eviction")) return;
  if (store.capabilities.shared) throw missingCapability(store, "eviction", "maxSize on a shared store (replicas must agree on what to evict)");
  const columns = effectiveOrder(policy).map((step) => step.column);
  if (!hasStoreCapability(store, "hitCounts") && columns.some((column) => column === "lastAccessedAtMs" || column === "hitCount")) {
    throw missingCapability(store, "hitCounts", `${policy.name} eviction (it orders by last access or hits; FIFO does not)`);
  }
}
