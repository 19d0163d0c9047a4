import { ValidationError } from "../../src/core/errors.js";
import type { EmbeddingFunction, EmbeddingInput } from "../../src/core/contracts/embedding.js";
import { DIMENSION } from "./vectors.js";

/**
 * An embedding that returns the vector it was given for each text, so benchmarks time the cache and not a
 * model (the offline model alone takes ~18 ms per text).
 */
export class PrecomputedEmbedding implements EmbeddingFunction {
  readonly dimension = DIMENSION;
  private readonly vectors = new Map<string, Float32Array>();

  set(text: string, vector: Float32Array): void {
    if (vector.length !== this.dimension) throw new ValidationError(`expected ${this.dimension} values, got ${vector.length}`);
    this.vectors.set(text, vector);
  }

  async embed(data: EmbeddingInput): Promise<Float32Array> {
    return this.lookup(data);
  }

  async embedBatch(data: readonly EmbeddingInput[]): Promise<Float32Array[]> {
    return data.map((item) => this.lookup(item));
  }

  private lookup(data: EmbeddingInput): Float32Array {
    const vector = typeof data === "string" ? this.vectors.get(data) : undefined;
    if (!vector) throw new ValidationError(`no precomputed vector for ${JSON.stringify(String(data).slice(0, 80))}`);
    return vector;
  }
}
