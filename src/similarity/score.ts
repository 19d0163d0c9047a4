import { DimensionMismatchError, ValidationError } from "../core/errors.js";
import { cosineSimilarity } from "../core/vector-math.js";
import type { EmbeddingOutput } from "../core/contracts/embedding.js";
import type { EvaluationCandidate, EvaluationSource, SimilarityEvaluation } from "../core/contracts/evaluation.js";

/** `value` limited to [min, max]; NaN becomes `min`, so a broken score can only ever be a miss. */
export function clamp(value: number, min: number, max: number): number {
  if (Number.isNaN(value)) return min;
  return Math.min(max, Math.max(min, value));
}

/**
 * Maps an evaluation's raw score to [0, 1] by its range, so one similarity threshold works for every
 * evaluation. Scores outside the range are clamped.
 */
export function normalizeScore(evaluation: SimilarityEvaluation, score: number): number {
  const [min, max] = evaluation.range();
  if (!Number.isFinite(min) || !Number.isFinite(max) || !(max > min)) {
    throw new ValidationError(`A similarity evaluation's range must be two finite numbers [min < max], got [${min}, ${max}].`);
  }
  return clamp((score - min) / (max - min), 0, 1);
}

/**
 * Similarity of two embedding outputs in [0, 1]: cosine similarity (negative clamped to 0) for vectors,
 * equality for the string keys of exact-match embeddings, 0 for a string against a vector, and undefined
 * when either side is missing (the caller decides the fallback).
 */
export function embeddingSimilarity(
  a: EmbeddingOutput | undefined,
  b: EmbeddingOutput | undefined,
): number | undefined {
  if (a === undefined || b === undefined) return undefined;
  if (typeof a === "string" || typeof b === "string") return a === b ? 1 : 0;
  if (a.length !== b.length) throw new DimensionMismatchError(a.length, b.length, "compared embedding");
  return clamp(cosineSimilarity(a, b), 0, 1);
}

/**
 * Cosine similarity of a candidate to the query: 1 - its search distance when it carries one (no vector maths
 * on the hit path), else from the two embeddings as embeddingSimilarity compares them.
 */
export function similarityToQuery(src: EvaluationSource, candidate: EvaluationCandidate): number | undefined {
  if (typeof candidate.distance === "number") return 1 - candidate.distance;
  return embeddingSimilarity(src.embedding, candidate.embedding ?? candidate.record?.embedding);
}
