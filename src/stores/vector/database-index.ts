import { DimensionMismatchError, SemcacheError, StoreError, ValidationError } from "../../core/errors.js";
import { messageOf } from "../connection.js";
import { uuidFromId } from "./langchain-bridge.js";
import { toCosineDistance, type ScoreKind } from "./score-mapping.js";
import type { LangChainDocument, LangChainVectorStoreLike } from "./store-profiles.js";
import type { VectorHit, VectorIndex, VectorIndexCapabilities } from "./types.js";

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
}

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
 * Scores are converted to cosine distance; a fault becomes a StoreError naming the store and where it is.
 */
export class DatabaseVectorIndex implements VectorIndex {
  readonly capabilities: VectorIndexCapabilities = Object.freeze({ persistent: true, shared: true });
  private readonly database: VectorDatabase;
  private dim: number;
  private current?: Promise<LangChainVectorStoreLike>;
  private opening?: Promise<void>;
  private opened = false;
  private closed = false;

  constructor(database: VectorDatabase, dimension = 0) {
    if (!Number.isInteger(dimension) || dimension < 0) {
      throw new ValidationError(`The "${database.kind}" vector store: dimension must be an integer >= 0, got ${dimension}`);
    }
    this.database = database;
    this.dim = dimension;
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
      await this.database.close().catch(() => undefined);
      throw error;
    });
    return this.opening;
  }

  private async open(): Promise<void> {
    await this.call("cannot connect", () => this.database.open());
    await this.adopt(this.dim);
    if (this.dim > 0) await this.storeFor(this.dim);
    this.opened = true;
  }

  /**
   * Takes the dimension of an index that exists in the database (this replica's or another's), checking it
   * against the one wanted (0: any). Until some replica creates the index, the dimension stays 0.
   */
  private async adopt(wanted: number): Promise<void> {
    const existing = await this.call("cannot read the index", () => this.database.dimension());
    if (existing > 0 && wanted > 0 && existing !== wanted) {
      throw new DimensionMismatchError(existing, wanted, `${this.kind} index at ${this.location}`);
    }
    if (existing > 0) this.dim = existing;
  }

  /** The store over the index, created once (again after clear, or after a failed attempt). */
  private storeFor(dimension: number): Promise<LangChainVectorStoreLike> {
    this.current ??= this.call("cannot create the index", () => this.database.store(dimension)).catch((error: unknown) => {
      this.current = undefined;
      throw error;
    });
    return this.current;
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
    const store = await this.storeFor(dimension);
    this.dim = dimension;
    // Last one wins when a batch holds an id twice.
    const batch = new Map(items.map((item) => [item.id, item.vector]));
    const documentIds = [...batch.keys()].map(uuidFromId);
    if (!this.database.upserts) await this.remove(store, documentIds);
    const vectors = [...batch.values()].map((vector) => Array.from(vector));
    const documents: LangChainDocument[] = [...batch.keys()].map((id, i) => ({
      pageContent: "",
      metadata: { [RECORD_ID_KEY]: String(id) },
      id: documentIds[i],
    }));
    const options = this.database.addOptions?.(documentIds) ?? { ids: documentIds };
    await this.call("add failed", () => store.addVectors(vectors, documents, options));
  }

  async search(vector: Float32Array, topK: number): Promise<VectorHit[]> {
    this.ready();
    if (this.dim !== 0 && vector.length !== this.dim) {
      throw new DimensionMismatchError(this.dim, vector.length, `${this.kind} index at ${this.location}`);
    }
    const want = Math.floor(topK);
    if (want < 1) return [];
    if (this.dim === 0) await this.adopt(vector.length);
    if (this.dim === 0) return [];
    const store = await this.storeFor(this.dim);
    const results = await this.call("search failed", () => store.similaritySearchVectorWithScore(Array.from(vector), want));
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
    await this.remove(await this.storeFor(this.dim), valid.map(uuidFromId));
  }

  private async remove(store: LangChainVectorStoreLike, documentIds: string[]): Promise<void> {
    const database = this.database;
    await this.call("delete failed", () => {
      if (database.delete) return database.delete(documentIds);
      if (typeof store.delete !== "function") throw new StoreError(this.kind, "the store has no delete method");
      return store.delete({ ids: documentIds });
    });
  }

  async count(): Promise<number> {
    this.ready();
    return this.call("count failed", () => this.database.count());
  }

  /** Removes every vector of this index (every replica sees it empty). */
  async clear(): Promise<void> {
    this.ready();
    await this.call("clear failed", () => this.database.clear());
    this.current = undefined;
    if (this.dim > 0) await this.storeFor(this.dim);
  }

  /** Every write is in the database when it returns; this only runs the database's upkeep (LanceDB compaction). */
  async flush(): Promise<void> {
    this.ready();
    const database = this.database;
    if (database.flush) await this.call("flush failed", () => database.flush!());
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    const opening = this.opening;
    if (opening) await opening.catch(() => undefined);
    if (this.opened) await this.database.close();
  }

  private async call<T>(what: string, task: () => Promise<T>): Promise<T> {
    try {
      return await task();
    } catch (error) {
      if (SemcacheError.isInstance(error)) throw error;
      throw new StoreError(this.kind, `${what} (${this.location}): ${messageOf(error)}`, { cause: error });
    }
  }

  private ready(): void {
    if (this.closed) throw new StoreError(this.kind, "the index is closed");
    if (!this.opened) throw new StoreError(this.kind, "call init() before using the index");
  }
}
