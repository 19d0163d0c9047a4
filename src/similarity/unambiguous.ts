import { WrappingEvaluation } from "./wrapping.js";
import { ValidationError } from "../core/errors.js";
import { BaseSimilarityEvaluation, type EvaluationPair } from "./base.js";
import { DistanceEvaluation } from "./distance.js";
import { innerEvaluation } from "./options.js";
import { positiveNumber } from "../core/validation.js";
import { normalizeScore, similarityToQuery } from "../core/similarity-score.js";
import { sameQuestionText } from "./text-equality.js";
import type { EvaluationCandidate, EvaluationContext, EvaluationSource, SimilarityEvaluation } from "../core/contracts/evaluation.js";

export interface UnambiguousEvaluationOptions {
  /** The evaluation whose normalised score is weighed by the candidate's share. Default DistanceEvaluation. */
  evaluation?: SimilarityEvaluation;
  /**
   * Softmax temperature, in units of cosine similarity: how much nearer than its rivals a candidate must be
   * to keep its score. Default 0.02: on the QQP tune split, 0.015 to 0.03 keep recall within a point of each
   * other (the preset reads its own from preset-tuning.json; docs/benchmarks.md, Quality).
   */
  temperature?: number;
}

export const DEFAULT_AMBIGUITY_TEMPERATURE = 0.02;

/**
 * Scores a candidate by another evaluation's score times the candidate's share of the lookup: the softmax of
 * its cosine similarity against its rivals', where a rival is another candidate of the same lookup
 * (`context.neighbours`) with a different answer to a different question. A stored question that is about as
 * near as another stored question with another answer is ambiguous: which answer is right cannot be told from
 * the embedding, so it loses most of its score. A clear nearest match keeps it all.
 *
 * Candidates that share the answer, or ask the very same question, are not rivals: either answer is right.
 * Without neighbours (an exact-key hit, a one-candidate lookup, a call outside the cache) the share is 1 and
 * the score is the inner evaluation's.
 *
 * As a Runnable, the inner evaluation completes the pair (an embedding evaluation embeds the questions with
 * its `embeddings`, or refuses); a rival in `context.neighbours` with neither a distance nor an embedding is a
 * ValidationError, since the share cannot weigh it.
 */
export class UnambiguousEvaluation extends WrappingEvaluation {
  static override lc_name(): string {
    return "UnambiguousEvaluation";
  }

  readonly temperature: number;

  constructor(options: UnambiguousEvaluationOptions = {}) {
    super(options, innerEvaluation("UnambiguousEvaluation", options.evaluation ?? new DistanceEvaluation()));
    this.temperature = positiveNumber("UnambiguousEvaluation: `temperature`", options.temperature, DEFAULT_AMBIGUITY_TEMPERATURE);
  }

  protected override async completePair(pair: EvaluationPair): Promise<EvaluationPair> {
    const completed = await BaseSimilarityEvaluation.completeWithin(this.inner, pair);
    const { src, cached, context } = completed;
    const neighbours = context?.neighbours ?? [];
    if (neighbours.length === 0 || sameQuestionText(src.question, cached.question) || typeof src.embedding === "string") return completed;
    const unmeasured = [cached, ...neighbours.filter((other) => isRival(other, cached))].some((candidate) => nearness(src, candidate) === undefined);
    if (unmeasured) {
      throw new ValidationError(
        "UnambiguousEvaluation: with context.neighbours, the candidate and each rival need a `distance` or an `embedding` (and src an `embedding`) for the share.",
      );
    }
    return completed;
  }

  /**
   * The candidate's softmax share among itself and its rivals: 1 / (1 + sum of exp((rival - candidate) / T))
   * over cosine similarities (the stable form of exp(c/T) / sum exp(x/T)).
   */
  share(src: EvaluationSource, cached: EvaluationCandidate, neighbours: readonly EvaluationCandidate[] = []): number {
    if (neighbours.length === 0 || sameQuestionText(src.question, cached.question)) return 1;
    const own = nearness(src, cached);
    if (own === undefined) return 1;
    let rivals = 0;
    for (const other of neighbours) {
      if (!isRival(other, cached)) continue;
      const similarity = nearness(src, other);
      if (similarity !== undefined) rivals += Math.exp((similarity - own) / this.temperature);
    }
    return 1 / (1 + rivals);
  }

  /** The inner score times the share. */
  protected judge(src: EvaluationSource, cached: EvaluationCandidate, context: EvaluationContext | undefined, score: number): number {
    return score * this.share(src, cached, context?.neighbours);
  }

  /**
   * The inner evaluation's bound times the share (a bound because `judge` never lowers its output as the score
   * rises); without an inner bound, the top of the range (no bound).
   */
  scoreBound(src: EvaluationSource, cached: EvaluationCandidate, context?: EvaluationContext): number | Promise<number> {
    const inner = this.inner.scoreBound?.(src, cached, context);
    if (inner === undefined) return 1;
    const weigh = (bound: number) => this.judge(src, cached, context, normalizeScore(this.inner, bound));
    return typeof inner === "number" ? weigh(inner) : inner.then(weigh);
  }
}

/** Another candidate that would answer differently: not the same answer, nor the same question. */
function isRival(other: EvaluationCandidate, cached: EvaluationCandidate): boolean {
  return other.answer !== cached.answer && !sameQuestionText(other.question, cached.question);
}

/** How near a candidate is to the query, for the share: exact-match keys compared by equality say nothing. */
function nearness(src: EvaluationSource, candidate: EvaluationCandidate): number | undefined {
  if (typeof src.embedding === "string" && typeof candidate.distance !== "number") return undefined;
  return similarityToQuery(src, candidate);
}
