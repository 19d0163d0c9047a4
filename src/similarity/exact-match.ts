import type { EvaluationCandidate, EvaluationSource, SimilarityEvaluation } from "./types.js";

/** The default evaluation: a candidate counts only when its question is the request's question, verbatim. */
export class ExactMatchEvaluation implements SimilarityEvaluation {
  range(): readonly [number, number] {
    return [0, 1];
  }

  evaluation(src: EvaluationSource, cached: EvaluationCandidate): number {
    return src.question === cached.question ? 1 : 0;
  }
}
