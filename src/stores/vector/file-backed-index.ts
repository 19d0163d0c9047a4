/**
 * What every in-process vector index saved to a folder shares: loading its native library once (a failed init is
 * retried), the folder's lock from init() to close(), mutations and saves one at a time, crash-safe snapshots
 * (snapshot.ts), and the checks every call makes. A subclass supplies the native index itself.
 */
import { DimensionMismatchError, StoreError, ValidationError } from "../../core/errors.js";
import { integerAtLeast } from "../../core/validation.js";
import { Lazy } from "../connection.js";
import { lockFolder, type FolderLock } from "../data-dir-lock.js";
import { checkShardCount } from "./shard-folders.js";
import { readSnapshot, writeSnapshot } from "./snapshot.js";
import type { VectorIndexCapabilities } from "../../core/contracts/vector-index.js";

/** What every index's manifest records; each index adds its own build parameters. */
export interface IndexManifest {
  dimension: number;
  lastId: number;
  count: number;
}

/**
 * The longest a bulk add holds the event loop at a time: a server answers other requests between its slices
 * (docs/benchmarks.md, "A million entries": the longest stall while building).
 */
export const ADD_TURN_BUDGET_MS = 20;
/** Vectors in the first bulk add's first slice, before the rate is known. */
const FIRST_SLICE = 32;

export interface FileBackedIndexSetup {
  /** The index's kind: its store name in errors and its lock's owner. */
  kind: string;
  /** The class name, for validation messages. */
  label: string;
  dimension: number;
  path?: string;
  /** The largest id the native index can hold. */
  idLimit: number;
}

/**
 * Checks an add's ids and vectors, in order, for an index of `dimension` (0: not known yet); returns the dimension
 * they have (the first vector's when not known). `label` names the index in the errors.
 */
export function checkItems(
  items: ReadonlyArray<{ id: number; vector: Float32Array }>,
  dimension: number,
  check: { label: string; idLimit: number; isId: (id: number) => boolean },
): number {
  const expected = dimension || items[0].vector.length;
  for (const { id, vector } of items) {
    if (!check.isId(id)) throw new ValidationError(`${check.label}: ids must be integers in [0, ${check.idLimit}], got ${id}`);
    if (vector.length !== expected) throw new DimensionMismatchError(expected, vector.length);
  }
  return expected;
}

export abstract class FileBackedIndex<Lib, Meta extends IndexManifest> {
  readonly specificationVersion = "v1";
  readonly kind: string;
  protected readonly label: string;
  protected readonly path?: string;
  protected dim: number;
  /** The native library, set once init() has succeeded. */
  protected lib?: Lib;
  protected maxId = 0;
  /** Changes not yet saved. */
  protected dirty = false;
  private readonly idLimit: number;
  /** How long the last bulk add's slice took per item: the next add's first slice is sized from it. */
  private addMsPerItem?: number;
  private closed = false;
  private readonly opening = new Lazy(() => this.open());
  /** The folder's lock, held from init() to close(). */
  private lock?: FolderLock;
  /** Mutations and saves run one at a time: a native save may run on a worker thread. */
  private tail: Promise<unknown> = Promise.resolve();

  protected constructor(setup: FileBackedIndexSetup) {
    this.kind = setup.kind;
    this.label = setup.label;
    this.dim = integerAtLeast(`${setup.label}: dimension`, setup.dimension, 0);
    this.path = setup.path;
    this.idLimit = setup.idLimit;
  }

  /** Loads the optional native package (MissingDependencyError when it is not installed). */
  protected abstract loadLibrary(): Promise<Lib>;
  /** Whether a saved manifest is this kind's (the folders of the kinds share their file names). */
  protected abstract isOwnManifest(meta: Meta): boolean;
  /** Builds the native index from a saved snapshot's data; dim is already the saved dimension. */
  protected abstract restore(lib: Lib, meta: Meta, dataPath: string): Promise<void>;
  /** What to save now, or null when there is no native index to save. */
  protected abstract manifest(): Meta | null;
  /** Writes the native index's data to dataPath. */
  protected abstract writeData(dataPath: string): Promise<void>;
  /** Drops the native index when the index closes. */
  protected abstract release(): void;

  get capabilities(): VectorIndexCapabilities {
    return { persistent: this.path !== undefined, shared: false, roundedDistances: this.roundsDistances() };
  }

  /** Whether the native index keeps compressed vectors, so its distances are rounded. */
  protected roundsDistances(): boolean {
    return false;
  }

  get dimension(): number {
    return this.dim;
  }

  init(): Promise<void> {
    // A failed init (e.g. the folder locked by another process) is not remembered: calling init() again retries.
    return this.opening.get();
  }

  private async open(): Promise<void> {
    const lib = await this.loadLibrary();
    if (this.path !== undefined) {
      // Another index saving to this folder would overwrite our saves (and we theirs), losing entries for good.
      this.lock = this.lockTheFolder(this.path);
      try {
        await checkShardCount(this.kind, this.path, 1);
        await this.loadSnapshot(lib, this.path);
      } catch (error) {
        this.releaseLock();
        throw error;
      }
    }
    // Set last: an index whose init failed stays unusable (assertReady), so it never saves to the folder.
    this.lib = lib;
  }

