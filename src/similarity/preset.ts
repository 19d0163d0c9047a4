import type { PairEmbeddingOptions } from "./pair-embeddings.js";
import { PrecisionGuardEvaluation } from "./precision-guard.js";
import tuning from "./preset-tuning.json" with { type: "json" };
import { UnambiguousEvaluation } from "./unambiguous.js";

/**
 * The semantic preset's similarity threshold for `presetEvaluation()`, picked with its temperature on the QQP
 * tune split by scripts/tune-preset.ts (src/similarity/preset-tuning.json; figures in docs/benchmarks.md).
 */
export const DEFAULT_PRESET_THRESHOLD: number = tuning.threshold;

/** Options of `presetEvaluation`. */
export type PresetEvaluationOptions = PairEmbeddingOptions;

/**
 * The judge of `initSimilarCache` with its default embedding: the precision guard blended half and half with
 * the cosine (the guard reads Quora-style questions; the cosine carries over to other text), weighed by the
 * candidate's share among rival candidates with other answers. Pairs the guard vetoes (a different number,
 * name, negation or opposite action) score 0.
 *
 * Outside a cache, invoked with bare questions, it embeds them with `embeddings` (the cache's model: the
 * guard was fitted on the offline USE model's vectors); without it such a call is a ValidationError.
 */
export function presetEvaluation(options: PresetEvaluationOptions = {}): UnambiguousEvaluation {
  const { embeddings } = options;
  return new UnambiguousEvaluation({
    // Only when given: an evaluation's options are its serialised kwargs.
    evaluation: new PrecisionGuardEvaluation({ cosineWeight: tuning.cosineWeight, ...(embeddings === undefined ? {} : { embeddings }) }),
    temperature: tuning.temperature,
  });
}
