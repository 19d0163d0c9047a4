import type { Clock } from "../core/clock.js";
import type { VectorIndex } from "../core/contracts/vector-index.js";

/** What the sync reads from the scalar store: live records' embeddings above an id, ascending. */
export interface EmbeddingSource {
  readonly capabilities: { persistent: boolean; shared: boolean };
  embeddingsAfter(afterId: number, limit: number): Promise<Array<{ id: number; embedding: Float32Array }>>;
}

const REBUILD_PAGE = 2000;

/**
 * Keeps an in-process vector index in step with the scalar store: on start it re-adds the rows the index missed
 * (not saved before a crash, or not persistent at all), and with a shared store (several processes) it pulls the
 * other replicas' new entries before searches, at most every `intervalMs`. Their deletes are noticed when a search
 * returns an entry whose row is gone (DataManager.getScalarData).
 */
export class ReplicaSync {
  /** The in-process index holds every live entry of the scalar store with an id up to this one. */
  private syncedTo = 0;
  /** Ids this process added to the index above `syncedTo`: not added again when the sync reaches them. */
  private ownAhead = new Set<number>();
  private lastSync = 0;
  private syncing?: Promise<void>;

  constructor(
    private readonly scalar: EmbeddingSource,
    private readonly index: VectorIndex | undefined,
    private readonly clock: Clock,
    private readonly intervalMs: number,
    /** Told how many vectors each pull added (they are unsaved in a file-backed index). */
    private readonly onAdded: (count: number) => void,
  ) {}

  /** True when other processes write to the scalar store while this one keeps its own index. */
  get followsReplicas(): boolean {
    return this.scalar.capabilities.shared && this.index !== undefined && !this.index.capabilities.shared;
  }

  /** Re-adds rows an in-process index missed, from its last id (or from the start). */
  async catchUp(): Promise<void> {
    const index = this.index;
    if (!index || index.capabilities.shared || !this.scalar.capabilities.persistent) return;
    this.syncedTo = index.capabilities.persistent && index.lastId ? await index.lastId() : 0;
    await this.pullNewEntries();
  }

  /** Notes ids this process has just added to the index, so a later pull does not add them again. */
  addedOwn(ids: Iterable<number>): void {
    if (!this.followsReplicas) return;
    for (const id of ids) if (id > this.syncedTo) this.ownAhead.add(id);
  }

  /** Pulls other replicas' new entries when `intervalMs` has passed (or `now`); one pull at a time. */
  sync(now = false): Promise<void> {
    if (!this.followsReplicas || (!now && this.clock.now() - this.lastSync < this.intervalMs)) return Promise.resolve();
    this.syncing ??= this.pullNewEntries().finally(() => {
      this.syncing = undefined;
      this.lastSync = this.clock.now();
    });
    return this.syncing;
  }

  /**
   * Adds the scalar store's entries with ids above `syncedTo` to the index. Shared stores assign ids in commit
   * order, so nothing committed later can appear below the point reached.
   */
  private async pullNewEntries(): Promise<void> {
    const index = this.index;
    if (!index) return;
    for (;;) {
      const rows = await this.scalar.embeddingsAfter(this.syncedTo, REBUILD_PAGE);
      if (rows.length === 0) break;
      const fresh = rows.filter((row) => !this.ownAhead.has(row.id));
      if (fresh.length > 0) {
        await index.add(fresh.map((row) => ({ id: row.id, vector: row.embedding })));
        this.onAdded(fresh.length);
      }
      this.syncedTo = rows[rows.length - 1].id;
    }
    for (const id of this.ownAhead) if (id <= this.syncedTo) this.ownAhead.delete(id);
  }
}
