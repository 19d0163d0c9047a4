import { ValidationError } from "./errors.js";
import type { SimilarityEvaluation } from "./contracts/evaluation.js";

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
