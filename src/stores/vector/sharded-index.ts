/**
 * One index over several, so that a bulk add builds on several cores: each id belongs to one shard (id mod the
 * shard count), a batch's vectors go to their shards at once, each shard builds in a thread of its own, and a
 * search asks every shard and merges their hits. usearch adds on one thread (its concurrent inserts lose entries:
 * usearch-index.ts), so shards are how an import uses more than one core.
 */
import { DimensionMismatchError, StoreError, ValidationError } from "../../core/errors.js";
import { Lazy } from "../connection.js";
import { lockFolder, type FolderLock } from "../data-dir-lock.js";
import { checkItems } from "./file-backed-index.js";
import { checkShardCount } from "./shard-folders.js";
import { hitsWanted, type VectorHit, type VectorIndex, type VectorIndexCapabilities } from "../../core/contracts/vector-index.js";

export interface ShardedIndexOptions {
  kind: string;
  /** How many shards (2 or more). */
  shards: number;
  /** Makes shard `index` (from 0); called again for every shard after a failed init. */
  makeShard: (index: number) => VectorIndex;
  /** Vector length; 0 takes it from the first add (or from the saved shards). */
  dimension: number;
  /** The shards' parent folder: locked from init to close, and checked at init for another shard count. */
  path?: string;
  /** How an add's ids are checked before any shard sees them (the shards' own rule). */
  ids: { label: string; idLimit: number; isId: (id: number) => boolean };
}

export class ShardedIndex implements VectorIndex {
  readonly specificationVersion = "v1";
  readonly kind: string;
  private dim: number;
  /** lastId(): where every shard was complete at init, then the highest id added. */
  private maxId = 0;
  private shards: readonly VectorIndex[];
  private readonly opening = new Lazy(() => this.open());
  private lock?: FolderLock;
  private ready = false;
  private closed = false;
  /** Set by a close() that failed: some shards closed, so calls are refused until close() is called again. */
  private closeFailed?: Error;

  constructor(private readonly options: ShardedIndexOptions) {
    if (!Number.isSafeInteger(options.shards) || options.shards < 2) throw new ValidationError(`${options.kind}: a sharded index needs two shards or more, got ${options.shards}`);
    this.kind = options.kind;
    this.dim = options.dimension;
    this.shards = this.makeShards();
  }

  private makeShards(): VectorIndex[] {
    return Array.from({ length: this.options.shards }, (_, i) => this.options.makeShard(i));
  }

  get capabilities(): VectorIndexCapabilities {
    return this.shards[0].capabilities;
  }

  get dimension(): number {
    return this.dim;
  }

  /** How many shards the entries are spread over. */
  get shardCount(): number {
    return this.shards.length;
  }

  init(): Promise<void> {
    return this.opening.get();
  }

  private async open(): Promise<void> {
    const { path } = this.options;
    // The parent folder's lock too: an unsharded index opened on it would save beside the shards.
    this.lock = path === undefined ? undefined : lockFolder(path, this.kind);
    try {
      if (path !== undefined) await checkShardCount(this.kind, path, this.shards.length);
      const opened = await Promise.allSettled(this.shards.map((shard) => shard.init()));
      const failed = opened.find((result) => result.status === "rejected");
      if (failed !== undefined) throw failed.reason;
      const dimensions = new Set(this.shards.map((shard) => shard.dimension).filter((dimension) => dimension !== 0));
      if (dimensions.size > 1) throw new StoreError(this.kind, `the shards hold vectors of different lengths (${[...dimensions].join(", ")})`);
      if (dimensions.size === 1) this.dim = [...dimensions][0];
      this.maxId = await this.completeUpTo();
    } catch (error) {
      // Shards that opened hold their folders' locks: closed, and new shards made for the next init().
      await Promise.allSettled(this.shards.map((shard) => shard.close()));
      this.shards = this.makeShards();
      this.lock?.release();
      this.lock = undefined;
      throw error;
    }
    this.ready = true;
  }

