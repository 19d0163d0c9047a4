import { WrappingEvaluation } from "./wrapping.js";
import { createHash } from "node:crypto";
import type { AIMessage, BaseMessage } from "@langchain/core/messages";
import type { BasePromptTemplate } from "@langchain/core/prompts";
import { Runnable, type RunnableConfig } from "@langchain/core/runnables";
import { EvaluationError, ValidationError } from "../core/errors.js";
import { Lru } from "../core/lru.js";
import { messageText } from "../core/messages.js";
import { judgePrompt, parseJudgement, type JudgeModel } from "./llm-judge.js";
import { innerEvaluation } from "./options.js";
import { integerAtLeast, positiveNumber } from "../core/validation.js";
import { sameQuestionText } from "./text-equality.js";
import type { EvaluationCandidate, EvaluationContext, EvaluationSource, SimilarityEvaluation } from "../core/contracts/evaluation.js";

export interface GreyBandOptions {
  /** The evaluation whose normalised score places a candidate below, in or above the band. */
  evaluation: SimilarityEvaluation;
  /**
   * Confirms a candidate in the band: any LangChain chat model (or a Runnable from a prompt to a message or
   * text). Give it temperature 0: a verdict is remembered, so it should not be a coin toss.
   */
  verifier: JudgeModel;
  /** The band's lower bound, on the inner evaluation's normalised [0, 1] score (inclusive). */
  lower: number;
  /** The band's upper bound (exclusive): a score at or above it is left to the cache's threshold. */
  upper: number;
  /**
   * "sync" (default): a candidate in the band waits for the verdict. "async": it is a miss now, the verifier
   * is asked in the background, and a later lookup of the same pair reads the verdict.
   */
  mode?: "sync" | "async";
  /**
   * The verifier's prompt: text or any LangChain prompt template with {question} and {cached_question}, and
   * optionally {cached_answer} (the stored answer: verdicts are then remembered per answer too), asking for
   * "yes", "no" or a score from 0 to 1 (0.5 and above is yes). Default DEFAULT_JUDGE_PROMPT.
   */
  prompt?: string | BasePromptTemplate;
  /** Verdicts remembered, least recently used dropped. Default 10,000 (about 100 bytes each). */
  maxVerdicts?: number;
  /** Async mode: background verifications in flight at most; a pair over the limit is a plain miss, counted as skipped. Default 16. */
  maxPending?: number;
  /** Milliseconds a verifier call may take before it counts as failed (a miss). Default: the model's own limits. */
  timeoutMs?: number;
  /** Told of each failed verification (the lookup itself goes on: the candidate is a miss). */
  onError?: (error: unknown) => void;
}

/** What the verifier did: its calls, their verdicts and what they cost in tokens. */
export interface GreyBandStats {
  /** Verifier calls that returned a verdict (yes + no). */
  verified: number;
  yes: number;
  no: number;
  /** Verifier calls that threw, timed out or replied something other than yes, no or a score: each a miss. */
  failed: number;
  /** Verifier calls in flight now. */
  pending: number;
  /** Async mode: pairs in the band not sent to the verifier because maxPending calls were in flight. */
  skipped: number;
  /** Verdicts remembered now. */
  cachedVerdicts: number;
  /** Candidates in the band decided by a remembered verdict, without a call. */
  verdictHits: number;
  /** Tokens the verifier read and wrote, from its replies' `usage_metadata` (0 for a model that reports none). */
  promptTokens: number;
  completionTokens: number;
}

type Counter = Exclude<keyof GreyBandStats, "pending" | "cachedVerdicts">;

/**
 * Verification in the grey band: a candidate whose score (the inner evaluation's, normalised) lies in
 * [lower, upper) is confirmed by a verifier, any LangChain chat model, asked whether the two questions ask the
 * same thing (DEFAULT_JUDGE_PROMPT). A yes scores 1 and a no 0; outside the band the score is the inner
 * evaluation's. So inside the band the verifier decides, outside it the cache's threshold does: put the
 * threshold in [lower, upper].
 *
 * The verifier is asked once per pair: verdicts are remembered by a digest of the two question texts (a
 * verdict is about the questions, so it holds for whichever entry stores that question), and concurrent
 * lookups of a pair share one call. A failing verifier never fails the lookup: the candidate is a miss, the
 * failure counted (a wrong answer is worse than a miss), and the next lookup asks again.
 */
