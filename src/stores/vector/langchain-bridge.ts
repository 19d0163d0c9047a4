/**
 * A LangChain VectorStore as the cache's vector index. Over 300 lines: one index's implementation of the whole
 * VectorIndex contract, with its save and load and its folder lock: the methods share the wrapped store and its
 * id mapping, so there is no seam to split at.
 */
import { mkdir } from "node:fs/promises";
import { DimensionMismatchError, SemcacheError, StoreError, ValidationError } from "../../core/errors.js";
import { isNonNegativeInteger } from "../../core/validation.js";
import { SCORE_KINDS, toCosineDistance, type ScoreKind } from "./score-mapping.js";
import { readSnapshot, writeSnapshot } from "./snapshot.js";
import {
  profileOf,
  staticLoaderOf,
  type LangChainDocument,
  type LangChainVectorStoreLike,
} from "./store-profiles.js";
import { hitsWanted, type VectorHit, type VectorIndex, type VectorIndexCapabilities } from "../../core/contracts/vector-index.js";

export type { LangChainVectorStoreLike } from "./store-profiles.js";

/**
 * The store to wrap, or a function creating an empty one (then clear() starts over with a new store instead of
 * hiding every entry). Stores built by the cache get `vectorsOnlyEmbeddings`.
 */
export type LangChainStoreSource =
  | LangChainVectorStoreLike
  | (() => LangChainVectorStoreLike | Promise<LangChainVectorStoreLike>);

export interface LangChainVectorIndexOptions {
  /** Name reported as `kind`. Default "langchain-" + the store's `_vectorstoreType()`, or "langchain". */
  kind?: string;
  /** Vector length; 0 or absent takes it from the first add (or from the saved state). */
  dimension?: number;
  /** Folder flush() saves into and init() loads from, for stores that can load what they save. */
  path?: string;
  /** The unit of the store's scores. Detected for HNSWLib, USearch, MemoryVectorStore and FaissStore. */
  score?: ScoreKind;
  /** The store's `delete({ ids })` removes single documents. Otherwise the bridge hides deleted entries itself. */
  deletesById?: boolean;
  /** Loads a saved store from a folder. Default: the store class's static `load(directory, embeddings)`. */
  load?: (directory: string) => Promise<LangChainVectorStoreLike>;
  /** Applied after the store is created, loaded or added to: settings the store resets (HNSWLib's ef). */
  tune?: (store: LangChainVectorStoreLike) => void;
  /** The document id a record id is stored under. Default: a UUID-shaped string, which every store accepts. */
  documentId?: (id: number) => string;
}

/** What the bridge saves next to the store's own files. */
interface BridgeMeta {
  dimension: number;
  lastId: number;
  nextSeq: number;
  stored: number;
  /** Live entries as [record id, version]: any other point in the store is a stale or deleted one. */
  live: Array<[number, number]>;
}

const ID_KEY = "semcacheId";
const SEQ_KEY = "semcacheSeq";

/** 00000000-0000-4000-8000-<id in hex>: a valid UUID, so stores with UUID id columns (pgvector, qdrant) take it. */
export function uuidFromId(id: number): string {
  return `00000000-0000-4000-8000-${id.toString(16).padStart(12, "0")}`;
}

/**
 * Any LangChain `VectorStore` as the cache's vector index. Each document carries the record id and a version
 * in its metadata; the bridge keeps the live (id, version) pairs, so a store that cannot delete by id still
 * never returns a deleted or replaced entry (search fetches more to make up for the hidden ones). Scores are
 * converted to cosine distance.
 */
export class LangChainVectorIndex implements VectorIndex {
  readonly specificationVersion = "v1";
  readonly kind: string;
  private readonly source: LangChainStoreSource;
  private readonly options: LangChainVectorIndexOptions;
  private readonly documentId: (id: number) => string;
  private store?: LangChainVectorStoreLike;
  private score?: ScoreKind;
  private deletesById = false;
  /** Adding an id the store already holds fails (a primary key): ids are deleted before every add. */
  private rejectsExistingIds = false;
  private persistent: boolean;
  private dim: number;
  private live = new Map<number, number>();
  private nextSeq = 1;
  /** Points physically in the store, hidden ones included. */
  private stored = 0;
  private maxId = 0;
  private dirty = false;
  private closed = false;
  private initialising?: Promise<void>;
  /** Mutations and saves run one at a time: stores save on worker threads. */
  private tail: Promise<unknown> = Promise.resolve();

