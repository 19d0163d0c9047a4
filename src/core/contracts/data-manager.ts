/**
 * What the Cache and the request flow need of their storage (GPTCache's DataManager): the rows, the vector search,
 * the hit and report bookkeeping, sessions and the lifecycle. manager/data-manager.ts is the implementation that
 * coordinates a record store, a vector index and an object store; this contract keeps the kernel free of it.
 */
import type { Clock } from "../clock.js";
import type { AnswerType, CacheRecord, QuestionDep, ReportRow } from "../types.js";
import type { EvictionPolicy } from "./eviction.js";
import type { ObjectStore } from "./object-store.js";
import type { ScalarStore, ScalarStoreCapabilities, TableLenConfig } from "./scalar-store.js";
import type { VectorHit, VectorIndex } from "./vector-index.js";

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

export interface DataManagerLike {
  /** The scalar store, complete with every capability (done on top where the given store lacks one). */
  readonly scalar: ScalarStore;
  readonly vector?: VectorIndex;
  readonly object?: ObjectStore;
  readonly eviction: EvictionPolicy;
  readonly maxSize?: number;
  readonly cleanSize: number;
  readonly ttlMs?: number;
  /** Where time comes from (ages, expiry, the bookkeeping timer). */
  readonly clock: Clock;
  /** The column limits of the scalar store (question, answer, ...). */
  readonly tableLen: Readonly<TableLenConfig>;
  /** Opens the stores; idempotent, and retried by a later call after a failure. */
  init(): Promise<void>;
  /** Stores entries; resolves with their ids exactly when they are stored. */
  save(items: readonly SaveItem[]): Promise<number[]>;
  findExact(keyHash: string): Promise<CacheRecord | null>;
  search(embedding: Float32Array | readonly number[], topK: number): Promise<VectorHit[]>;
  getScalarData(id: number): Promise<CacheRecord | null>;
  /** Records a hit at `atMs` (epoch ms; default now), buffered. */
  hit(id: number, atMs?: number): void;
  /** Records a report row (buffered). */
  report(row: ReportRow): void;
  /** Resolves when buffered bookkeeping is written. */
  settled(): Promise<void>;
  addSession(id: number, session: string): Promise<void>;
  sessionsOf(id: number): Promise<string[]>;
  listSessions(session?: string): Promise<Array<{ id: number; session: string }>>;
  deleteSession(session: string): Promise<number>;
  count(): Promise<number>;
  countReports(): Promise<number>;
  entries(batchSize?: number): AsyncIterable<CacheRecord>;
  storeInfo(): { kind: string; capabilities: ScalarStoreCapabilities; path?: string };
  clear(): Promise<void>;
  flush(options?: { partial?: boolean }): Promise<void>;
  close(): Promise<void>;
}