export class GreyBandEvaluation extends WrappingEvaluation {
  static override lc_name(): string {
    return "GreyBandEvaluation";
  }

  readonly verifier: JudgeModel;
  readonly lower: number;
  readonly upper: number;
  readonly mode: "sync" | "async";
  readonly prompt: BasePromptTemplate;
  readonly maxPending: number;
  readonly timeoutMs: number | undefined;
  readonly #chain: Runnable<Record<string, string>, BaseMessage | string>;
  readonly #readsAnswer: boolean;
  readonly #verdicts: Lru<string, boolean>;
  readonly #pending = new Map<string, Promise<boolean>>();
  readonly #onError: ((error: unknown) => void) | undefined;
  readonly #counts: Record<Counter, number> = {
    verified: 0,
    yes: 0,
    no: 0,
    failed: 0,
    skipped: 0,
    verdictHits: 0,
    promptTokens: 0,
    completionTokens: 0,
  };

  constructor(options: GreyBandOptions) {
    super(options ?? {}, innerEvaluation("GreyBandEvaluation", options?.evaluation));
    const owner = "GreyBandEvaluation";
    if (!Runnable.isRunnable(options.verifier)) {
      throw new ValidationError(`${owner}: \`verifier\` must be a LangChain chat model (or a Runnable returning a message or text).`);
    }
    const { lower, upper, mode = "sync" } = options;
    if (!(typeof lower === "number" && typeof upper === "number" && lower >= 0 && lower < upper && upper <= 1)) {
      throw new ValidationError(`${owner}: \`lower\` and \`upper\` must be numbers with 0 <= lower < upper <= 1 (normalised scores).`);
    }
    if (mode !== "sync" && mode !== "async") throw new ValidationError(`${owner}: \`mode\` must be "sync" or "async".`);
    this.verifier = options.verifier;
    this.lower = lower;
    this.upper = upper;
    this.mode = mode;
    this.prompt = judgePrompt(options.prompt, owner);
    this.#readsAnswer = this.prompt.inputVariables.includes("cached_answer");
    this.#chain = this.prompt.pipe(this.verifier);
    this.#verdicts = new Lru(integerAtLeast(`${owner}: \`maxVerdicts\``, options.maxVerdicts, 0, 10_000));
    this.maxPending = integerAtLeast(`${owner}: \`maxPending\``, options.maxPending, 1, 16);
    this.timeoutMs = options.timeoutMs === undefined ? undefined : positiveNumber(`${owner}: \`timeoutMs\``, options.timeoutMs);
    this.#onError = options.onError;
  }

  /** The verifier's calls and verdicts so far; tokens times the provider's price per token is its cost. */
  get stats(): GreyBandStats {
    const { verified, yes, no, failed, skipped, verdictHits, promptTokens, completionTokens } = this.#counts;
    const [pending, cachedVerdicts] = [this.#pending.size, this.#verdicts.size];
    return { verified, yes, no, failed, pending, skipped, cachedVerdicts, verdictHits, promptTokens, completionTokens };
  }

  /**
   * Resolves once no verification is in flight, those started meanwhile included: await it before reading
   * the stats or leaving the process, so that background verdicts are not lost. Never rejects.
   */
  async settled(): Promise<void> {
    while (this.#pending.size > 0) await Promise.allSettled([...this.#pending.values()]);
  }

  /** The inner score where it lies outside the band, the verdict inside. */
  protected judge(src: EvaluationSource, cached: EvaluationCandidate, _context: EvaluationContext | undefined, score: number, config: RunnableConfig): number | Promise<number> {
    return score < this.lower || score >= this.upper ? score : this.#verdict(src, cached, config);
  }

  #verdict(src: EvaluationSource, cached: EvaluationCandidate, config: RunnableConfig): number | Promise<number> {
    if (sameQuestionText(src.question, cached.question) && !this.#readsAnswer) return 1;
    const key = this.#key(src, cached);
    const known = this.#verdicts.get(key);
    if (known !== undefined) {
      this.#counts.verdictHits++;
      return known ? 1 : 0;
    }
    if (this.mode === "async") {
      if (this.#pending.has(key)) return 0;
      if (this.#pending.size >= this.maxPending) {
        this.#counts.skipped++;
        return 0;
      }
      // Not tied to the request: its abort signal and deadline end the lookup, not the verification.
      void this.#ask(key, src, cached, { ...config, signal: undefined, timeout: undefined });
      return 0;
    }
    return this.#ask(key, src, cached, config).then(
      (yes) => (yes ? 1 : 0),
      (error: unknown) => {
        if (config.signal?.aborted) throw error;
        return 0;
      },
    );
  }

  /** The pair's verdict from the verifier: one call per pair at a time, remembered when it comes. */
  #ask(key: string, src: EvaluationSource, cached: EvaluationCandidate, config: RunnableConfig): Promise<boolean> {
    const inFlight = this.#pending.get(key);
    if (inFlight) return inFlight;
    const asking = this.#callVerifier(src, cached, config)
      .then(
        (yes) => {
          this.#verdicts.set(key, yes);
          this.#counts.verified++;
          this.#counts[yes ? "yes" : "no"]++;
          return yes;
        },
        (error: unknown) => {
          this.#counts.failed++;
          this.#report(error);
          throw error;
        },
      )
      .finally(() => this.#pending.delete(key));
    this.#pending.set(key, asking);
    // A background verification has no one waiting on it: its failure is counted and reported above.
    asking.catch(() => undefined);
    return asking;
  }

  async #callVerifier(src: EvaluationSource, cached: EvaluationCandidate, config: RunnableConfig): Promise<boolean> {
    const variables: Record<string, string> = { question: src.question, cached_question: cached.question };
    if (this.#readsAnswer) variables.cached_answer = cached.answer;
    const reply = await this.#invoke(variables, config);
    const usage = typeof reply === "string" ? undefined : (reply as AIMessage).usage_metadata;
    if (usage) {
      this.#counts.promptTokens += usage.input_tokens ?? 0;
      this.#counts.completionTokens += usage.output_tokens ?? 0;
    }
    return parseJudgement(typeof reply === "string" ? reply : messageText(reply)) >= 0.5;
  }

  /**
   * The verifier's reply within timeoutMs: the call is aborted through its signal (a chat model's request
   * stops) and, for a model that ignores signals, the lookup stops waiting for it all the same.
   */
  async #invoke(variables: Record<string, string>, config: RunnableConfig): Promise<BaseMessage | string> {
    const { timeoutMs } = this;
    if (timeoutMs === undefined) return this.#chain.invoke(variables, config);
    const controller = new AbortController();
    const signal = config.signal ? AbortSignal.any([config.signal, controller.signal]) : controller.signal;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const expired = new Promise<never>((_, reject) => {
      timer = setTimeout(() => {
        const error = new EvaluationError(`GreyBandEvaluation: the verifier did not answer within ${timeoutMs} ms (timeoutMs).`);
        controller.abort(error);
        reject(error);
      }, timeoutMs);
    });
    try {
      return await Promise.race([this.#chain.invoke(variables, { ...config, signal }), expired]);
    } finally {
      clearTimeout(timer);
    }
  }

  /** A fixed-size digest of what the verdict depends on: the two questions (and the answer, when the prompt reads it). */
  #key(src: EvaluationSource, cached: EvaluationCandidate): string {
    const parts = this.#readsAnswer ? [src.question, cached.question, cached.answer] : [src.question, cached.question];
    return createHash("sha256").update(JSON.stringify(parts)).digest("base64");
  }

  #report(error: unknown): void {
    try {
      this.#onError?.(error);
    } catch {
      // A throwing error handler must not turn a miss into a failed lookup.
    }
  }
}
