import type { CacheRecord, NewRecord } from "../../core/types.js";
import type { RecordStore, ScalarStoreCapabilities } from "../../core/contracts/scalar-store.js";
import { storedRecord } from "./stored-record.js";

/**
 * A scalar store with only the required record contract (RecordStore), in Maps: the smallest backend the data
 * manager accepts, and the example to start a new one from. Everything else is done on top by the data manager
 * (docs/storage.md#writing-a-store): eviction and expiry by scanning iterate() (FIFO only: no hit counts are
 * kept, so LRU and LFU are refused), clear by deleting what iterate() yields, no column lengths, no report rows.
 * A request with a session is refused (no sessions capability). Nothing outlives the process.
 *
 * @example
 * const cache = new Cache();
 * await cache.init({ dataManager: new DataManager({ scalar: new MemoryRecordStore(), maxSize: 1000, eviction: "FIFO" }) });
 */
export class MemoryRecordStore implements RecordStore {
  readonly specificationVersion = "v1";
  readonly kind = "memory-records";
  readonly capabilities: ScalarStoreCapabilities = Object.freeze({ persistent: false, shared: false });
  private records = new Map<number, CacheRecord>();
  /** Live ids per key hash, ascending: the last one is the newest. */
  private byKey = new Map<string, number[]>();
  private nextId = 1;

  async init(): Promise<void> {}

  async insert(records: readonly NewRecord[]): Promise<number[]> {
    return records.map((r) => {
      const record = storedRecord(this.nextId++, r);
      this.records.set(record.id, record);
      const ids = this.byKey.get(record.keyHash);
      if (ids) ids.push(record.id);
      else this.byKey.set(record.keyHash, [record.id]);
      return record.id;
    });
  }

  /** A copy: callers may change theirs. */
  private copy(record: CacheRecord | undefined): CacheRecord | null {
    return record ? { ...record, deps: record.deps?.map((dep) => ({ ...dep })) } : null;
  }

  async get(id: number): Promise<CacheRecord | null> {
    return this.copy(this.records.get(id));
  }

  async findByKey(keyHash: string): Promise<CacheRecord | null> {
    const ids = this.byKey.get(keyHash);
    return ids ? this.copy(this.records.get(ids[ids.length - 1])) : null;
  }

  async count(): Promise<number> {
    return this.records.size;
  }

  /** Removes records for good (there is no purge step). */
  async markDeleted(ids: readonly number[]): Promise<void> {
    for (const id of ids) {
      const record = this.records.get(id);
      if (!record) continue;
      this.records.delete(id);
      const keyIds = this.byKey.get(record.keyHash) ?? [];
      keyIds.splice(keyIds.lastIndexOf(id), 1);
      if (keyIds.length === 0) this.byKey.delete(record.keyHash);
    }
  }

  async *iterate(): AsyncIterable<CacheRecord> {
    // Map order is insertion order, which is id order; a snapshot, so deleting while iterating is safe.
    for (const record of [...this.records.values()]) yield this.copy(record) as CacheRecord;
  }

  async close(): Promise<void> {
    this.records = new Map();
    this.byKey = new Map();
    this.nextId = 1;
  }
}
