/**
 * The hnswlib vector index: the native index's inserts, searches and deletes; the lifecycle it shares with the
 * other file-backed indexes is in file-backed-index.ts.
 */
import type * as Hnswlib from "hnswlib-node";
import { StoreError } from "../../core/errors.js";
import { importOptional } from "../../core/optional-import.js";
import { integerAtLeast } from "../../core/validation.js";
import { clampCosineDistance } from "./score-mapping.js";
import { FileBackedIndex, type IndexManifest } from "./file-backed-index.js";
import { hitsWanted, type VectorHit, type VectorIndex } from "../../core/contracts/vector-index.js";

export interface HnswIndexOptions {
  /** Vector length; 0 takes it from the first add (or from the saved index). */
  dimension: number;
  /**
   * Folder the index is saved in by flush() and loaded from by init(); without it the index is memory-only.
   * init() takes an exclusive lock on it (released by close()): one index, in one process, per folder.
   */
  path?: string;
  /** Graph links per node. Default 16. */
  M?: number;
  /** Candidate list size while building; higher builds slower and finds neighbours better. Default 200. */
  efConstruction?: number;
  /**
   * Candidate list size while searching. Default 256: at 100k random 512-d entries 128 found the true neighbour
   * of 95.9% of near-duplicate queries, 256 of 99.5% (docs/benchmarks.md); LangChain's HNSWLib ships 10.
   */
  ef?: number;
  /** Slots allocated up front; the index doubles them when full. Default 1024. */
  initialCapacity?: number;
}

/** What the manifest records besides the hnswlib file. */
interface HnswMeta extends IndexManifest {
  space: "ip";
  M: number;
  efConstruction: number;
}

const KIND = "hnswlib";
/** hnswlib-node passes labels as uint32. */
const MAX_ID = 0xffffffff;

/** The most points added in one turn of the event loop (fewer when they take longer than the turn's budget). */
const MAX_SLICE = 1024;

function isLabel(id: number): boolean {
  return Number.isInteger(id) && id >= 0 && id <= MAX_ID;
}

async function loadHnswlib(): Promise<typeof Hnswlib> {
  const module = await importOptional<typeof Hnswlib & { default?: typeof Hnswlib }>(
    "hnswlib-node",
    "The hnswlib vector index",
  );
  return module.default ?? module;
}

/** HnswIndex's default search-time candidate list size (see the ef option). */
export const DEFAULT_HNSW_EF = 256;

/**
 * The `hnswlib` vector index (the embedded default's until usearch): hnswlib-node used directly, in the
 * inner-product space over the L2-normalised vectors the data manager hands it (so hnswlib's distance, 1 - dot, is the cosine distance).
 * Labels are record ids. Deleted points are only marked, and new ids reuse their slots, so an evicting cache
 * keeps a bounded index.
 */
export class HnswIndex extends FileBackedIndex<typeof Hnswlib, HnswMeta> implements VectorIndex {
  private readonly M: number;
  private readonly efConstruction: number;
  /** The search-time candidate list size in use. */
  readonly ef: number;
  private readonly initialCapacity: number;
  private index: Hnswlib.HierarchicalNSW | null = null;
  private live = 0;

  constructor(options: HnswIndexOptions) {
    super({ kind: KIND, label: "HnswIndex", dimension: options.dimension, path: options.path, idLimit: MAX_ID });
    this.M = integerAtLeast("HnswIndex: M", options.M ?? 16, 2);
    this.efConstruction = integerAtLeast("HnswIndex: efConstruction", options.efConstruction ?? 200, 1);
    this.ef = integerAtLeast("HnswIndex: ef", options.ef ?? DEFAULT_HNSW_EF, 1);
    this.initialCapacity = integerAtLeast("HnswIndex: initialCapacity", options.initialCapacity ?? 1024, 1);
  }

  protected loadLibrary(): Promise<typeof Hnswlib> {
    return loadHnswlib();
  }

  protected isOwnManifest(meta: HnswMeta): boolean {
    return meta.space === "ip" && Number.isInteger(meta.M);
  }

