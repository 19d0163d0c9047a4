import type { CacheRecord, NewRecord, ReportRow } from "../types.js";
import type { EvictionPolicy } from "./eviction.js";

/** Maximum lengths of the scalar columns (GPTCache's table_len_config). */
export interface TableLenConfig {
  question_question: number;
  answer_answer: number;
  session_id: number;
  dep_name: number;
  dep_data: number;
}

export const DEFAULT_TABLE_LEN: Readonly<TableLenConfig> = Object.freeze({
  question_question: 3000,
  answer_answer: 3000,
  session_id: 1000,
  dep_name: 1000,
  dep_data: 3000,
});

/** What a store can do natively; the data manager does the rest on top (and tests skip by capability). */
export interface ScalarStoreCapabilities {
  /** Entries survive a process restart (a file or a server), so the vector index can be rebuilt from them. */
  persistent: boolean;
  /** Several processes may use the store at once (a server database), so no state may live only in memory. */
  shared: boolean;
}

/**
 * The scalar store: questions, answers, their bookkeeping columns, sessions and report rows.
 * Ids are positive integers assigned by the store in insertion order.
 * Eviction and expiry are decided by the store from its own columns, atomically, so replicas agree.
 */
export interface ScalarStore {
  readonly kind: string;
  readonly capabilities: ScalarStoreCapabilities;
  readonly tableLen: Readonly<TableLenConfig>;

  /** Connects and creates tables if needed. Idempotent. */
  init(): Promise<void>;
  /**
   * Inserts all records in one transaction and returns their ids in order. Throws ValueTooLongError (before
   * writing anything) when a value exceeds its column. For stores that write through (sqlite, server
   * databases) the rows survive a process crash once this resolves; file-snapshot stores (memory with a path)
   * are durable at flush().
   */
  insert(records: readonly NewRecord[]): Promise<number[]>;
  /** A live (not deleted) record by id, or null. */
  get(id: number): Promise<CacheRecord | null>;
  /** The newest live record whose keyHash matches, or null. */
  findByKey(keyHash: string): Promise<CacheRecord | null>;
  /** Records hits: for each id, lastAccess = max(current, at) and hitCount += count. Unknown ids are ignored. */
  touch(hits: ReadonlyArray<{ id: number; at: number; count: number }>): Promise<void>;
  /** Number of live records. */
  count(): Promise<number>;
  /**
   * Atomically: when more than `maxSize` records are live, marks `cleanSize` of them deleted in the policy's
   * order and returns their ids; otherwise returns []. Two processes calling it at once never both evict
   * for the same excess.
   */
  evict(policy: EvictionPolicy, maxSize: number, cleanSize: number): Promise<number[]>;
  /** Marks every live record created before `createdBefore` deleted and returns their ids. */
  expire(createdBefore: number): Promise<number[]>;
  /** Marks the given records deleted (hidden at once). */
  markDeleted(ids: readonly number[]): Promise<void>;
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
  /** Marks every record deleted and removes every report row (they all name a removed entry). */
  clear(): Promise<void>;
  /** Live records with id > afterId that have an embedding, ascending by id, at most `limit`. */
  embeddingsAfter(afterId: number, limit: number): Promise<Array<{ id: number; embedding: Float32Array }>>;
  /** Every live record, ascending by id (export). */
  iterate(batchSize?: number): AsyncIterable<CacheRecord>;

  /** Links a record to a session (idempotent). */
  addSession(id: number, session: string): Promise<void>;
  /** Sessions linked to a record. */
  sessionsOf(id: number): Promise<string[]>;
  /** Links of one session, or of all sessions. */
  listSessions(session?: string): Promise<Array<{ id: number; session: string }>>;
  /** Removes every link of a session; returns how many. */
  deleteSession(session: string): Promise<number>;

  /** Appends report rows (hits), then deletes the oldest beyond the store's `maxReports` (see report-retention.ts). */
  addReports(rows: readonly ReportRow[]): Promise<void>;
  /** Number of report rows (for tests and stats). */
  countReports(): Promise<number>;

  /**
   * Makes everything written so far durable (file stores: write the file; WAL: checkpoint). After a purge or a
   * clear, file stores also drop the removed rows' old copies (SQLite: a truncating checkpoint of the WAL).
   */
  flush(): Promise<void>;
  close(): Promise<void>;
}
