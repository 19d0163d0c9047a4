import { WrappingEvaluation } from "./wrapping.js";
import { embeddingAnswerJudge, verifierAnswerJudge, type AnswerJudge } from "./answer-equivalence.js";
import { ErrorBudget, type ErrorBudgetOptions } from "./error-budget.js";
import type { RateEstimate, SigmoidFit } from "./error-budget-stats.js";
import type { JudgeModel } from "./llm-judge.js";
import { innerEvaluation } from "./options.js";
import type { EvaluationCandidate, EvaluationContext, EvaluationSource, LookupObserver, SimilarityEvaluation } from "../core/contracts/evaluation.js";

export interface ErrorBudgetEvaluationOptions extends Omit<ErrorBudgetOptions, "maxErrorRate"> {
  /** The evaluation whose normalised score the budget learns thresholds on. */
  evaluation: SimilarityEvaluation;
  /** δ: the false-hit rate (wrong hits / hits) to stay under, e.g. 0.02. */
  maxErrorRate: number;
  /**
   * Whether the model's fresh answer and the entry's stored one are equivalent. Default: `verifier` when given,
   * else the answers' embeddings (the cache's own embedding function) with cosine >= 0.9.
   */
  answerJudge?: AnswerJudge;
  /** A chat model that compares the two answers (verifierAnswerJudge), when no answerJudge is given. */
  verifier?: JudgeModel;
  /** Scores below this (normalised) are misses without a decision or an observation. Default 0. */
  minScore?: number;
  /** Told of each failed comparison (the observation is then dropped). */
  onError?: (error: unknown) => void;
}

/** The error budget's figures, as `cache.report` (under `errorBudget`), /stats and /metrics show them. */
export interface ErrorBudgetStats {
  maxErrorRate: number;
  /** The false-hit rate of served hits, from the audited sample, with its interval. */
  estimate: RateEstimate;
  /** Whether the interval's upper bound is under the budget (false while the sample is small). */
  withinBudget: boolean;
  /** Lookups the budget decided (the nearest candidate of each). */
  decisions: number;
  served: number;
  /** Explored because the fit was not sure enough. */
  explored: number;
  /** Explored although the fit would serve (the audit sample). */
  audited: number;
  /** (explored + audited) / decisions: the share of would-be lookups sent to the model. */
  sampleShare: number;
  /** Outcomes compared and learned from, and comparisons waiting for their answer or judge now. */
  observations: number;
  pendingComparisons: number;
  failedComparisons: number;
  /** The pooled fit's threshold (where an entry without history starts) and the entries with history. */
  pooledThreshold: number;
  entries: number;
  /** The most recently learned entries' thresholds (entry = the cache entry's id). */
  thresholds: Array<{ entry: string; threshold: number; observations: number }>;
}

/** What one request's lookup decided, shared by the candidates it judges. */
interface LookupState {
  exploring: boolean;
}

/**
 * An error budget on a similarity evaluation (DESIGN section 10; the method of vCache, Schroeder et al. 2025,
 * reimplemented). Only the nearest candidate of a lookup may be served. For it, the budget's per-entry sigmoid
 * decides: serve (the inner score passes through; the cache's similarityThreshold is then a floor, so set it
 * low, e.g. 0.5), or explore (score 0: a miss; the model answers, its answer is compared with the entry's by
 * the answer judge, and the entry learns). A small `auditShare` of would-be hits is explored too: their
 * outcomes estimate the false-hit rate of served hits, with a Wilson interval, in `stats`.
 *
 * Exploring needs a request that calls the model and stores its answer: on searchOnly (get) and noStore
 * requests the budget serves only where its fit is confident, and learns nothing.
 *
 * @example
 * ```ts
 * const evaluation = new ErrorBudgetEvaluation({ evaluation: new DistanceEvaluation(), maxErrorRate: 0.02 });
 * await cache.init({ embeddingFunc, dataManager, similarityEvaluation: evaluation, config: { similarityThreshold: 0.5 } });
 * // ... later
 * cache.report.toJSON().errorBudget; // { estimate: { rate, lower, upper, samples }, sampleShare, thresholds, ... }
 * ```
 */
export class ErrorBudgetEvaluation extends WrappingEvaluation {
  static override lc_name(): string {
    return "ErrorBudgetEvaluation";
  }

  readonly reportName = "errorBudget";
  readonly budget: ErrorBudget;
  readonly minScore: number;
  readonly #answerJudge?: AnswerJudge;
  readonly #onError?: (error: unknown) => void;
  readonly #lookups = new WeakMap<LookupObserver, LookupState>();
  readonly #pending = new Set<Promise<void>>();
  #failed = 0;

