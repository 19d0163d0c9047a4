import { DimensionMismatchError, ValidationError } from "../../core/errors.js";
import { isNonNegativeInteger } from "../../core/validation.js";
import { dot } from "../../core/vector-math.js";
import { hitsWanted, type VectorHit, type VectorIndex, type VectorIndexCapabilities } from "../../core/contracts/vector-index.js";

const KIND = "flat";

/**
 * An exact, in-memory vector index in plain JavaScript: every search compares the query with every stored
 * vector. No native module, so it works where a native index cannot load (usearch on a platform it ships no
 * build for, hnswlib-node where its build never ran: pnpm without `approve-builds`, npm 11 without
 * `allowScripts`). Exact, so recall is 1, at a cost linear in the entries (about 1 ms a search per 1,000 512-d
 * vectors here; 54 ms at 50,000): for small caches and as the in-memory fallback.
 */
export class FlatIndex implements VectorIndex {
  readonly specificationVersion = "v1";
  readonly kind = KIND;
  readonly capabilities: VectorIndexCapabilities = Object.freeze({ persistent: false, shared: false });
  private dim: number;
  private readonly vectors = new Map<number, Float32Array>();

  constructor(options: { dimension?: number } = {}) {
    const dimension = options.dimension ?? 0;
    if (!isNonNegativeInteger(dimension)) throw new ValidationError("flat index: `dimension` must be a non-negative integer.");
    this.dim = dimension;
  }

  get dimension(): number {
    return this.dim;
  }

  async init(): Promise<void> {}

  async add(items: ReadonlyArray<{ id: number; vector: Float32Array }>): Promise<void> {
    const dimension = this.dim || items[0]?.vector.length || 0;
    for (const { vector } of items) {
      if (vector.length !== dimension) throw new DimensionMismatchError(dimension, vector.length, "flat index");
    }
    this.dim = dimension;
    for (const { id, vector } of items) this.vectors.set(id, Float32Array.from(vector));
  }

  async search(vector: Float32Array, topK: number): Promise<VectorHit[]> {
    const want = hitsWanted(topK);
    if (this.vectors.size === 0 || want === 0) return [];
    if (vector.length !== this.dim) throw new DimensionMismatchError(this.dim, vector.length, "flat index");
    const best: VectorHit[] = [];
    for (const [id, stored] of this.vectors) {
      const distance = 1 - dot(vector, stored);
      if (best.length === want && distance >= best[want - 1].distance) continue;
      // Insertion into the short sorted list of the best so far: topK is small.
      let at = best.length;
      while (at > 0 && best[at - 1].distance > distance) at--;
      best.splice(at, 0, { id, distance });
      if (best.length > want) best.pop();
    }
    return best;
  }

  async delete(ids: readonly number[]): Promise<void> {
    for (const id of ids) this.vectors.delete(id);
  }

  async lastId(): Promise<number> {
    let last = 0;
    for (const id of this.vectors.keys()) last = Math.max(last, id);
    return last;
  }

  async count(): Promise<number> {
    return this.vectors.size;
  }

  async clear(): Promise<void> {
    this.vectors.clear();
  }

  async flush(): Promise<void> {}

  async close(): Promise<void> {
    this.vectors.clear();
  }
}
