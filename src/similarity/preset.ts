import { PrecisionGuardEvaluation } from "./precision-guard.js";
import tuning from "./preset-tuning.json" with { type: "json" };
import { UnambiguousEvaluation } from "./unambiguous.js";

/**
 * The semantic preset's similarity threshold for `presetEvaluation()`, picked with its temperature on the QQP
 * tune split by scripts/tune-preset.ts (src/similarity/preset-tuning.json; figures in docs/benchmarks.md).
 */
export const DEFAULT_PRESET_THRESHOLD: number = tuning.threshold;

/**
 * The judge of `initSimilarCache` with its default embedding: the precision guard blended half and half with
 * the cosine (the guard reads Quora-style questions; the cosine carries over to other text), weighed by the
 * candidate's share among rival candidates with other answers. Pairs the guard vetoes (a different number,
 * name, negation or opposite action) score 0.
 */
export function presetEvaluation(): UnambiguousEvaluation {
  return new UnambiguousEvaluation({
    evaluation: new PrecisionGuardEvaluation({ cosineWeight: tuning.cosineWeight }),
    temperature: tuning.temperature,
  });
}
