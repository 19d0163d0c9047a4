import type { CacheRecord, NewRecord, ReportRow } from "../types.js";
import type { EvictionPolicy } from "./eviction.js";
import type { SpecificationVersion } from "./specification.js";

/**
 * Maximum lengths of the scalar columns, in characters (code points). GPTCache's table_len_config; its keys
 * (question_question, answer_answer, session_id, dep_name, dep_data) are read by the YAML config.
 */
export interface TableLenConfig {
  /** The stored question (column question_question). */
  question: number;
  /** The answer (column answer_answer). */
  answer: number;
  /** A session id (column session_id). */
  sessionId: number;
  /** A dep's name (column dep_name). */
  depName: number;
  /** A dep's data (column dep_data). */
  depData: number;
}

export const DEFAULT_TABLE_LEN: Readonly<TableLenConfig> = Object.freeze({
  question: 3000,
  answer: 3000,
  sessionId: 1000,
  depName: 1000,
  depData: 3000,
});

/** What a store is; the data manager adapts to it (and tests skip by it). */
export interface ScalarStoreCapabilities {
  /** Entries survive a process restart (a file or a server), so the vector index can be rebuilt from them. */
  persistent: boolean;
  /** Several processes may use the store at once (a server database), so no state may live only in memory. */
  shared: boolean;
}

/**
 * The required scalar store contract: what a new backend must implement, and all the data manager cannot do
 * without. Ids are positive integers assigned by the store in insertion order and never reused. Everything
 * else (hit counts, eviction, sessions, report rows...) is an optional capability below, detected at run time
 * (`storeCapabilities`): the data manager does it on top where it can, and refuses a configuration it cannot
 * serve with a ValidationError naming the store and the missing capability.
 */
export interface RecordStore {
  /** The contract version the store was written against; none: v1. */
  readonly specificationVersion?: SpecificationVersion;
  readonly kind: string;
  readonly capabilities: ScalarStoreCapabilities;
  /** Column lengths the store enforces (ValueTooLongError on insert); none: no limits. */
  readonly tableLen?: Readonly<TableLenConfig>;

  /** Connects and creates tables if needed. Idempotent. */
  init(): Promise<void>;
  /**
   * Inserts all records in one transaction and returns their ids in order. Throws ValueTooLongError (before
   * writing anything) when a value exceeds its column. For stores that write through (sqlite, server
   * databases) the rows survive a process crash once this resolves; file-snapshot stores (memory with a path)
   * are durable at flush(). A store without the sessions capability is never given a record with a session.
   */
  insert(records: readonly NewRecord[]): Promise<number[]>;
  /** A live (not deleted) record by id, or null. */
  get(id: number): Promise<CacheRecord | null>;
  /** The newest live record whose keyHash matches, or null. */
  findByKey(keyHash: string): Promise<CacheRecord | null>;
  /** Number of live records. */
  count(): Promise<number>;
  /**
   * Deletes records (hidden at once; unknown ids are ignored). A store with the purge capability may keep them
   * until purgeDeleted(); one without it removes them for good here.
   */
  markDeleted(ids: readonly number[]): Promise<void>;
  /** Every live record, ascending by id (export; the data manager's scans where a capability is missing). */
  iterate(batchSize?: number): AsyncIterable<CacheRecord>;
  close(): Promise<void>;
}

/** Hit bookkeeping. Without it entries keep hitCount 0 and lastAccessedAtMs = createdAtMs (LRU and LFU are refused). */
export interface HitCountCapability {
  /** Records hits: for each id, lastAccessedAtMs = max(current, atMs) and hitCount += count. Unknown ids are ignored. */
  touch(hits: ReadonlyArray<{ id: number; atMs: number; count: number }>): Promise<void>;
}

/**
 * Eviction and expiry decided by the store from its own columns, atomically, so replicas agree. Without it the
 * data manager scans `iterate()` (refused for a shared store with maxSize: replicas could evict twice).
 */
export interface EvictionCapability {
  /**
   * Atomically: when more than `maxSize` records are live, marks `cleanSize` of them deleted in the policy's
   * order and returns their ids; otherwise returns []. Two processes calling it at once never both evict
   * for the same excess.
   */
  evict(policy: EvictionPolicy, maxSize: number, cleanSize: number): Promise<number[]>;
  /** Marks every live record created before `createdBefore` deleted and returns their ids. */
  expire(createdBefore: number): Promise<number[]>;
}

