/**
 * The USearch vector index: the native index's inserts, searches and deletes, its quantization and its
 * memory-mapped view; the lifecycle it shares with the other file-backed indexes is in file-backed-index.ts.
 */
import type * as Usearch from "usearch";
import { StoreError, ValidationError } from "../../core/errors.js";
import { requireOptional } from "../../core/optional-import.js";
import { integerAtLeast } from "../../core/validation.js";
import { clampCosineDistance } from "./score-mapping.js";
import { FileBackedIndex, type IndexManifest } from "./file-backed-index.js";
import { hitsWanted, type VectorHit, type VectorIndex } from "../../core/contracts/vector-index.js";

/** How each vector is stored: 4, 2 or 1 byte per dimension. */
export type UsearchQuantization = "f32" | "f16" | "i8";
export const USEARCH_QUANTIZATIONS: readonly UsearchQuantization[] = Object.freeze(["f32", "f16", "i8"]);

/**
 * The default storage: at 100k sentence-like 512-d entries i8 holds an entry in ~910 B of RSS (f16 ~1,450 B,
 * hnswlib ~2,600 B), builds ~1.5x faster than hnswlib, both on one thread, and finds the exact neighbour of every
 * query (docs/benchmarks.md, "A million entries"). Its distances are off by up to ~0.008, so the cache judges each
 * candidate on its exact distance from the stored embedding (capabilities.roundedDistances); code that searches
 * the index itself gets the rounded ones.
 */
export const DEFAULT_USEARCH_QUANTIZATION: UsearchQuantization = "i8";
/**
 * Default search-time candidate list size (usearch's own default is 64), as hnswlib's ef: at 100k random 512-d
 * entries 128 found the exact neighbour of 95% of near-duplicate queries, 256 of 99.1-99.7% (docs/benchmarks.md).
 */
export const DEFAULT_USEARCH_EXPANSION_SEARCH = 256;
/**
 * Default graph links per node (hnswlib's M; usearch's own default is 16). At a million sentence-like 512-d
 * entries, 16 left 11% of the stored entries out of reach of their own near-duplicate queries (recall@1 0.889;
 * 0.915 searching 4x wider), 32 found 0.991 of them, for ~125 B more per entry (938 B at i8) and a build ~1.5-2x
 * slower. At 100k it makes searches ~2-3x slower (i8 p50 ~3 ms) for the same recall (docs/benchmarks.md, "A
 * million entries" and "300,000 and 1,000,000 entries"): a miss at a million was judged the worse cost.
 */
export const DEFAULT_USEARCH_CONNECTIVITY = 32;

export interface UsearchIndexOptions {
  /** Vector length; 0 takes it from the first add (or from the saved index). */
  dimension: number;
  /**
   * Folder the index is saved in by flush() and loaded from by init(); without it the index is memory-only.
   * init() takes an exclusive lock on it (released by close()): one index, in one process, per folder.
   */
  path?: string;
  /**
   * How vectors are stored. Default DEFAULT_USEARCH_QUANTIZATION, or what a saved index was built with. A saved
   * index keeps its quantization: asking for another one is an error (remove the folder to rebuild).
   */
  quantization?: UsearchQuantization;
  /**
   * Graph links per node (hnswlib's M). Default DEFAULT_USEARCH_CONNECTIVITY, or what a saved index was built
   * with: a saved index keeps its graph, so asking for another value is an error (remove the folder to rebuild).
   */
  connectivity?: number;
  /** Candidate list size while building (hnswlib's efConstruction). Default 128. */
  expansionAdd?: number;
  /** Candidate list size while searching (hnswlib's ef). Default DEFAULT_USEARCH_EXPANSION_SEARCH. */
  expansionSearch?: number;
  /**
   * Memory-map the saved index instead of reading it into memory: opens at once and shares pages with the OS cache.
   * A mapped index is read-only, so the first add, delete or clear reads the file into memory then (a one-off
   * cost, the load time). Default false.
   */
  view?: boolean;
}

/** What the manifest records besides usearch's own file. */
interface UsearchMeta extends IndexManifest {
  metric: "cos";
  quantization: UsearchQuantization;
  connectivity: number;
}

type UsearchModule = typeof Usearch;

const KIND = "usearch";
/** The most vectors in one native add call (fewer when they take longer than a turn's budget): between calls the event loop turns. */
const MAX_SLICE = 1024;

