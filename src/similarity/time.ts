import type { RunnableConfig } from "@langchain/core/runnables";
import { innerEvaluation } from "./options.js";
import { positiveNumber } from "../core/validation.js";
import { BaseSimilarityEvaluation, type EvaluationPair } from "./base.js";
import type { EvaluationCandidate, EvaluationContext, EvaluationSource, SimilarityEvaluation } from "../core/contracts/evaluation.js";

export interface TimeEvaluationOptions {
  /** The evaluation that scores candidates young enough to be used. */
  evaluation: SimilarityEvaluation;
  /** Seconds a stored answer stays usable. Default 86400 (one day), as in GPTCache. */
  timeRangeSeconds?: number;
}

/**
 * Restricts another evaluation to recent entries (answers about news, prices, ...): a candidate older
 * than `timeRangeSeconds`, or one whose age is unknown, scores the inner range's minimum.
 */
export class TimeEvaluation extends BaseSimilarityEvaluation {
  readonly inner: SimilarityEvaluation;
  readonly timeRangeSeconds: number;

  constructor(options: TimeEvaluationOptions) {
    super(options ?? {});
    this.inner = innerEvaluation("TimeEvaluation", options?.evaluation);
    this.timeRangeSeconds = positiveNumber("TimeEvaluation: `timeRangeSeconds`", options.timeRangeSeconds, 86400);
  }

  /** Serialises the wrapped evaluation under its option name (`evaluation` is also this class's method). */
  override get lc_attributes(): Record<string, unknown> {
    return { evaluation: this.inner };
  }

  range(): readonly [number, number] {
    return this.inner.range();
  }

  evaluation(src: EvaluationSource, cached: EvaluationCandidate, context?: EvaluationContext): number | Promise<number> {
    return this.#isStale(cached, context) ? this.range()[0] : this.inner.evaluation(src, cached, context);
  }

  protected override evaluateWithConfig(
    src: EvaluationSource,
    cached: EvaluationCandidate,
    context: EvaluationContext | undefined,
    config: RunnableConfig,
  ): number | Promise<number> {
    if (this.#isStale(cached, context)) return this.range()[0];
    return BaseSimilarityEvaluation.evaluateWithin(this.inner, src, cached, context, config);
  }

  /** A stale candidate scores the minimum whatever the inner evaluation would need; a fresh one is the inner's to complete. */
  protected override completePair(pair: EvaluationPair): EvaluationPair | Promise<EvaluationPair> {
    return this.#isStale(pair.cached, pair.context) ? pair : BaseSimilarityEvaluation.completeWithin(this.inner, pair);
  }

  #isStale(cached: EvaluationCandidate, context?: EvaluationContext): boolean {
    const createdAtMs = cached.createdAtMs ?? cached.record?.createdAtMs;
    const now = context?.now ?? Date.now();
    return typeof createdAtMs !== "number" || (now - createdAtMs) / 1000 > this.timeRangeSeconds;
  }
}
