/**
 * One index over several, so that a bulk add builds on several cores: each id belongs to one shard (id mod the
 * shard count), a batch's vectors go to their shards at once, each shard builds in a thread of its own, and a
 * search asks every shard and merges their hits. usearch adds on one thread (its concurrent inserts lose entries:
 * usearch-index.ts), so shards are how an import uses more than one core.
 */
import { DimensionMismatchError, StoreError } from "../../core/errors.js";
import { Lazy } from "../connection.js";
import { checkItems } from "./file-backed-index.js";
import { checkShardCount } from "./shard-folders.js";
import type { VectorHit, VectorIndex, VectorIndexCapabilities } from "../../core/contracts/vector-index.js";

export interface ShardedIndexOptions {
  kind: string;
  /** How many shards (2 or more). */
  shards: number;
  /** Makes shard `index` (from 0); called again for every shard after a failed init. */
  makeShard: (index: number) => VectorIndex;
  /** Vector length; 0 takes it from the first add (or from the saved shards). */
  dimension: number;
  /** The shards' parent folder, checked at init for another shard count. */
  path?: string;
  /** How an add's ids are checked before any shard sees them (the shards' own rule). */
  ids: { label: string; idLimit: number; isId: (id: number) => boolean };
}

export class ShardedIndex implements VectorIndex {
  readonly specificationVersion = "v1";
  readonly kind: string;
  private dim: number;
  /** The highest id this index holds completely: every shard holds each of its ids up to here. */
  private maxId = 0;
  private shards: readonly VectorIndex[];
  private readonly opening = new Lazy(() => this.open());
  private ready = false;
  private closed = false;

  constructor(private readonly options: ShardedIndexOptions) {
    if (!Number.isSafeInteger(options.shards) || options.shards < 2) throw new StoreError(options.kind, "a sharded index needs two shards or more");
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
    if (this.options.path !== undefined) await checkShardCount(this.kind, this.options.path, this.shards.length);
    const opened = await Promise.allSettled(this.shards.map((shard) => shard.init()));
    const failed = opened.find((result) => result.status === "rejected");
    if (failed !== undefined) {
      // The shards that opened hold their folders' locks: released, and new shards made for the next init().
      await Promise.allSettled(this.shards.map((shard, i) => (opened[i].status === "fulfilled" ? shard.close() : undefined)));
      this.shards = this.makeShards();
      throw failed.reason;
    }
    const dimensions = new Set(this.shards.map((shard) => shard.dimension).filter((dimension) => dimension !== 0));
    if (dimensions.size > 1) throw new StoreError(this.kind, `the shards hold vectors of different lengths (${[...dimensions].join(", ")})`);
    if (dimensions.size === 1) this.dim = [...dimensions][0];
    this.maxId = await this.completeUpTo();
    this.ready = true;
  }

  /**
   * Where every shard is complete: shard i holds its ids up to its own last id, and the ids after it up to its next
   * one (n - 1 later) belong to other shards. Below the highest shard's last id when a crash saved one shard and not
   * another, so the entries after it are added again from the stored rows.
   */
  private async completeUpTo(): Promise<number> {
    const lastIds = await Promise.all(this.shards.map((shard) => shard.lastId?.() ?? Promise.resolve(0)));
    return Math.min(Math.max(...lastIds), ...lastIds.map((id) => id + this.shards.length - 1));
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
    const found = await Promise.all(this.shards.map((shard) => shard.search(vector, topK)));
    return found
      .flat()
      .sort((a, b) => a.distance - b.distance)
      .slice(0, Math.max(0, Math.floor(topK)));
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
   * Closes every shard (each saves its changes). The first failure is thrown once all have been tried, and the
   * index stays open: close() tries the shards that failed again.
   */
  async close(): Promise<void> {
    if (this.closed) return;
    if (this.opening.started) await this.opening.get().catch(() => undefined);
    const closed = await Promise.allSettled(this.shards.map((shard) => shard.close()));
    const failed = closed.find((result) => result.status === "rejected");
    if (failed !== undefined) throw failed.reason;
    this.closed = true;
  }

  /** The items of each shard, in their order. */
  private spread<T>(items: readonly T[], idOf: (item: T) => number): T[][] {
    const parts: T[][] = this.shards.map(() => []);
    for (const item of items) parts[idOf(item) % this.shards.length].push(item);
    return parts;
  }

  private assertReady(): void {
    if (this.closed) throw new StoreError(this.kind, "the index is closed");
    if (!this.ready) throw new StoreError(this.kind, "call init() before using the index");
  }
}
