import type { SpecificationVersion } from "./specification.js";
import type { CacheRecord } from "../types.js";
import type { EmbeddingFunction } from "./embedding.js";
import type { VectorHit } from "./vector-index.js";

/** The incoming request's side of a comparison. */
export interface EvaluationSource {
  /** The request's question (the key text, or its store form). */
  question: string;
  /** The request's embedding (a normalised vector, or the key string for exact-match caches). */
  embedding?: Float32Array | string;
}

/** A stored candidate's side of a comparison. */
export interface EvaluationCandidate {
  question: string;
  answer: string;
  embedding?: Float32Array;
  /** Cosine distance to the query (0 for an exact key match): the search's, recomputed exactly where the cache's index rounds. */
  distance?: number;
  /** Epoch milliseconds the entry was stored. */
  createdAtMs?: number;
  record?: CacheRecord;
}

/** Everything else an evaluation may use. */
export interface EvaluationContext {
  /** Per-request arguments (cache_context.evaluation_func). */
  extra?: unknown;
  /** Searches the cache's vector index (k-reciprocal uses it); its distances are exact where the index rounds. */
  search?: (vector: Float32Array, topK: number) => Promise<VectorHit[]>;
  /** Epoch milliseconds "now" (time-based evaluations). */
  now?: number;
  /**
   * The embedding function that produced `src.embedding` and the candidates' embeddings (the cache's own):
   * an evaluation that embeds with the same function reuses those vectors instead of embedding again.
   */
  embeddingFunc?: EmbeddingFunction;
  /**
   * The other candidates this lookup judges (same partition, unexpired, visible to the session), each with
   * its distance (as `distance` above): an evaluation can tell a clear match from one about as near as another entry.
   */
  neighbours?: readonly EvaluationCandidate[];
  /**
   * The request being looked up, present only when a miss will call the model and store its answer (absent for
   * searchOnly and noStore requests): an evaluation that learns from outcomes (the error budget) asks to hear the
   * model's answer. One object per request, the same for every candidate it judges.
   */
  lookup?: LookupObserver;
}

/** A request's lookup, as an evaluation that learns from the model's answers sees it. */
export interface LookupObserver {
  /** `listener` hears the model's answer (as stored) when the request ends as a miss the model answered itself. */
  onModelAnswer(listener: (answer: string) => void): void;
}

/**
 * A similarity evaluation judges one candidate: a score within `range()`. The pipeline normalises the
 * score by the range to [0, 1] and compares it with the similarity threshold.
 */
export interface SimilarityEvaluation {
  /** The contract version the component was written against; none: v1 (see specification.ts). */
  readonly specificationVersion?: SpecificationVersion;
  range(): readonly [number, number];
  evaluation(src: EvaluationSource, cached: EvaluationCandidate, context?: EvaluationContext): number | Promise<number>;
  /**
   * Optional: a score `evaluation` never exceeds for the pair (within `range()`), cheaper to reach. The cache asks
   * for it first and judges the candidate in full only when the bound reaches its threshold: under it, the
   * candidate is a miss either way (the preset's bound is its score before the lexical vetoes, which only ever
   * lower a score to 0). An evaluation without it is always judged in full.
   */
  scoreBound?(src: EvaluationSource, cached: EvaluationCandidate, context?: EvaluationContext): number | Promise<number>;
}
