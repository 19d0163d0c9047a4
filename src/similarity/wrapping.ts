import type { RunnableConfig } from "@langchain/core/runnables";
import { BaseSimilarityEvaluation, type EvaluationPair } from "./base.js";
import { normalizeScore } from "../core/similarity-score.js";
import type { EvaluationCandidate, EvaluationContext, EvaluationSource, SimilarityEvaluation } from "../core/contracts/evaluation.js";

/**
 * An evaluation over another one (the inner): the ambiguity share, the grey band, the error budget. The inner
 * score, computed directly on the hit path or inside a run (so a judge model's run nests under this one), is
 * normalised to [0, 1] and handed to `judge`; synchronous when the inner evaluation is (an exact hit's path).
 * As a Runnable, the inner evaluation completes the pair (embeds bare questions, or refuses them).
 */
export abstract class WrappingEvaluation extends BaseSimilarityEvaluation {
  readonly inner: SimilarityEvaluation;

  protected constructor(fields: object, inner: SimilarityEvaluation) {
    super(fields);
    this.inner = inner;
  }

  /** Serialises the wrapped evaluation under its option name (`evaluation` is also this class's method). */
  override get lc_attributes(): Record<string, unknown> {
    return { evaluation: this.inner };
  }

  range(): readonly [number, number] {
    return [0, 1];
  }

  evaluation(src: EvaluationSource, cached: EvaluationCandidate, context?: EvaluationContext): number | Promise<number> {
    return this.#judgeScore(src, cached, context, this.inner.evaluation(src, cached, context), {});
  }

  protected override evaluateWithConfig(
    src: EvaluationSource,
    cached: EvaluationCandidate,
    context: EvaluationContext | undefined,
    config: RunnableConfig,
  ): number | Promise<number> {
    return this.#judgeScore(src, cached, context, BaseSimilarityEvaluation.evaluateWithin(this.inner, src, cached, context, config), config);
  }

  protected override completePair(pair: EvaluationPair): EvaluationPair | Promise<EvaluationPair> {
    return BaseSimilarityEvaluation.completeWithin(this.inner, pair);
  }

  /** This evaluation's score from the inner one's, normalised to [0, 1]. */
  protected abstract judge(
    src: EvaluationSource,
    cached: EvaluationCandidate,
    context: EvaluationContext | undefined,
    score: number,
    config: RunnableConfig,
  ): number | Promise<number>;

  #judgeScore(
    src: EvaluationSource,
    cached: EvaluationCandidate,
    context: EvaluationContext | undefined,
    raw: number | Promise<number>,
    config: RunnableConfig,
  ): number | Promise<number> {
    const judge = (value: number) => this.judge(src, cached, context, normalizeScore(this.inner, value), config);
    return typeof raw === "number" ? judge(raw) : raw.then(judge);
  }
}