/** Deleted records kept until purged. Without it the data manager reads a record's object keys before deleting it. */
export interface PurgeCapability {
  /**
   * Physically removes deleted records with their session links, deps and report rows (nothing of a removed
   * entry is left for a reader of the files or tables); returns how many.
   */
  purgeDeleted(): Promise<number>;
  /**
   * The `object` deps (object-store keys) of records marked deleted and not purged yet: the data manager deletes
   * those files before it purges the records.
   */
  deletedObjectKeys(): Promise<string[]>;
}

/** Session links (GPTCache's sessions). Without it a request with a session is refused. */
export interface SessionCapability {
  /** Links a record to a session (idempotent). */
  addSession(id: number, session: string): Promise<void>;
  /** Sessions linked to a record. */
  sessionsOf(id: number): Promise<string[]>;
  /** Links of one session, or of all sessions. */
  listSessions(session?: string): Promise<Array<{ id: number; session: string }>>;
  /** Removes every link of a session; returns how many. */
  deleteSession(session: string): Promise<number>;
}

/** Report rows (one per hit, for stats). Without it none are kept and the count is 0. */
export interface ReportCapability {
  /** Appends report rows (hits), then deletes the oldest beyond the store's `maxReports` (see report-retention.ts). */
  addReports(rows: readonly ReportRow[]): Promise<void>;
  /** Number of report rows (for tests and stats). */
  countReports(): Promise<number>;
}

/** A native clear. Without it the data manager deletes what `iterate()` yields. */
export interface ClearCapability {
  /** Marks every record deleted and removes every report row (they all name a removed entry). */
  clear(): Promise<void>;
}

/** Paging embeddings for the vector index's catch-up and replica sync. Without it the data manager scans `iterate()`. */
export interface EmbeddingPagingCapability {
  /** Live records with id > afterId that have an embedding, ascending by id, at most `limit`. */
  embeddingsAfter(afterId: number, limit: number): Promise<Array<{ id: number; embedding: Float32Array }>>;
}

/** Durability on demand. Without it the store is taken to be durable (or volatile) as it writes. */
export interface FlushCapability {
  /**
   * Makes everything written so far durable (file stores: write the file; WAL: checkpoint). After a purge or a
   * clear, file stores also drop the removed rows' old copies (SQLite: a truncating checkpoint of the WAL).
   */
  flush(): Promise<void>;
}

/** The optional capabilities by name, with the methods each one needs. */
export interface StoreCapabilityMap {
  hitCounts: HitCountCapability;
  eviction: EvictionCapability;
  purge: PurgeCapability;
  sessions: SessionCapability;
  reports: ReportCapability;
  clear: ClearCapability;
  embeddingPaging: EmbeddingPagingCapability;
  flush: FlushCapability;
}

export type StoreCapability = keyof StoreCapabilityMap;

/** The methods each capability needs, all of them present for the store to have it. */
export const STORE_CAPABILITY_METHODS: { readonly [C in StoreCapability]: ReadonlyArray<keyof StoreCapabilityMap[C]> } = Object.freeze({
  hitCounts: ["touch"],
  eviction: ["evict", "expire"],
  purge: ["purgeDeleted", "deletedObjectKeys"],
  sessions: ["addSession", "sessionsOf", "listSessions", "deleteSession"],
  reports: ["addReports", "countReports"],
  clear: ["clear"],
  embeddingPaging: ["embeddingsAfter"],
  flush: ["flush"],
});

/** Whether a store has a capability (every one of its methods). */
export function hasStoreCapability<C extends StoreCapability>(store: RecordStore, capability: C): store is RecordStore & StoreCapabilityMap[C] {
  const methods = STORE_CAPABILITY_METHODS[capability] as readonly string[];
  return methods.every((method) => typeof (store as unknown as Record<string, unknown>)[method] === "function");
}

/** The capabilities a store has, in STORE_CAPABILITY_METHODS' order. */
export function storeCapabilities(store: RecordStore): StoreCapability[] {
  return (Object.keys(STORE_CAPABILITY_METHODS) as StoreCapability[]).filter((capability) => hasStoreCapability(store, capability));
}

/**
 * The full scalar store: the required record contract with every capability and its column lengths. The stores
 * this package ships implement it; the data manager completes a RecordStore to one (see manager/store-fallbacks.ts).
 */
export interface ScalarStore
  extends RecordStore,
    HitCountCapability,
    EvictionCapability,
    PurgeCapability,
    SessionCapability,
    ReportCapability,
    ClearCapability,
    EmbeddingPagingCapability,
    FlushCapability {
  readonly tableLen: Readonly<TableLenConfig>;
}
