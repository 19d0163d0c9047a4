import type { SpecificationVersion } from "./specification.js";

/** A nearest-neighbour candidate: a record id and its cosine distance (1 - cosine similarity, in [0, 2]). */
export interface VectorHit {
  id: number;
  distance: number;
}

export interface VectorIndexCapabilities {
  /** The index keeps its entries across restarts by itself (saved files, a database). */
  persistent: boolean;
  /** Several processes share the index (a database), so it is never rebuilt from one process's view. */
  shared: boolean;
  /**
   * Search distances are rounded: the index keeps compressed vectors (usearch at f16 or i8). The cache then judges
   * each candidate on its exact distance, computed from the embedding its record keeps. Default false.
   */
  roundedDistances?: boolean;
}

/**
 * The vector store: nearest-neighbour search over L2-normalised embeddings, keyed by record id.
 * Inputs are already normalised by the data manager; implementations must still reject wrong dimensions.
 */
export interface VectorIndex {
  /** The contract version the component was written against; none: v1 (see specification.ts). */
  readonly specificationVersion?: SpecificationVersion;
  readonly kind: string;
  readonly capabilities: VectorIndexCapabilities;
  /** Vector length; fixed at construction or by the first add when constructed with 0. */
  readonly dimension: number;

  /** Loads saved state or creates the index. Idempotent. */
  init(): Promise<void>;
  /** Adds (or replaces) vectors. Throws DimensionMismatchError on a wrong length. */
  add(items: ReadonlyArray<{ id: number; vector: Float32Array }>): Promise<void>;
  /** Up to topK nearest live vectors, nearest first. Empty index, or a topK under 1 or NaN -> []. */
  search(vector: Float32Array, topK: number): Promise<VectorHit[]>;
  /** Removes ids; unknown ids are ignored. */
  delete(ids: readonly number[]): Promise<void>;
  /**
   * The highest id the index holds after init (0 when empty). The data manager re-adds records with larger ids
   * from the scalar store, so an index saved before a crash catches up. Shared indexes may omit it.
   */
  lastId?(): Promise<number>;
  /** Number of live vectors. */
  count(): Promise<number>;
  /** Removes every vector. */
  clear(): Promise<void>;
  /** Saves to disk where the index is file-backed. */
  flush(): Promise<void>;
  close(): Promise<void>;
}

/** How many hits a search for topK asks for: its whole part, or 0 for a topK under 1 or not a number (NaN). */
export function hitsWanted(topK: number): number {
  return topK >= 1 ? Math.floor(topK) : 0;
}