/** The usearch package (MissingDependencyError when it is not installed or its native build is missing). */
export async function loadUsearch(): Promise<UsearchModule> {
  const module = requireOptional<UsearchModule & { default?: UsearchModule }>("usearch", "The usearch vector index");
  return module.default ?? module;
}

const LABEL = "UsearchIndex";
const ID_LIMIT = Number.MAX_SAFE_INTEGER;

function isKey(id: number): boolean {
  return Number.isSafeInteger(id) && id >= 0;
}

/** How an add's ids are checked (checkItems): the ThreadedUsearchIndex checks them before it posts them. */
export const USEARCH_IDS = Object.freeze({ label: LABEL, idLimit: ID_LIMIT, isId: isKey });

/**
 * A file-backed HNSW index over the native usearch library: its 'cos' metric reports 1 - cos, the contract's
 * cosine distance. Vectors may be stored at 16 or 8 bits per dimension (quantization), which cuts the memory
 * of a large cache 2-4x. Removed keys free their slots for new ones.
 */
export class UsearchIndex extends FileBackedIndex<UsearchModule, UsearchMeta> implements VectorIndex {
  private readonly requested?: UsearchQuantization;
  private readonly requestedConnectivity?: number;
  private links: number;
  private readonly expansionAdd: number;
  /** The search-time candidate list size in use. */
  readonly expansionSearch: number;
  private readonly view: boolean;
  private quant: UsearchQuantization;
  private index: Usearch.Index | null = null;
  /** The file a viewed (memory-mapped, read-only) index maps; undefined once the index is writable. */
  private viewed?: string;

  constructor(options: UsearchIndexOptions) {
    super({ kind: KIND, label: LABEL, dimension: options.dimension, path: options.path, idLimit: ID_LIMIT });
    if (options.quantization !== undefined && !USEARCH_QUANTIZATIONS.includes(options.quantization)) {
      throw new ValidationError(`UsearchIndex: quantization must be one of ${USEARCH_QUANTIZATIONS.join(", ")}, got ${JSON.stringify(options.quantization)}`);
    }
    this.requested = options.quantization;
    this.quant = options.quantization ?? DEFAULT_USEARCH_QUANTIZATION;
    if (options.connectivity !== undefined) this.requestedConnectivity = integerAtLeast("UsearchIndex: connectivity", options.connectivity, 2);
    this.links = this.requestedConnectivity ?? DEFAULT_USEARCH_CONNECTIVITY;
    this.expansionAdd = integerAtLeast("UsearchIndex: expansionAdd", options.expansionAdd ?? 128, 1);
    this.expansionSearch = integerAtLeast("UsearchIndex: expansionSearch", options.expansionSearch ?? DEFAULT_USEARCH_EXPANSION_SEARCH, 1);
    this.view = options.view ?? false;
  }

  /** How vectors are stored: the option, or what the saved index was built with. */
  get quantization(): UsearchQuantization {
    return this.quant;
  }

  /** Graph links per node: the option, or what the saved index was built with. */
  get connectivity(): number {
    return this.links;
  }

  /** f16 and i8 keep rounded vectors: the cache judges on exact distances from the stored embeddings. */
  protected override roundsDistances(): boolean {
    return this.quant !== "f32";
  }

  protected loadLibrary(): Promise<UsearchModule> {
    return loadUsearch();
  }

  protected isOwnManifest(meta: UsearchMeta): boolean {
    return meta.metric === "cos" && USEARCH_QUANTIZATIONS.includes(meta.quantization) && Number.isInteger(meta.connectivity);
  }

  protected async restore(lib: UsearchModule, meta: UsearchMeta, dataPath: string): Promise<void> {
    if (this.requested !== undefined && meta.quantization !== this.requested) {
      throw this.savedClash(`stores ${meta.quantization} vectors, quantization asks for ${this.requested}`, "quantization");
    }
    this.quant = meta.quantization;
    const index = this.newIndex(lib);
    try {
      if (this.view) index.view(dataPath);
      else index.load(dataPath);
    } catch (error) {
      throw new StoreError(KIND, `cannot read ${dataPath}`, { cause: error });
    }
    // The graph's own, from the file: manifests written before 2026-11-27 may record an option it was not built with.
    const links = index.connectivity();
    if (this.requestedConnectivity !== undefined && links !== this.requestedConnectivity) {
      throw this.savedClash(`links each entry to ${links} others, connectivity asks for ${this.requestedConnectivity}`, "connectivity (m)");
    }
    this.links = links;
    this.index = index;
    this.viewed = this.view ? dataPath : undefined;
  }

