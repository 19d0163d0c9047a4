import type { CallbackManagerForChainRun } from "@langchain/core/callbacks/manager";
import { patchConfig, Runnable, type RunnableConfig } from "@langchain/core/runnables";
import { ValidationError } from "../core/errors.js";
import { normalizeScore } from "../core/similarity-score.js";
import type { EvaluationCandidate, EvaluationContext, EvaluationSource, SimilarityEvaluation } from "../core/contracts/evaluation.js";

/** Both sides of one comparison as the cache hands them over, plus what the evaluation may use (search, now). */
export interface EvaluationPair {
  src: EvaluationSource;
  cached: EvaluationCandidate;
  context?: EvaluationContext;
}

/** Two questions, for use outside the cache (a router, a dataset check, an evaluator in a chain). */
export interface EvaluationQuestions {
  question: string;
  cachedQuestion: string;
  /** The stored answer, for evaluations that compare the question with it. Default "". */
  cachedAnswer?: string;
}

/** What an evaluation's `invoke` accepts. */
export type EvaluationInput = EvaluationPair | EvaluationQuestions;

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null;
}

/** The pipeline's shapes for either input form; a ValidationError for anything else. */
export function toEvaluationPair(input: EvaluationInput): EvaluationPair {
  if (isObject(input) && "src" in input) {
    const { src, cached, context } = input as EvaluationPair;
    const valid = isObject(src) && typeof src.question === "string" && isObject(cached) && typeof cached.question === "string";
    if (valid && (context === undefined || isObject(context))) return context === undefined ? { src, cached } : { src, cached, context };
  } else if (isObject(input)) {
    const { question, cachedQuestion, cachedAnswer = "" } = input as Partial<EvaluationQuestions>;
    if (typeof question === "string" && typeof cachedQuestion === "string" && typeof cachedAnswer === "string") {
      return { src: { question }, cached: { question: cachedQuestion, answer: cachedAnswer } };
    }
  }
  throw new ValidationError(
    "A similarity evaluation takes { src: { question }, cached: { question, answer }, context? } or { question, cachedQuestion, cachedAnswer? }.",
  );
}

/**
 * True for values LangChain can serialise faithfully: plain data, or Serializable objects that say they
 * are. An embedding client or a user function is not: serialising it would at best lose it and at worst
 * copy an API key into a trace, so an evaluation holding one serialises as "not implemented".
 */
function isSerializableValue(value: unknown): boolean {
  if (value === null || ["undefined", "string", "number", "boolean"].includes(typeof value)) return true;
  if (Array.isArray(value)) return value.every(isSerializableValue);
  if (!isObject(value)) return false;
  if (typeof value.toJSON === "function" && "lc_serializable" in value) return value.lc_serializable === true;
  const prototype = Object.getPrototypeOf(value);
  return (prototype === Object.prototype || prototype === null) && Object.values(value).every(isSerializableValue);
}

/**
 * The base of this package's similarity evaluations: each is both what the cache asks to judge a candidate
 * (`range()` and `evaluation()`, called directly on the hit path, with no Runnable machinery) and a LangChain
 * `Runnable` from an EvaluationInput to a score, so it can be piped, batched, traced and configured like any
 * other step of a chain.
 *
 * `invoke` returns the score normalised to [0, 1] by the range (as the cache compares it with its
 * similarityThreshold): a chain that routes on a score, or swaps one evaluation for another, should not
 * need to know that k-reciprocal scores on [0, 2] and the others on [0, 1].
 *
 * Constructor options become the serialised kwargs; an evaluation whose options are all plain data or
 * serialisable LangChain objects serialises (and loads back with `load` from `@langchain/core/load`, given
 * `optionalImportsMap: { "langchain_semcache/similarity": { ...the classes } }`).
 */
export abstract class BaseSimilarityEvaluation extends Runnable<EvaluationInput, number> implements SimilarityEvaluation {
  lc_namespace = ["langchain_semcache", "similarity"];

  constructor(fields: object = {}) {
    super(fields as Record<string, unknown>);
    this.lc_serializable = Object.values(fields).every(isSerializableValue);
  }

  abstract range(): readonly [number, number];

  abstract evaluation(src: EvaluationSource, cached: EvaluationCandidate, context?: EvaluationContext): number | Promise<number>;

  /** The normalised score of one pair, as a run that callbacks and tracers see. */
  override async invoke(input: EvaluationInput, options?: Partial<RunnableConfig>): Promise<number> {
    return this._callWithConfig(
      (value: EvaluationInput, config?: Partial<RunnableConfig>, runManager?: CallbackManagerForChainRun) =>
        this.#score(value, config ?? {}, runManager),
      input,
      options,
    );
  }

  /**
   * Scores a pair inside a run. Evaluations that call LangChain components (a judge model) override it to
   * pass `config` on: it carries the run's child callbacks, tags and abort signal.
   */
  protected evaluateWithConfig(
    src: EvaluationSource,
    cached: EvaluationCandidate,
    context: EvaluationContext | undefined,
    _config: RunnableConfig,
  ): number | Promise<number> {
    return this.evaluation(src, cached, context);
  }

  /**
   * Runnable calls only (the cache's `evaluation()` calls never come here): what the evaluation reads that a
   * pair given outside the cache may lack, filled in (an evaluation that compares embeddings embeds the
   * questions with its `embeddings`) or refused with a ValidationError, so that a bare pair never scores as
   * if its vectors were far apart. Default: the pair as given.
   */
  protected completePair(pair: EvaluationPair): EvaluationPair | Promise<EvaluationPair> {
    return pair;
  }

  /** Completes a pair for `evaluation` (a wrapper's inner one): through its completePair when it has one. */
  protected static completeWithin(evaluation: SimilarityEvaluation, pair: EvaluationPair): EvaluationPair | Promise<EvaluationPair> {
    return evaluation instanceof BaseSimilarityEvaluation ? evaluation.completePair(pair) : pair;
  }

  /** Scores a pair with `evaluation` inside a run: through its evaluateWithConfig when it has one (wrappers use this). */
  protected static evaluateWithin(
    evaluation: SimilarityEvaluation,
    src: EvaluationSource,
    cached: EvaluationCandidate,
    context: EvaluationContext | undefined,
    config: RunnableConfig,
  ): number | Promise<number> {
    return evaluation instanceof BaseSimilarityEvaluation
      ? evaluation.evaluateWithConfig(src, cached, context, config)
      : evaluation.evaluation(src, cached, context);
  }

  async #score(input: EvaluationInput, config: Partial<RunnableConfig>, runManager?: CallbackManagerForChainRun): Promise<number> {
    const { src, cached, context } = await this.completePair(toEvaluationPair(input));
    const childConfig = patchConfig(config, { callbacks: runManager?.getChild() });
    return normalizeScore(this, await this.evaluateWithConfig(src, cached, context, childConfig));
  }
}