  constructor(options: ErrorBudgetEvaluationOptions) {
    super(options ?? {}, innerEvaluation("ErrorBudgetEvaluation", options?.evaluation));
    const { answerJudge, verifier, minScore = 0, onError, ...budget } = options ?? ({} as ErrorBudgetEvaluationOptions);
    this.budget = new ErrorBudget(budget);
    this.minScore = minScore;
    this.#answerJudge = answerJudge ?? (verifier ? verifierAnswerJudge(verifier) : undefined);
    this.#onError = onError;
  }

  /** Resolves once no comparison is in flight (await it before reading the stats in a test or a replay). */
  async settled(): Promise<void> {
    while (this.#pending.size > 0) await Promise.allSettled([...this.#pending]);
  }

  get stats(): ErrorBudgetStats {
    const { counts, maxErrorRate } = this.budget;
    const estimate = this.budget.estimate();
    const sampled = counts.explored + counts.audited;
    return {
      maxErrorRate,
      estimate,
      withinBudget: estimate.samples > 0 && estimate.upper <= maxErrorRate,
      decisions: counts.decisions,
      served: counts.served,
      explored: counts.explored,
      audited: counts.audited,
      sampleShare: counts.decisions === 0 ? 0 : sampled / counts.decisions,
      observations: counts.observations,
      pendingComparisons: this.#pending.size,
      failedComparisons: this.#failed,
      pooledThreshold: this.budget.thresholdOf(this.budget.pooledFit),
      entries: this.budget.entries,
      thresholds: this.budget.thresholds().map(({ entry, threshold, observations }) => ({ entry, threshold, observations })),
    };
  }

  /** The report's section (`cache.report.toJSON().errorBudget`). */
  reportSection(): ErrorBudgetStats {
    return this.stats;
  }

  /** The pooled sigmoid now (for plots and tests). */
  get pooledFit(): SigmoidFit {
    return this.budget.pooledFit;
  }

  /** Serve (the inner score) or explore (0, a miss) the lookup's nearest candidate; 0 for the others. */
  protected judge(src: EvaluationSource, cached: EvaluationCandidate, context: EvaluationContext | undefined, score: number): number {
    if (score < this.minScore || !isNearest(cached, context?.neighbours)) return 0;
    const lookup = context?.lookup;
    const state = lookup ? this.#lookups.get(lookup) : undefined;
    // A lookup that explored one entry serves no other (the exact-key entry is judged before the search's).
    if (state?.exploring) return 0;
    const entry = String(cached.record?.id ?? cached.question);
    const decision = this.budget.decide(entry, score, lookup !== undefined);
    if (lookup) {
      this.#lookups.set(lookup, { exploring: decision.action === "explore" });
      // Any miss of this request teaches the entry, explored or not (a serve the cache's threshold rejects, too).
      const embeddingFunc = context?.embeddingFunc;
      const at = context?.now;
      lookup.onModelAnswer((fresh) => this.#compare(entry, score, decision.audit, at, { fresh, stored: cached.answer, question: src.question, cachedQuestion: cached.question }, embeddingFunc));
    }
    return decision.action === "serve" ? score : 0;
  }

  /** Judges the two answers in the background and records the outcome; a failing judge drops the observation. */
  #compare(entry: string, score: number, audit: boolean, at: number | undefined, pair: Parameters<AnswerJudge>[0], embeddingFunc: EvaluationContext["embeddingFunc"]): void {
    const judge = this.#answerJudge ?? (embeddingFunc ? embeddingAnswerJudge(embeddingFunc) : ({ fresh, stored }: { fresh: string; stored: string }) => fresh.trim() === stored.trim());
    const done = (async () => {
      try {
        this.budget.observe(entry, score, await judge(pair), audit, at);
      } catch (error) {
        this.#failed++;
        try {
          this.#onError?.(error);
        } catch {
          // A throwing error handler must not fail anything: the comparison is already dropped.
        }
      }
    })();
    this.#pending.add(done);
    void done.finally(() => this.#pending.delete(done));
  }
}

/** The candidate nearest the query among this lookup's (ties: the first stored). */
function isNearest(cached: EvaluationCandidate, neighbours: readonly EvaluationCandidate[] | undefined): boolean {
  if (!neighbours || neighbours.length === 0) return true;
  const distance = cached.distance ?? 0;
  const id = cached.record?.id ?? 0;
  return neighbours.every((other) => {
    const d = other.distance ?? 0;
    return d > distance || (d === distance && (other.record?.id ?? 0) > id);
  });
}