  /** A saved index built otherwise than an option asks: its graph cannot change without a rebuild. */
  private savedClash(what: string, option: string): ValidationError {
    const fix = `leave ${option} out to keep it, or remove the folder to rebuild the index`;
    return new ValidationError(`UsearchIndex: the index in ${this.path} ${what}: ${fix}.`);
  }

  /** A new native index (every index this object holds is made here, loaded ones included). */
  private newIndex(lib: UsearchModule): Usearch.Index {
    return new lib.Index({
      dimensions: this.dim,
      metric: lib.MetricKind.Cos,
      quantization: this.quant as Usearch.ScalarKind,
      connectivity: this.links,
      expansion_add: this.expansionAdd,
      expansion_search: this.expansionSearch,
      multi: false,
    });
  }

  async add(items: ReadonlyArray<{ id: number; vector: Float32Array }>): Promise<void> {
    this.assertReady();
    if (items.length === 0) return;
    const dimension = this.acceptItems(items, isKey);
    // The last vector given for an id wins, as if the items were added one by one.
    const latest = new Map<number, Float32Array>();
    for (const { id, vector } of items) latest.set(id, vector);
    await this.whileOpen(async () => {
      const index = this.writable();
      const ids = [...latest.keys()];
      // usearch refuses a key it holds: an id added again replaces its vector, so remove the old one first.
      const keys = BigUint64Array.from(ids, BigInt);
      const held = index.contains(keys) as boolean[];
      const replaced = keys.filter((_, i) => held[i]);
      if (replaced.length > 0) index.remove(replaced);
      this.dirty = true;
      await this.inTurns(ids.length, MAX_SLICE, (from, to) => {
        const chunk = ids.slice(from, to);
        const vectors = new Float32Array(chunk.length * dimension);
        chunk.forEach((id, i) => vectors.set(latest.get(id)!, i * dimension));
        // One thread: usearch's concurrent inserts (2.25-2.26) leave about one node in a thousand stored but out of
        // reach of every search, its own vector's included (unum-cloud/USearch#735, open).
        index.add(keys.subarray(from, to), vectors, 1);
        for (const id of chunk) if (id > this.maxId) this.maxId = id;
      });
    });
  }

  async search(vector: Float32Array, topK: number): Promise<VectorHit[]> {
    this.acceptQuery(vector);
    // hitsWanted: usearch given a topK of NaN brings the process down.
    const k = Math.min(hitsWanted(topK), this.index?.size() ?? 0);
    if (this.index === null || k === 0) return [];
    // One query: one thread (more would only add the cost of starting them).
    const { keys, distances } = this.index.search(vector, k, 1);
    return Array.from(keys, (key, i) => ({ id: Number(key), distance: clampCosineDistance(distances[i]) }));
  }

  async delete(ids: readonly number[]): Promise<void> {
    this.assertReady();
    const keys = BigUint64Array.from(ids.filter(isKey), BigInt);
    await this.whileOpen(() => {
      if (this.index === null || keys.length === 0) return;
      const removed = this.writable().remove(keys) as number[];
      if (removed.some((n) => n > 0)) this.dirty = true;
    });
  }

  async count(): Promise<number> {
    this.assertReady();
    return this.index?.size() ?? 0;
  }

  /** Empties the index; lastId() starts again from 0. */
  async clear(): Promise<void> {
    this.assertReady();
    await this.whileOpen(() => {
      this.index = this.dim === 0 ? null : this.newIndex(this.lib!);
      this.viewed = undefined;
      this.maxId = 0;
      this.dirty = true;
    });
  }

  /** The index, ready for changes: created on the first add, read into memory when it was memory-mapped. */
  private writable(): Usearch.Index {
    if (this.index === null) {
      this.index = this.newIndex(this.lib!);
    } else if (this.viewed !== undefined) {
      const loaded = this.newIndex(this.lib!);
      try {
        loaded.load(this.viewed);
      } catch (error) {
        throw new StoreError(KIND, `cannot read ${this.viewed}`, { cause: error });
      }
      this.index = loaded;
      this.viewed = undefined;
    }
    return this.index;
  }

  protected manifest(): UsearchMeta | null {
    if (this.index === null) return null;
    return { metric: "cos", dimension: this.dim, quantization: this.quant, connectivity: this.links, lastId: this.maxId, count: this.index.size() };
  }

  protected async writeData(dataPath: string): Promise<void> {
    this.index!.save(dataPath);
  }

  protected release(): void {
    this.index = null;
  }
}