  constructor(store: LangChainStoreSource, options: LangChainVectorIndexOptions = {}) {
    const dimension = options.dimension ?? 0;
    if (!isNonNegativeInteger(dimension)) {
      throw new ValidationError(`LangChainVectorIndex: dimension must be an integer >= 0, got ${dimension}`);
    }
    if (options.score !== undefined && !SCORE_KINDS.includes(options.score)) {
      throw new ValidationError(`LangChainVectorIndex: score must be one of ${SCORE_KINDS.join(", ")}, got "${options.score}"`);
    }
    this.source = store;
    this.options = options;
    this.dim = dimension;
    this.documentId = options.documentId ?? uuidFromId;
    const instance = typeof store === "function" ? undefined : store;
    this.kind = options.kind ?? (instance ? `langchain-${instance._vectorstoreType()}` : "langchain");
    this.persistent = instance ? this.canPersist(instance) : options.path !== undefined && options.load !== undefined;
  }

  get capabilities(): VectorIndexCapabilities {
    return { persistent: this.persistent, shared: false };
  }

  get dimension(): number {
    return this.dim;
  }

  /** The wrapped store (after init), e.g. to tune it further. */
  get vectorStore(): LangChainVectorStoreLike {
    return this.ready();
  }

  init(): Promise<void> {
    this.initialising ??= this.load();
    return this.initialising;
  }

  private canPersist(store: LangChainVectorStoreLike): boolean {
    const loadable = this.options.load !== undefined || staticLoaderOf(store) !== undefined;
    return this.options.path !== undefined && loadable && typeof store.save === "function";
  }

  private async createStore(): Promise<LangChainVectorStoreLike> {
    const source = this.source;
    return this.call("create the store", async () => (typeof source === "function" ? source() : source));
  }

  private async load(): Promise<void> {
    let store = await this.createStore();
    this.persistent = this.canPersist(store);
    const snapshot = this.persistent ? await readSnapshot<BridgeMeta>(this.options.path!, this.kind) : null;
    if (snapshot !== null) {
      const meta = snapshot.meta;
      if (this.dim !== 0 && meta.dimension !== this.dim) {
        throw new DimensionMismatchError(meta.dimension, this.dim, `vector store saved in ${this.options.path}`);
      }
      if (meta.stored > 0) {
        const loader = this.options.load ?? staticLoaderOf(store)!;
        store = await this.call(`load ${snapshot.dataPath}`, () => loader(snapshot.dataPath));
      }
      this.dim = meta.dimension;
      this.maxId = meta.lastId;
      this.nextSeq = meta.nextSeq;
      this.stored = meta.stored;
      this.live = new Map(meta.live);
    }
    const profile = profileOf(store);
    const score = this.options.score ?? profile?.score;
    if (score === undefined) {
      throw new ValidationError(
        `LangChainVectorIndex: cannot tell what the scores of a "${store._vectorstoreType()}" store mean; ` +
          `pass score: ${SCORE_KINDS.map((kind) => `"${kind}"`).join(" | ")}`,
      );
    }
    this.score = score;
    this.deletesById = this.options.deletesById ?? profile?.deletesById ?? false;
    this.rejectsExistingIds = this.deletesById && (profile?.rejectsExistingIds ?? false);
    this.options.tune?.(store);
    this.store = store;
  }

  async add(items: ReadonlyArray<{ id: number; vector: Float32Array }>): Promise<void> {
    this.ready();
    if (items.length === 0) return;
    const dimension = this.dim || items[0].vector.length;
    for (const { id, vector } of items) {
      if (!Number.isSafeInteger(id) || id < 0) throw new ValidationError(`LangChainVectorIndex: ids must be non-negative integers, got ${id}`);
      if (vector.length !== dimension) throw new DimensionMismatchError(dimension, vector.length);
    }
    this.dim = dimension;
    await this.serial(async () => {
      const store = this.ready();
      // Last one wins when a batch holds an id twice.
      const batch = new Map(items.map((item) => [item.id, item.vector]));
      // A database may still hold ids this process never saw live (rows of an earlier run being re-added).
      const recordIds = [...batch.keys()];
      if (this.deletesById) {
        await this.removeFromStore(this.rejectsExistingIds ? recordIds : recordIds.filter((id) => this.live.has(id)));
      }
      const vectors: number[][] = [];
      const documents: LangChainDocument[] = [];
      const seqs: number[] = [];
      for (const [id, vector] of batch) {
        const seq = this.nextSeq++;
        vectors.push(Array.from(vector));
        documents.push({ pageContent: "", metadata: { [ID_KEY]: id, [SEQ_KEY]: seq }, id: this.documentId(id) });
        seqs.push(seq);
      }
      const ids = documents.map((document) => document.id!);
      await this.call("add vectors", () => store.addVectors(vectors, documents, { ids }));
      this.options.tune?.(store);
      this.stored += vectors.length;
      let i = 0;
      for (const id of batch.keys()) {
        this.live.set(id, seqs[i++]);
        this.maxId = Math.max(this.maxId, id);
      }
      this.dirty = true;
    });
  }