  private async loadSnapshot(lib: Lib, path: string): Promise<void> {
    const snapshot = await readSnapshot<Meta>(path, this.kind);
    if (snapshot === null) return;
    const meta = snapshot.meta;
    if (!this.isOwnManifest(meta)) {
      const fix = "give this index a folder of its own, or remove that one to build the index again from the stored entries";
      throw new StoreError(this.kind, `${path} holds a saved index of another kind, not ${this.kind}'s: ${fix}`);
    }
    if (this.dim !== 0 && meta.dimension !== this.dim) {
      throw new DimensionMismatchError(meta.dimension, this.dim, `${this.kind} index saved in ${path}`);
    }
    const before = this.dim;
    this.dim = meta.dimension;
    try {
      await this.restore(lib, meta, snapshot.dataPath);
    } catch (error) {
      this.dim = before;
      throw error;
    }
    this.maxId = meta.lastId;
  }

  /** Takes the folder's lock, held from init() to close(). */
  protected lockTheFolder(path: string): FolderLock | undefined {
    return lockFolder(path, this.kind);
  }

  /** The longest a bulk add holds the thread at a time. */
  protected addTurnBudgetMs(): number {
    return ADD_TURN_BUDGET_MS;
  }

  /** Checks an add's ids and vectors; returns the dimension they have (and the index takes from now on). */
  protected acceptItems(items: ReadonlyArray<{ id: number; vector: Float32Array }>, isId: (id: number) => boolean): number {
    this.dim = checkItems(items, this.dim, { label: this.label, idLimit: this.idLimit, isId });
    return this.dim;
  }

  /**
   * Runs `step` over [0, count) in slices of at most `maxSlice` items, each sized from the rate so far to take
   * about addTurnBudgetMs(), and lets the event loop turn between slices. One slice needs no turn.
   */
  protected async inTurns(count: number, maxSlice: number, step: (from: number, to: number) => void): Promise<void> {
    const sliceAt = (perItemMs: number) => Math.max(1, Math.min(maxSlice, Math.floor(this.addTurnBudgetMs() / Math.max(perItemMs, 1e-3))));
    // Sized from the last add's rate: a fixed first slice took ~30 ms at a million entries, on every add of an import.
    let slice = this.addMsPerItem === undefined ? Math.min(FIRST_SLICE, maxSlice) : sliceAt(this.addMsPerItem);
    for (let from = 0; from < count; ) {
      if (from > 0) await new Promise((resolve) => setImmediate(resolve));
      const to = Math.min(count, from + slice);
      const started = performance.now();
      step(from, to);
      this.addMsPerItem = (performance.now() - started) / (to - from);
      slice = sliceAt(this.addMsPerItem);
      from = to;
    }
  }

  /** Checks a search: the index is ready and the query has its dimension. */
  protected acceptQuery(vector: Float32Array): void {
    this.assertReady();
    if (this.dim !== 0 && vector.length !== this.dim) throw new DimensionMismatchError(this.dim, vector.length);
  }

  async lastId(): Promise<number> {
    this.assertReady();
    return this.maxId;
  }

  async flush(): Promise<void> {
    this.assertReady();
    await this.whileOpen(() => this.save());
  }

  /**
   * Saves pending changes (when the index has a path) and releases the index and its folder's lock. If the save
   * fails, the index stays open and keeps the lock: close() can be called again.
   */
  async close(): Promise<void> {
    if (this.closed) return;
    // An init under way would take the lock after we released it.
    if (this.opening.started) await this.opening.get().catch(() => undefined);
    await this.serial(async () => {
      if (this.closed) return;
      if (this.lib !== undefined) await this.save();
      this.release();
      this.closed = true;
      this.releaseLock();
    });
  }

  private releaseLock(): void {
    this.lock?.release();
    this.lock = undefined;
  }

  private async save(): Promise<void> {
    if (this.path === undefined || !this.dirty) return;
    const meta = this.manifest();
    if (meta === null) return;
    await writeSnapshot(this.path, this.kind, meta, (dataPath) => this.writeData(dataPath));
    this.dirty = false;
  }

  /**
   * Runs a change after those queued before it, on an index still open then: a change queued behind close() (or
   * behind a bulk add that close() waited for) fails instead of building a new index after the lock is released.
   */
  protected whileOpen<T>(task: () => T | Promise<T>): Promise<T> {
    return this.serial(() => {
      this.assertReady();
      return task();
    });
  }

  private serial<T>(task: () => T | Promise<T>): Promise<T> {
    const run = this.tail.then(task);
    this.tail = run.catch(() => undefined);
    return run;
  }

  protected assertReady(): void {
    if (this.closed) throw new StoreError(this.kind, "the index is closed");
    if (this.lib === undefined) throw new StoreError(this.kind, "call init() before using the index");
  }
}
