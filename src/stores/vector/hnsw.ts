/**
 * The hnswlib vector index. Over 300 lines: one index's implementation of the whole VectorIndex contract, with
 * its save and load and its folder lock: the methods share the loaded native index and its id maps, so there is
 * no seam to split at.
 */
import type * as Hnswlib from "hnswlib-node";
import { DimensionMismatchError, StoreError, ValidationError } from "../../core/errors.js";
import { importOptional } from "../../core/optional-import.js";
import { integerAtLeast } from "../../core/validation.js";
import { lockFolder, type FolderLock } from "../data-dir-lock.js";
import { clampCosineDistance } from "./score-mapping.js";
import { readSnapshot, writeSnapshot } from "./snapshot.js";
import type { VectorHit, VectorIndex, VectorIndexCapabilities } from "../../core/contracts/vector-index.js";

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
interface HnswMeta {
  space: "ip";
  dimension: number;
  M: number;
  efConstruction: number;
  lastId: number;
  count: number;
}

const KIND = "hnswlib";
/** hnswlib-node passes labels as uint32. */
const MAX_ID = 0xffffffff;

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

/**
 * The embedded default's vector index: hnswlib-node used directly, in the inner-product space over the
 * L2-normalised vectors the data manager hands it (so hnswlib's distance, 1 - dot, is the cosine distance).
 * Labels are record ids. Deleted points are only marked, and new ids reuse their slots, so an evicting cache
 * keeps a bounded index.
 */
/** HnswIndex's default search-time candidate list size (see the ef option). */
export const DEFAULT_HNSW_EF = 256;

export class HnswIndex implements VectorIndex {
  readonly specificationVersion = "v1";
  readonly kind = KIND;
  readonly capabilities: VectorIndexCapabilities;
  private readonly path?: string;
  private readonly M: number;
  private readonly efConstruction: number;
  /** The search-time candidate list size in use. */
  readonly ef: number;
  private readonly initialCapacity: number;
  private dim: number;
  private lib?: typeof Hnswlib;
  private index: Hnswlib.HierarchicalNSW | null = null;
  private live = 0;
  private maxId = 0;
  private dirty = false;
  private closed = false;
  private initialising?: Promise<void>;
  /** The folder's lock, held from init() to close(). */
  private lock?: FolderLock;
  /** Mutations and saves run one at a time: hnswlib writes its file on a worker thread. */
  private tail: Promise<unknown> = Promise.resolve();

  constructor(options: HnswIndexOptions) {
    this.dim = integerAtLeast("HnswIndex: dimension", options.dimension, 0);
    this.path = options.path;
    this.M = integerAtLeast("HnswIndex: M", options.M ?? 16, 2);
    this.efConstruction = integerAtLeast("HnswIndex: efConstruction", options.efConstruction ?? 200, 1);
    this.ef = integerAtLeast("HnswIndex: ef", options.ef ?? DEFAULT_HNSW_EF, 1);
    this.initialCapacity = integerAtLeast("HnswIndex: initialCapacity", options.initialCapacity ?? 1024, 1);
    this.capabilities = Object.freeze({ persistent: this.path !== undefined, shared: false });
  }

  get dimension(): number {
    return this.dim;
  }

  init(): Promise<void> {
    // A failed init (e.g. the folder locked by another process) is not remembered: calling init() again retries.
    this.initialising ??= this.load().catch((error: unknown) => {
      this.initialising = undefined;
      throw error;
    });
    return this.initialising;
  }

  private async load(): Promise<void> {
    const lib = await loadHnswlib();
    if (this.path !== undefined) {
      // Another index saving to this folder would overwrite our saves (and we theirs), losing entries for good.
      this.lock = lockFolder(this.path, KIND);
      try {
        await this.loadSnapshot(lib, this.path);
      } catch (error) {
        this.releaseLock();
        throw error;
      }
    }
    // Set last: an index whose init failed stays unusable (assertReady), so it never saves to the folder.
    this.lib = lib;
  }

