import { DimensionMismatchError } from "./errors.js";
import { clamp } from "./score.js";
import { cosineSimilarity } from "./vector-math.js";
import type { EmbeddingOutput } from "./contracts/embedding.js";
import type { EvaluationCandidate, EvaluationSource } from "./contracts/evaluation.js";

// The kernel normalises every evaluation's score; the helpers live there and are re-exported for the evaluations.
export { clamp, normalizeScore } from "./score.js";

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
 * Cosine similarity of a candidate to the query: 1 - its distance when it carries one (the search's, exact even
 * where the index rounds: the flow re-scores those), else from the two embeddings as embeddingSimilarity compares them.
 */
export function similarityToQuery(src: EvaluationSource, candidate: EvaluationCandidate): number | undefined {
  if (typeof candidate.distance === "number") return 1 - candidate.distance;
  return embeddingSimilarity(src.embedding, candidate.embedding ?? candidate.record?.embedding);
}
