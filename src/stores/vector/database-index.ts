import { DimensionMismatchError, SemcacheError, StoreError, ValidationError } from "../../core/errors.js";
import { isNonNegativeInteger } from "../../core/validation.js";
import type { Clock } from "../../core/clock.js";
import { messageOf, resolveTimeoutMs, withDeadline } from "../connection.js";
import { uuidFromId } from "./langchain-bridge.js";
import { toCosineDistance, type ScoreKind } from "./score-mapping.js";
import type { LangChainDocument, LangChainVectorStoreLike } from "./store-profiles.js";
import { hitsWanted, type VectorHit, type VectorIndex, type VectorIndexCapabilities } from "../../core/contracts/vector-index.js";

/** The calls DatabaseVectorIndex makes to a database, each under its deadline (timeoutMs). */
export type DatabaseStep = "open" | "dimension" | "store" | "add" | "search" | "delete" | "count" | "clear" | "flush" | "close";

/**
 * One vector database behind DatabaseVectorIndex: how to reach it, create its index and ask what LangChain's
 * VectorStore classes cannot (count, clear, the dimension of an existing index). One small file per database
 * under ./databases/.
 */
export interface VectorDatabase {
  readonly kind: string;
  /** Where the index lives, for messages, without secrets: "postgres://127.0.0.1:5432/test, table semcache_vectors". */
  readonly location: string;
  /** The unit of the scores of the store this database hands out (as its driver configured it). */
  readonly score: ScoreKind;
  /** Adding an existing document id replaces it; otherwise the index deletes the ids first. */
  readonly upserts: boolean;
  /** Connects, failing when the server does not answer. */
  open(): Promise<void>;
  /** The dimension of the existing index, 0 while there is none (another replica may create it later). */
  dimension(): Promise<number>;
  /** The LangChain store over an index of this dimension, creating the index when missing. */
  store(dimension: number): Promise<LangChainVectorStoreLike>;
  /** Vectors in the index (0 when it does not exist yet). */
  count(): Promise<number>;
  /** Removes every vector; store() afterwards recreates what clear dropped. */
  clear(): Promise<void>;
  close(): Promise<void>;
  /** Brings the index up to date (LanceDB: compaction, a pending index build); most databases need nothing. */
  flush?(): Promise<void>;
  /** addVectors' options for these document ids; default `{ ids }` (Redis takes whole keys instead). */
  addOptions?(documentIds: string[]): Record<string, unknown>;
  /** Deletes documents by id where the store class cannot (OpenSearch); default `store.delete({ ids })`. */
  delete?(documentIds: string[]): Promise<void>;
  /**
   * Steps that wait by design on the database's own background work, and how much longer than timeoutMs they may
   * take (Infinity: no deadline), e.g. Atlas's store() waiting for a new search index to become queryable.
   */
  readonly slowStepsMs?: Partial<Record<DatabaseStep, number>>;
  /**
   * Drops the connections of a call that ran past its deadline, so no silent one is reused: the next call connects
   * afresh (the index then asks store() again, as the old store holds the dropped client). Only where the driver can.
   */
  reset?(): void;
}

/**
 * Vectors per call when adding or deleting many (an import): each call has its own deadline, which a batch of
 * thousands could outlast on a healthy database (2,000 64-d vectors take ~6 s on PGlite over the wire).
 */
const BATCH_SIZE = 500;

/** Metadata key of the record id (a decimal string: Milvus keeps numbers as float32, LanceDB infers columns). */
export const RECORD_ID_KEY = "semcacheId";

/** The record id a search result carries, or undefined for a document the cache did not write. */
export function recordIdOf(document: LangChainDocument): number | undefined {
  const raw = document.metadata?.[RECORD_ID_KEY];
  const id = typeof raw === "number" ? raw : typeof raw === "string" && /^\d{1,16}$/.test(raw) ? Number(raw) : NaN;
  return Number.isSafeInteger(id) && id >= 0 ? id : undefined;
}

/**
 * A vector database (pgvector, Chroma, Qdrant, LanceDB, ...) as the cache's vector index, through its LangChain
 * VectorStore class. Unlike the in-process bridge (LangChainVectorIndex), the database is the source of truth and
 * several replicas share it: nothing about its contents is kept in this process (no live list, no snapshot),
 * deletes go to the database by document id, and the data manager never rebuilds it from one replica's rows.
 * Scores are converted to cosine distance; a fault becomes a StoreError naming the store and where it is. Every call
 * to the database has a deadline, `timeoutMs` (default DEFAULT_STORE_TIMEOUT_MS): past it the caller gets a
 * StoreError (the cache fails open) and the database drops the connection the call waits on (`reset`).
 */