  private async loadSnapshot(lib: typeof Hnswlib, path: string): Promise<void> {
    const snapshot = await readSnapshot<HnswMeta>(path, KIND);
    if (snapshot === null) return;
    const meta = snapshot.meta;
    if (this.dim !== 0 && meta.dimension !== this.dim) {
      throw new DimensionMismatchError(meta.dimension, this.dim, `hnswlib index saved in ${path}`);
    }
    const index = new lib.HierarchicalNSW("ip", meta.dimension);
    try {
      await index.readIndex(snapshot.dataPath, true);
    } catch (error) {
      throw new StoreError(KIND, `cannot read ${snapshot.dataPath}`, { cause: error });
    }
    index.setEf(this.ef);
    this.index = index;
    this.dim = meta.dimension;
    this.live = meta.count;
    this.maxId = meta.lastId;
  }

  async add(items: ReadonlyArray<{ id: number; vector: Float32Array }>): Promise<void> {
    this.assertReady();
    if (items.length === 0) return;
    const dimension = this.dim || items[0].vector.length;
    for (const { id, vector } of items) {
      if (!isLabel(id)) throw new ValidationError(`HnswIndex: ids must be integers in [0, ${MAX_ID}], got ${id}`);
      if (vector.length !== dimension) throw new DimensionMismatchError(dimension, vector.length);
    }
    this.dim = dimension;
    await this.serial(() => {
      const index = this.index ?? this.createIndex();
      for (const { id, vector } of items) this.upsert(index, id, Array.from(vector));
      this.dirty = true;
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
    this.assertReady();
    if (this.dim !== 0 && vector.length !== this.dim) throw new DimensionMismatchError(this.dim, vector.length);
    const k = Math.min(Math.floor(topK), this.live);
    if (this.index === null || k < 1) return [];
    const { neighbors, distances } = this.index.searchKnn(Array.from(vector), k);
    return neighbors.map((id, i) => ({ id, distance: clampCosineDistance(distances[i]) }));
  }

  async delete(ids: readonly number[]): Promise<void> {
    this.assertReady();
    await this.serial(() => {
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

  async lastId(): Promise<number> {
    this.assertReady();
    return this.maxId;
  }

  async count(): Promise<number> {
    this.assertReady();
    return this.live;
  }

  /** Empties the index; lastId() starts again from 0. */
  async clear(): Promise<void> {
    this.assertReady();
    await this.serial(() => {
      this.index = null;
      if (this.dim !== 0) this.createIndex();
      this.live = 0;
      this.maxId = 0;
      this.dirty = true;
    });
  }

  async flush(): Promise<void> {
    this.assertReady();
    await this.serial(() => this.save());
  }

  /**
   * Saves pending changes (when the index has a path) and releases the index and its folder's lock. If the save
   * fails, the index stays open and keeps the lock: close() can be called again.
   */
  async close(): Promise<void> {
    if (this.closed) return;
    // An init under way would take the lock after we released it.
    await this.initialising?.catch(() => undefined);
    await this.serial(async () => {
      if (this.closed) return;
      if (this.lib !== undefined) await this.save();
      this.index = null;
      this.closed = true;
      this.releaseLock();
    });
  }

  private releaseLock(): void {
    this.lock?.release();
    this.lock = undefined;
  }

  private async save(): Promise<void> {
    const index = this.index;
    if (this.path === undefined || !this.dirty || index === null) return;
    const meta: HnswMeta = {
      space: "ip",
      dimension: this.dim,
      M: this.M,
      efConstruction: this.efConstruction,
      lastId: this.maxId,
      count: this.live,
    };
    await writeSnapshot(this.path, KIND, meta, async (dataPath) => {
      await index.writeIndex(dataPath);
    });
    this.dirty = false;
  }

  private serial<T>(task: () => T | Promise<T>): Promise<T> {
    const run = this.tail.then(task);
    this.tail = run.catch(() => undefined);
    return run;
  }

  private assertReady(): void {
    if (this.closed) throw new StoreError(KIND, "the index is closed");
    if (this.lib === undefined) throw new StoreError(KIND, "call init() before using the index");
  }
}