  /**
   * Where every shard is complete. Shard i holds the ids congruent to i (mod n) up to its last id; the next one
   * it could hold comes n later, and every id before that is complete there. A shard that holds nothing is complete
   * only before its first id (i, or n for shard 0). Below the highest shard's last id when a crash saved one shard
   * and not another, so the entries after that point are added again from the stored rows.
   */
  private async completeUpTo(): Promise<number> {
    const n = this.shards.length;
    const lastIds = await Promise.all(this.shards.map((shard) => shard.lastId?.() ?? Promise.resolve(0)));
    const complete = lastIds.map((last, i) => (last > 0 ? last + n - 1 : (i === 0 ? n : i) - 1));
    return Math.min(Math.max(...lastIds), ...complete);
  }

  async add(items: ReadonlyArray<{ id: number; vector: Float32Array }>): Promise<void> {
    this.assertReady();
    if (items.length === 0) return;
    // Checked here: a shard that holds nothing yet would take vectors of another length than its siblings'.
    const dimension = checkItems(items, this.dim, this.options.ids);
    const before = this.dim;
    this.dim = dimension;
    try {
      await Promise.all(this.spread(items, (item) => item.id).map((part, i) => (part.length > 0 ? this.shards[i].add(part) : undefined)));
    } catch (error) {
      if (this.shards.every((shard) => shard.dimension === 0)) this.dim = before;
      throw error;
    }
    for (const { id } of items) if (id > this.maxId) this.maxId = id;
  }

  async search(vector: Float32Array, topK: number): Promise<VectorHit[]> {
    this.assertReady();
    if (this.dim !== 0 && vector.length !== this.dim) throw new DimensionMismatchError(this.dim, vector.length);
    const want = hitsWanted(topK);
    if (want === 0) return [];
    const found = await Promise.all(this.shards.map((shard) => shard.search(vector, want)));
    return found
      .flat()
      .sort((a, b) => a.distance - b.distance)
      .slice(0, want);
  }

  async delete(ids: readonly number[]): Promise<void> {
    this.assertReady();
    // Ids no shard could hold are unknown ids, ignored as every index ignores them.
    const known = ids.filter((id) => Number.isSafeInteger(id) && id >= 0);
    await Promise.all(this.spread(known, (id) => id).map((part, i) => (part.length > 0 ? this.shards[i].delete(part) : undefined)));
  }

  async lastId(): Promise<number> {
    this.assertReady();
    return this.maxId;
  }

  async count(): Promise<number> {
    this.assertReady();
    const counts = await Promise.all(this.shards.map((shard) => shard.count()));
    return counts.reduce((sum, count) => sum + count, 0);
  }

  async clear(): Promise<void> {
    this.assertReady();
    await Promise.all(this.shards.map((shard) => shard.clear()));
    this.maxId = 0;
  }

  async flush(): Promise<void> {
    this.assertReady();
    await Promise.all(this.shards.map((shard) => shard.flush()));
  }

  /**
   * Closes every shard (each saves its changes), then releases the folder. The first failure is thrown once all
   * have been tried; calls are refused from then on, and close() tries the shards that failed again.
   */
  async close(): Promise<void> {
    if (this.closed) return;
    if (this.opening.started) await this.opening.get().catch(() => undefined);
    const closed = await Promise.allSettled(this.shards.map((shard) => shard.close()));
    const failed = closed.find((result) => result.status === "rejected");
    if (failed !== undefined) {
      this.closeFailed = failed.reason as Error;
      throw failed.reason;
    }
    this.closed = true;
    this.lock?.release();
    this.lock = undefined;
  }

  /** The items of each shard, in their order. */
  private spread<T>(items: readonly T[], idOf: (item: T) => number): T[][] {
    const parts: T[][] = this.shards.map(() => []);
    for (const item of items) parts[idOf(item) % this.shards.length].push(item);
    return parts;
  }

  private assertReady(): void {
    if (this.closed) throw new StoreError(this.kind, "the index is closed");
    if (this.closeFailed !== undefined) {
      throw new StoreError(this.kind, `the index is half closed (${this.closeFailed.message}): call close() again`, { cause: this.closeFailed });
    }
    if (!this.ready) throw new StoreError(this.kind, "call init() before using the index");
  }
}
