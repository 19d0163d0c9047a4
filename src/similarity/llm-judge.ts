import type { BaseLanguageModelInput } from "@langchain/core/language_models/base";
import type { BaseMessage } from "@langchain/core/messages";
import { OutputParserException } from "@langchain/core/output_parsers";
import { ChatPromptTemplate, type BasePromptTemplate } from "@langchain/core/prompts";
import { Runnable, type RunnableConfig, type RunnableInterface } from "@langchain/core/runnables";
import { ValidationError } from "../core/errors.js";
import { messageText } from "../core/messages.js";
import { BaseSimilarityEvaluation } from "./base.js";
import { integerAtLeast } from "../core/validation.js";
import { Lru } from "../core/lru.js";
import type { EvaluationCandidate, EvaluationSource } from "../core/contracts/evaluation.js";

/** The model the judge asks: any LangChain chat model, or a Runnable from a prompt to a message or text. */
export type JudgeModel = RunnableInterface<BaseLanguageModelInput, BaseMessage | string>;

export interface LLMJudgeOptions {
  /** Decides whether two questions ask the same thing. Give it temperature 0: a verdict should not be a coin toss. */
  model: JudgeModel;
  /**
   * The prompt: a template (text or any LangChain prompt template) with the variables {question} and
   * {cached_question}, asking for "yes", "no" or a score from 0 to 1. Default DEFAULT_JUDGE_PROMPT.
   */
  prompt?: string | BasePromptTemplate;
  /** Verdicts kept between calls, by question pair (least recently used dropped). Default 1000. */
  cacheSize?: number;
}

const pair = (first: string, second: string) => `Question 1: ${first}\nQuestion 2: ${second}`;

/**
 * The default prompt: what "the same" means for a cache (an answer to one answers the other), with few-shot
 * examples of the near misses an embedding cannot tell apart: other numbers, other entities, negations and
 * opposite actions.
 */
export const DEFAULT_JUDGE_PROMPT = ChatPromptTemplate.fromMessages([
  [
    "system",
    "You decide whether two questions ask the same thing, so that an answer to one would answer the other equally well. " +
      "Wording, word order, spelling, punctuation and politeness do not matter. " +
      "Questions that differ in a number, quantity, date, version, name, place, product or any other entity ask different things. " +
      "So do a question and its negation, and questions asking for opposite actions (install and uninstall, enable and disable, " +
      "buy and sell, convert A to B and B to A). Reply with one word: yes or no.",
  ],
  ["human", pair("How do I install numpy?", "what's the command to install numpy")],
  ["ai", "yes"],
  ["human", pair("How do I install numpy?", "How do I uninstall numpy?")],
  ["ai", "no"],
  ["human", pair("What is 15% of 80?", "What is 20% of 80?")],
  ["ai", "no"],
  ["human", pair("Who founded Microsoft?", "Who founded Apple?")],
  ["ai", "no"],
  ["human", pair("Which fruits contain vitamin C?", "Which fruits do not contain vitamin C?")],
  ["ai", "no"],
  ["human", pair("capital of france?", "What is the capital city of France?")],
  ["ai", "yes"],
  ["human", pair("{question}", "{cached_question}")],
]);

const REPLY_EDGES = /^[\s"'`*]+|[\s"'`*.!]+$/g;
const SCORE = /^(?:0(?:\.\d+)?|1(?:\.0+)?|\.\d+)$/;

/**
 * A judge's reply as a score: "yes" 1, "no" 0 (any case, quoted or with a final full stop), or a number
 * from 0 to 1. Anything else throws LangChain's OutputParserException, carrying the reply as llmOutput.
 */
export function parseJudgement(reply: string): number {
  const text = reply.replace(REPLY_EDGES, "").toLowerCase();
  if (text === "yes") return 1;
  if (text === "no") return 0;
  if (SCORE.test(text)) return Number(text);
  throw new OutputParserException(`LLMJudgeEvaluation: the model replied ${JSON.stringify(reply)}, not yes, no or a score from 0 to 1.`, reply);
}

/** A judge's prompt option as a template (default DEFAULT_JUDGE_PROMPT), checked to take {question} and {cached_question}. */
export function judgePrompt(prompt: string | BasePromptTemplate | undefined, owner = "LLMJudgeEvaluation"): BasePromptTemplate {
  const template = typeof prompt === "string" ? ChatPromptTemplate.fromTemplate(prompt) : (prompt ?? DEFAULT_JUDGE_PROMPT);
  const variables: readonly string[] = Array.isArray(template?.inputVariables) ? template.inputVariables : [];
  if (!variables.includes("question") || !variables.includes("cached_question")) {
    throw new ValidationError(`${owner}: \`prompt\` must be a prompt template with the variables {question} and {cached_question}.`);
  }
  return template;
}

/**
 * Asks a LangChain chat model whether the request's question and the candidate's ask the same thing: the
 * most discerning evaluation (it tells "install" from "uninstall", 15% from 20%), and the slowest and
 * costliest, so use it behind a vector search with a small topK. The same question scores 1 and an empty
 * question 0, both without asking; verdicts are remembered per question pair.
 *
 * Errors are not wrapped: a failing model throws the model's own error, and a reply that is not yes, no or
 * a score throws OutputParserException. The cache counts either as a fault and fails open (the request goes
 * to the model and its answer is stored).
 */
export class LLMJudgeEvaluation extends BaseSimilarityEvaluation {
  readonly model: JudgeModel;
  readonly prompt: BasePromptTemplate;
  readonly #chain: Runnable<Record<string, string>, BaseMessage | string>;
  readonly #verdicts: Lru<string, Promise<number>>;

  constructor(options: LLMJudgeOptions) {
    super(options ?? {});
    if (!Runnable.isRunnable(options?.model)) {
      throw new ValidationError("LLMJudgeEvaluation: `model` must be a LangChain chat model (or a Runnable returning a message or text).");
    }
    const cacheSize = integerAtLeast("LLMJudgeEvaluation: `cacheSize`", options.cacheSize, 0, 1000);
    this.model = options.model;
    this.prompt = judgePrompt(options.prompt);
    this.#chain = this.prompt.pipe(this.model);
    this.#verdicts = new Lru(cacheSize);
  }

  range(): readonly [number, number] {
    return [0, 1];
  }

  evaluation(src: EvaluationSource, cached: EvaluationCandidate): number | Promise<number> {
    return this.#judge(src.question, cached.question);
  }

  protected override evaluateWithConfig(
    src: EvaluationSource,
    cached: EvaluationCandidate,
    _context: unknown,
    config: RunnableConfig,
  ): number | Promise<number> {
    return this.#judge(src.question, cached.question, config);
  }

  #judge(question: string, cachedQuestion: string, config?: RunnableConfig): number | Promise<number> {
    if (question === cachedQuestion) return 1;
    if (question === "" || cachedQuestion === "") return 0;
    return this.#verdicts.remember(JSON.stringify([question, cachedQuestion]), async () => {
      const reply = await this.#chain.invoke({ question, cached_question: cachedQuestion }, config);
      return parseJudgement(typeof reply === "string" ? reply : messageText(reply));
    });
  }
}