export class DatabaseVectorIndex implements VectorIndex {
  readonly specificationVersion = "v1";
  readonly capabilities: VectorIndexCapabilities = Object.freeze({ persistent: true, shared: true });
  private readonly database: VectorDatabase;
  private readonly timeoutMs: number;
  private readonly clock?: Clock;
  private dim: number;
  private current?: Promise<LangChainVectorStoreLike>;
  private opening?: Promise<void>;
  private opened = false;
  private closed = false;

  /** `clock` times the calls' deadlines (a test's ManualClock); default: a plain timer. */
  constructor(database: VectorDatabase, dimension = 0, options: { timeoutMs?: number; clock?: Clock } = {}) {
    if (!isNonNegativeInteger(dimension)) {
      throw new ValidationError(`The "${database.kind}" vector store: dimension must be an integer >= 0, got ${dimension}`);
    }
    this.database = database;
    this.dim = dimension;
    this.timeoutMs = resolveTimeoutMs(database.kind, options.timeoutMs);
    this.clock = options.clock;
  }

  get kind(): string {
    return this.database.kind;
  }

  get dimension(): number {
    return this.dim;
  }

  /** Where the index lives (no secrets). */
  get location(): string {
    return this.database.location;
  }

  /** The LangChain store (after init, once the dimension is known), e.g. to query it with your own filters. */
  async vectorStore(): Promise<LangChainVectorStoreLike> {
    this.ready();
    if (this.dim === 0) throw new StoreError(this.kind, "the index has no dimension yet: add a vector first");
    return this.storeFor(this.dim);
  }

  /** Connects and checks the existing index against the dimension asked for. Idempotent. */
  init(): Promise<void> {
    this.opening ??= this.open().catch(async (error: unknown) => {
      this.opening = undefined;
      this.current = undefined;
      await this.call("close", "close failed", () => this.database.close()).catch(() => undefined);
      throw error;
    });
    return this.opening;
  }

  private async open(): Promise<void> {
    await this.call("open", "cannot connect", () => this.database.open());
    await this.adopt(this.dim);
    if (this.dim > 0) await this.storeFor(this.dim);
    this.opened = true;
  }

  /**
   * Takes the dimension of an index that exists in the database (this replica's or another's), checking it
   * against the one wanted (0: any). Until some replica creates the index, the dimension stays 0.
   */
  private async adopt(wanted: number): Promise<void> {
    const existing = await this.call("dimension", "cannot read the index", () => this.database.dimension());
    if (existing > 0 && wanted > 0 && existing !== wanted) {
      throw new DimensionMismatchError(existing, wanted, `${this.kind} index at ${this.location}`);
    }
    if (existing > 0) this.dim = existing;
  }

  /** The store over the index, created once (again after clear, or after a failed attempt). */
  private storeFor(dimension: number): Promise<LangChainVectorStoreLike> {
    if (this.current) return this.current;
    const made: Promise<LangChainVectorStoreLike> = this.call("store", "cannot create the index", () => this.database.store(dimension)).catch(
      (error: unknown) => {
        // A reset may have started a newer one meanwhile.
        if (this.current === made) this.current = undefined;
        throw error;
      },
    );
    return (this.current = made);
  }

  async add(items: ReadonlyArray<{ id: number; vector: Float32Array }>): Promise<void> {
    this.ready();
    if (items.length === 0) return;
    if (this.dim === 0) await this.adopt(items[0].vector.length);
    const dimension = this.dim || items[0].vector.length;
    for (const { id, vector } of items) {
      if (!Number.isSafeInteger(id) || id < 0) throw new ValidationError(`${this.kind}: ids must be non-negative integers, got ${id}`);
      if (vector.length !== dimension) throw new DimensionMismatchError(dimension, vector.length, `${this.kind} index at ${this.location}`);
    }
    await this.storeFor(dimension);
    this.dim = dimension;
    // Last one wins when a batch holds an id twice.
    const batch = [...new Map(items.map((item) => [item.id, item.vector]))];
    for (let start = 0; start < batch.length; start += BATCH_SIZE) await this.write(batch.slice(start, start + BATCH_SIZE));
  }

