import { BaseSimilarityEvaluation } from "./base.js";
import type { EvaluationCandidate, EvaluationSource } from "../core/contracts/evaluation.js";

/** The default evaluation: a candidate counts only when its question is the request's question, verbatim. */
export class ExactMatchEvaluation extends BaseSimilarityEvaluation {
  range(): readonly [number, number] {
    return [0, 1];
  }

  evaluation(src: EvaluationSource, cached: EvaluationCandidate): number {
    return src.question === cached.question ? 1 : 0;
  }
}
