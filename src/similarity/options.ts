import { ValidationError } from "../core/errors.js";
import type { SimilarityEvaluation } from "../core/contracts/evaluation.js";

/** The evaluation a wrapper scores with, checked to have range() and evaluation(). */
export function innerEvaluation(owner: string, value: unknown): SimilarityEvaluation {
  const inner = value as Partial<SimilarityEvaluation> | undefined;
  if (typeof inner?.evaluation !== "function" || typeof inner.range !== "function") {
    throw new ValidationError(`${owner}: \`evaluation\` must be a similarity evaluation (range() and evaluation()).`);
  }
  return inner as SimilarityEvaluation;
}
