import { clamp, similarityToQuery } from "./score.js";
import { BaseSimilarityEvaluation } from "./base.js";
import type { EvaluationCandidate, EvaluationSource } from "./types.js";

/**
 * Scores a candidate by cosine similarity, clamped to [0, 1] (GPTCache's SearchDistanceEvaluation, on a
 * fixed range so the threshold reads as a similarity). Uses the search's distance when the candidate
 * carries one, so no vector maths is repeated on the hit path; otherwise compares the two embeddings
 * (string keys by equality), and without embeddings falls back to comparing the questions.
 */
export class DistanceEvaluation extends BaseSimilarityEvaluation {
  range(): readonly [number, number] {
    return [0, 1];
  }

  evaluation(src: EvaluationSource, cached: EvaluationCandidate): number {
    const similarity = similarityToQuery(src, cached);
    if (similarity !== undefined) return clamp(similarity, 0, 1);
    return src.question === cached.question ? 1 : 0;
  }
}
