import type { SpecificationVersion } from "./specification.js";

/** What an embedding function takes: key text, or bytes (audio files, images). */
export type EmbeddingInput = string | Uint8Array;

/** What it returns: a vector, or a string key for exact-match caches (the passthrough embedding). */
export type EmbeddingOutput = Float32Array | string;

/** The cache's embedding step. LangChain `Embeddings` and plain functions are adapted to it. */
export interface EmbeddingFunction {
  /** The contract version the component was written against; none: v1 (see specification.ts). */
  readonly specificationVersion?: SpecificationVersion;
  /** Vector length; 0 for embeddings that return string keys. */
  readonly dimension: number;
  /**
   * Longest text (JavaScript string length) embedded whole; the model truncates longer ones. The cache refuses
   * longer questions before embedding them (a truncated one could match another question). None: no limit.
   */
  readonly maxInputLength?: number;
  embed(data: EmbeddingInput, extra?: unknown): Promise<EmbeddingOutput>;
  /** Loads the model or probes the dimension, so `dimension` is known before the first embed; optional. */
  init?(): Promise<void>;
  /** Embeds many at once (importData, batched lookups); optional. */
  embedBatch?(data: readonly EmbeddingInput[]): Promise<EmbeddingOutput[]>;
}