  protected async restore(lib: typeof Hnswlib, meta: HnswMeta, dataPath: string): Promise<void> {
    const index = new lib.HierarchicalNSW("ip", meta.dimension);
    try {
      await index.readIndex(dataPath, true);
    } catch (error) {
      throw new StoreError(KIND, `cannot read ${dataPath}`, { cause: error });
    }
    index.setEf(this.ef);
    this.index = index;
    this.live = meta.count;
  }

  async add(items: ReadonlyArray<{ id: number; vector: Float32Array }>): Promise<void> {
    this.assertReady();
    if (items.length === 0) return;
    this.acceptItems(items, isLabel);
    await this.whileOpen(async () => {
      const index = this.index ?? this.createIndex();
      this.dirty = true;
      await this.inTurns(items.length, MAX_SLICE, (from, to) => {
        for (let i = from; i < to; i++) this.upsert(index, items[i].id, Array.from(items[i].vector));
      });
    });
  }

  private createIndex(): Hnswlib.HierarchicalNSW {
    const index = new this.lib!.HierarchicalNSW("ip", this.dim);
    index.initIndex({
      maxElements: this.initialCapacity,
      m: this.M,
      efConstruction: this.efConstruction,
      allowReplaceDeleted: true,
    });
    index.setEf(this.ef);
    this.index = index;
    return index;
  }

  private upsert(index: Hnswlib.HierarchicalNSW, id: number, point: number[]): void {
    if (id <= this.maxId) {
      // The label may be live (overwrite in place), marked deleted (revive it first: hnswlib refuses to
      // overwrite a deleted label when slots are reused), or gone because a new id took its slot.
      let revived = false;
      try {
        index.unmarkDelete(id);
        revived = true;
      } catch {
        // live, or not in the index any more
      }
      this.reserve(index);
      const before = index.getCurrentCount();
      index.addPoint(point, id);
      if (revived || index.getCurrentCount() > before) this.live++;
      return;
    }
    // A new id takes the slot of a deleted point when there is one.
    if (index.getCurrentCount() === this.live) this.reserve(index);
    index.addPoint(point, id, true);
    this.live++;
    this.maxId = id;
  }

  private reserve(index: Hnswlib.HierarchicalNSW): void {
    const capacity = index.getMaxElements();
    if (index.getCurrentCount() >= capacity) index.resizeIndex(capacity * 2);
  }

  async search(vector: Float32Array, topK: number): Promise<VectorHit[]> {
    this.acceptQuery(vector);
    const k = Math.min(hitsWanted(topK), this.live);
    if (this.index === null || k === 0) return [];
    const { neighbors, distances } = this.index.searchKnn(Array.from(vector), k);
    return neighbors.map((id, i) => ({ id, distance: clampCosineDistance(distances[i]) }));
  }

  async delete(ids: readonly number[]): Promise<void> {
    this.assertReady();
    await this.whileOpen(() => {
      const index = this.index;
      if (index === null) return;
      for (const id of ids) {
        if (!isLabel(id) || id > this.maxId) continue;
        try {
          index.markDelete(id);
        } catch {
          continue; // unknown or already deleted
        }
        this.live--;
        this.dirty = true;
      }
    });
  }

  async count(): Promise<number> {
    this.assertReady();
    return this.live;
  }

  /** Empties the index; lastId() starts again from 0. */
  async clear(): Promise<void> {
    this.assertReady();
    await this.whileOpen(() => {
      this.index = null;
      if (this.dim !== 0) this.createIndex();
      this.live = 0;
      this.maxId = 0;
      this.dirty = true;
    });
  }

  protected manifest(): HnswMeta | null {
    if (this.index === null) return null;
    return { space: "ip", dimension: this.dim, M: this.M, efConstruction: this.efConstruction, lastId: this.maxId, count: this.live };
  }

  protected async writeData(dataPath: string): Promise<void> {
    await this.index!.writeIndex(dataPath);
  }

  protected release(): void {
    this.index = null;
  }
}