  /** Writes up to BATCH_SIZE vectors, each call to the database under its own deadline. */
  private async write(batch: ReadonlyArray<[id: number, vector: Float32Array]>): Promise<void> {
    const documentIds = batch.map(([id]) => uuidFromId(id));
    if (!this.database.upserts) await this.remove(documentIds);
    const vectors = batch.map(([, vector]) => Array.from(vector));
    const documents: LangChainDocument[] = batch.map(([id], i) => ({
      pageContent: "",
      metadata: { [RECORD_ID_KEY]: String(id) },
      id: documentIds[i],
    }));
    const options = this.database.addOptions?.(documentIds) ?? { ids: documentIds };
    // Asked again: a reset during the delete drops the store (it holds the dropped client).
    const store = await this.storeFor(this.dim);
    await this.call("add", "add failed", () => store.addVectors(vectors, documents, options));
  }

  async search(vector: Float32Array, topK: number): Promise<VectorHit[]> {
    this.ready();
    if (this.dim !== 0 && vector.length !== this.dim) {
      throw new DimensionMismatchError(this.dim, vector.length, `${this.kind} index at ${this.location}`);
    }
    const want = hitsWanted(topK);
    if (want === 0) return [];
    if (this.dim === 0) await this.adopt(vector.length);
    if (this.dim === 0) return [];
    const store = await this.storeFor(this.dim);
    const results = await this.call("search", "search failed", () => store.similaritySearchVectorWithScore(Array.from(vector), want));
    const hits: VectorHit[] = [];
    const seen = new Set<number>();
    for (const [document, score] of results) {
      const id = recordIdOf(document);
      if (id === undefined || seen.has(id)) continue;
      seen.add(id);
      hits.push({ id, distance: toCosineDistance(this.database.score, score) });
    }
    return hits.sort((a, b) => a.distance - b.distance).slice(0, want);
  }

  async delete(ids: readonly number[]): Promise<void> {
    this.ready();
    const valid = [...new Set(ids)].filter((id) => Number.isSafeInteger(id) && id >= 0);
    if (valid.length === 0) return;
    if (this.dim === 0) await this.adopt(0);
    if (this.dim === 0) return;
    for (let start = 0; start < valid.length; start += BATCH_SIZE) await this.remove(valid.slice(start, start + BATCH_SIZE).map(uuidFromId));
  }

  private async remove(documentIds: string[]): Promise<void> {
    const database = this.database;
    const store = await this.storeFor(this.dim);
    await this.call("delete", "delete failed", () => {
      if (database.delete) return database.delete(documentIds);
      if (typeof store.delete !== "function") throw new StoreError(this.kind, "the store has no delete method");
      return store.delete({ ids: documentIds });
    });
  }

  async count(): Promise<number> {
    this.ready();
    return this.call("count", "count failed", () => this.database.count());
  }

  /** Removes every vector of this index (every replica sees it empty). */
  async clear(): Promise<void> {
    this.ready();
    await this.call("clear", "clear failed", () => this.database.clear());
    this.current = undefined;
    if (this.dim > 0) await this.storeFor(this.dim);
  }

  /** Every write is in the database when it returns; this only runs the database's upkeep (LanceDB compaction). */
  async flush(): Promise<void> {
    this.ready();
    const database = this.database;
    if (database.flush) await this.call("flush", "flush failed", () => database.flush!());
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    const opening = this.opening;
    if (opening) await opening.catch(() => undefined);
    if (this.opened) await this.call("close", "close failed", () => this.database.close());
  }

  /** `task` within its deadline; a driver fault becomes a StoreError naming the database. */
  private async call<T>(step: DatabaseStep, what: string, task: () => Promise<T>): Promise<T> {
    const limitMs = this.timeoutMs + (this.database.slowStepsMs?.[step] ?? 0);
    try {
      if (!Number.isFinite(limitMs)) return await task();
      // Wrapped in async: a task that throws at once still settles, and clears the timer.
      return await withDeadline(this.kind, `${what} (${this.location})`, limitMs, async () => task(), () => this.expired(), this.clock);
    } catch (error) {
      if (SemcacheError.isInstance(error)) throw error;
      throw new StoreError(this.kind, `${what} (${this.location}): ${messageOf(error)}`, { cause: error });
    }
  }

  /** A call got no answer in time: the database drops its connections, and the store holding them is made again. */
  private expired(): void {
    if (!this.database.reset) return;
    this.database.reset();
    this.current = undefined;
  }

  private ready(): void {
    if (this.closed) throw new StoreError(this.kind, "the index is closed");
    if (!this.opened) throw new StoreError(this.kind, "call init() before using the index");
  }
}
