import { ValidationError } from "../core/errors.js";
import { isPositiveInteger, isPositiveNumber } from "../core/validation.js";
import { cosineSimilarity } from "../core/vector-math.js";
import { BaseSimilarityEvaluation } from "./base.js";
import { clamp } from "../core/similarity-score.js";
import type { EvaluationCandidate, EvaluationContext, EvaluationSource } from "../core/contracts/evaluation.js";

export interface KReciprocalOptions {
  /** The query must be at least as near the candidate as the candidate's topK-th neighbour. Default 3. */
  topK?: number;
  /** Upper bound of the distance; the score is maxDistance - distance. Default 2 (cosine distance). */
  maxDistance?: number;
  /** Set when context.search returns similarities (larger = nearer) instead of distances. Default false. */
  positive?: boolean;
}

/**
 * GPTCache's KReciprocalEvaluation: a candidate is only trusted when the pair is mutually near, i.e. the
 * query is no farther from the candidate than the candidate's own topK-th nearest stored neighbour (the
 * candidate itself counts as its first hit, so topK + 1 are fetched). A mutually near pair scores by
 * distance, nearer = higher, on [0, maxDistance]; any other pair scores 0.
 *
 * Two fixes over GPTCache: a not-mutually-near pair scored the maximum there when `positive` was set, and an
 * index with fewer than topK + 1 entries compared against its farthest entry, rejecting true neighbours in
 * small caches; here such a candidate has no topK-th neighbour to lose to.
 */
export class KReciprocalEvaluation extends BaseSimilarityEvaluation {
  readonly topK: number;
  readonly maxDistance: number;
  readonly positive: boolean;

  constructor(options: KReciprocalOptions = {}) {
    super(options);
    const { topK = 3, maxDistance = 2, positive = false } = options;
    if (!isPositiveInteger(topK)) throw new ValidationError("KReciprocalEvaluation: `topK` must be a positive integer.");
    if (!isPositiveNumber(maxDistance)) {
      throw new ValidationError("KReciprocalEvaluation: `maxDistance` must be a positive number.");
    }
    this.topK = topK;
    this.maxDistance = maxDistance;
    this.positive = positive === true;
  }

  range(): readonly [number, number] {
    return [0, this.maxDistance];
  }

  async evaluation(src: EvaluationSource, cached: EvaluationCandidate, context?: EvaluationContext): Promise<number> {
    const search = context?.search;
    if (typeof search !== "function") {
      throw new ValidationError("KReciprocalEvaluation needs context.search (the cache's vector index) to find the candidate's neighbours.");
    }
    if (src.question === cached.question) return this.maxDistance;
    const query = src.embedding;
    const stored = cached.embedding ?? cached.record?.embedding;
    if (!(query instanceof Float32Array) || !(stored instanceof Float32Array)) {
      throw new ValidationError("KReciprocalEvaluation needs vector embeddings on both sides (not a string-key embedding).");
    }
    const value = cached.distance ?? this.#measure(query, stored);
    const neighbours = await search(stored, this.topK + 1);
    if (neighbours.length > this.topK) {
      const kth = neighbours[this.topK].distance;
      if (this.positive ? value < kth : value > kth) return 0;
    }
    const bounded = clamp(value, 0, this.maxDistance);
    return this.positive ? bounded : this.maxDistance - bounded;
  }

  /** What the index would report for this pair: cosine similarity, or cosine distance. */
  #measure(query: Float32Array, stored: Float32Array): number {
    const similarity = cosineSimilarity(query, stored);
    return this.positive ? similarity : 1 - similarity;
  }
}
