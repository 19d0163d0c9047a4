import { ValidationError } from "../core/errors.js";
import type { SimilarityEvaluation } from "../core/contracts/evaluation.js";

/**
 * An integer option of an evaluation or processor (a cache size, a count, a length): `value`, or `fallback`
 * when not given, checked to be an integer of at least `min`.
 */
export function integerOption(owner: string, name: string, value: number | undefined, fallback: number, min: number): number {
  const result = value ?? fallback;
  if (!Number.isInteger(result) || result < min) {
    throw new ValidationError(`${owner}: \`${name}\` must be an integer of at least ${min}.`);
  }
  return result;
}

/** A positive, finite number option (a time range, a temperature): `value`, or `fallback` when not given. */
export function positiveOption(owner: string, name: string, value: unknown, fallback: number): number {
  const result = value ?? fallback;
  if (typeof result !== "number" || !(result > 0) || !Number.isFinite(result)) {
    throw new ValidationError(`${owner}: \`${name}\` must be a positive number.`);
  }
  return result;
}

/** The evaluation a wrapper scores with, checked to have range() and evaluation(). */
export function innerEvaluation(owner: string, value: unknown): SimilarityEvaluation {
  const inner = value as Partial<SimilarityEvaluation> | undefined;
  if (typeof inner?.evaluation !== "function" || typeof inner.range !== "function") {
    throw new ValidationError(`${owner}: \`evaluation\` must be a similarity evaluation (range() and evaluation()).`);
  }
  return inner as SimilarityEvaluation;
}