  async search(vector: Float32Array, topK: number): Promise<VectorHit[]> {
    const store = this.ready();
    if (this.dim !== 0 && vector.length !== this.dim) throw new DimensionMismatchError(this.dim, vector.length);
    const want = hitsWanted(topK);
    if (want === 0 || this.live.size === 0) return [];
    const query = Array.from(vector);
    const hidden = this.stored - this.live.size;
    // Never ask for more than the store holds (LangChain's stores warn and cap), and fetch extra to make up
    // for hidden points, more each round while too few live ones come back.
    let k = Math.min(this.stored, want + Math.min(hidden, want));
    for (;;) {
      const results = await this.call("search", () => store.similaritySearchVectorWithScore(query, k));
      const hits = this.liveHits(results);
      if (hits.length >= want || k >= this.stored) return hits.slice(0, want);
      k = Math.min(this.stored, k * 4);
    }
  }

  private liveHits(results: Array<[LangChainDocument, number]>): VectorHit[] {
    const hits: VectorHit[] = [];
    const seen = new Set<number>();
    for (const [document, score] of results) {
      const id = document.metadata?.[ID_KEY];
      if (typeof id !== "number" || seen.has(id) || this.live.get(id) !== document.metadata[SEQ_KEY]) continue;
      seen.add(id);
      hits.push({ id, distance: toCosineDistance(this.score!, score) });
    }
    // Some stores order loosely (MemoryVectorStore's comparator is not a total order).
    return hits.sort((a, b) => a.distance - b.distance);
  }

  async delete(ids: readonly number[]): Promise<void> {
    this.ready();
    await this.serial(async () => {
      const gone = [...new Set(ids)].filter((id) => this.live.has(id));
      if (gone.length === 0) return;
      if (this.deletesById) await this.removeFromStore(gone);
      for (const id of gone) this.live.delete(id);
      this.dirty = true;
    });
  }

  private async removeFromStore(ids: number[]): Promise<void> {
    if (ids.length === 0) return;
    const store = this.ready();
    if (typeof store.delete !== "function") throw new StoreError(this.kind, "the store has no delete method");
    await this.call("delete", () => store.delete!({ ids: ids.map(this.documentId) }));
    this.stored -= ids.filter((id) => this.live.has(id)).length;
  }

  async lastId(): Promise<number> {
    this.ready();
    return this.maxId;
  }

  async count(): Promise<number> {
    this.ready();
    return this.live.size;
  }

  /** Empties the index (a new store when built from a function); lastId() starts again from 0. */
  async clear(): Promise<void> {
    this.ready();
    await this.serial(async () => {
      if (typeof this.source === "function") {
        const store = await this.createStore();
        this.options.tune?.(store);
        this.store = store;
        this.stored = 0;
      } else if (this.deletesById) {
        await this.removeFromStore([...this.live.keys()]);
      }
      this.live.clear();
      this.maxId = 0;
      this.dirty = true;
    });
  }

  async flush(): Promise<void> {
    this.ready();
    await this.serial(() => this.save());
  }

  /** Saves pending changes (for persistent stores) and drops the store. */
  async close(): Promise<void> {
    if (this.closed) return;
    await this.serial(async () => {
      if (this.store !== undefined) await this.save();
      this.store = undefined;
      this.closed = true;
    });
  }

  private async save(): Promise<void> {
    const store = this.store;
    if (!this.persistent || !this.dirty || store === undefined) return;
    const meta: BridgeMeta = {
      dimension: this.dim,
      lastId: this.maxId,
      nextSeq: this.nextSeq,
      stored: this.stored,
      live: [...this.live],
    };
    // An empty store has nothing to save (HNSWLib cannot even save before its first add).
    await writeSnapshot(this.options.path!, this.kind, meta, async (dataPath) => {
      if (this.stored === 0) await mkdir(dataPath);
      else await store.save!(dataPath);
    });
    this.dirty = false;
  }

  private async call<T>(what: string, task: () => Promise<T>): Promise<T> {
    try {
      return await task();
    } catch (error) {
      if (SemcacheError.isInstance(error)) throw error;
      throw new StoreError(this.kind, `${what} failed: ${(error as Error)?.message ?? error}`, { cause: error });
    }
  }

  private serial<T>(task: () => Promise<T>): Promise<T> {
    const run = this.tail.then(task);
    this.tail = run.catch(() => undefined);
    return run;
  }

  private ready(): LangChainVectorStoreLike {
    if (this.closed) throw new StoreError(this.kind, "the index is closed");
    if (this.store === undefined) throw new StoreError(this.kind, "call init() before using the index");
    return this.store;
  }
}
