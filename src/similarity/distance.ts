import { clamp, similarityToQuery } from "../core/similarity-score.js";
import { BaseSimilarityEvaluation, type EvaluationPair } from "./base.js";
import { PairEmbedder, type PairEmbeddingOptions } from "./pair-embeddings.js";
import type { EvaluationCandidate, EvaluationSource } from "../core/contracts/evaluation.js";

export type DistanceEvaluationOptions = PairEmbeddingOptions;

/**
 * Scores a candidate by cosine similarity, clamped to [0, 1] (GPTCache's SearchDistanceEvaluation, on a
 * fixed range so the threshold reads as a similarity). Uses the search's distance when the candidate
 * carries one, so no vector maths is repeated on the hit path; otherwise compares the two embeddings
 * (string keys by equality), and without embeddings falls back to comparing the questions.
 *
 * As a Runnable, a pair without a distance or both embeddings is embedded with `embeddings`, or refused
 * (ValidationError) when none was given: a score from the question text alone would read as "unrelated".
 */
export class DistanceEvaluation extends BaseSimilarityEvaluation {
  readonly #embedder: PairEmbedder;

  constructor(options: DistanceEvaluationOptions = {}) {
    super(options);
    this.#embedder = new PairEmbedder("DistanceEvaluation", options.embeddings);
  }

  range(): readonly [number, number] {
    return [0, 1];
  }

  evaluation(src: EvaluationSource, cached: EvaluationCandidate): number {
    const similarity = similarityToQuery(src, cached);
    if (similarity !== undefined) return clamp(similarity, 0, 1);
    return src.question === cached.question ? 1 : 0;
  }

  protected override completePair(pair: EvaluationPair): EvaluationPair | Promise<EvaluationPair> {
    const { src, cached } = pair;
    // A string key (an exact-match cache's embedding) stands for its question: the text comparison is the score.
    if (typeof src.embedding === "string" || similarityToQuery(src, cached) !== undefined) return pair;
    return this.#embedder.complete(pair, { query: src.embedding === undefined, stored: (cached.embedding ?? cached.record?.embedding) === undefined });
  }
}
