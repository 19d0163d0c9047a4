/**
 * Answer-equivalence judges for the error budget: whether the model's fresh answer to a request and the answer a
 * cached entry holds say the same thing (so serving the entry would have been right). Pluggable: the answers'
 * embeddings by default, a verifier chat model when given, or any function.
 */
import { ChatPromptTemplate, type BasePromptTemplate } from "@langchain/core/prompts";
import { Runnable } from "@langchain/core/runnables";
import { ValidationError } from "../core/errors.js";
import { cosineSimilarity } from "../core/vector-math.js";
import { toEmbeddingFunction, type EmbeddingSource } from "../core/embedding-source.js";
import type { EmbeddingFunction } from "../core/contracts/embedding.js";
import { messageText } from "../core/messages.js";
import { parseJudgement, type JudgeModel } from "./llm-judge.js";

/** The two answers compared, and the questions they answer (a verifier may read them). */
export interface AnswerPair {
  /** The model's answer to the request, just now. */
  fresh: string;
  /** The answer the cached entry holds. */
  stored: string;
  question: string;
  cachedQuestion: string;
}

/**
 * True when serving the stored answer would have been right. The default (no judge given to the error budget)
 * embeds both answers with the cache's own embedding and compares their cosine with 0.9.
 */
export type AnswerJudge = (pair: AnswerPair) => boolean | Promise<boolean>;

const sameText = (a: string, b: string) => a.trim().replace(/\s+/g, " ") === b.trim().replace(/\s+/g, " ");

/** Answers whose embeddings' cosine is at least `threshold` (default 0.9) are equivalent; identical texts always are. */
export function embeddingAnswerJudge(embeddings: EmbeddingSource | EmbeddingFunction, options: { threshold?: number } = {}): AnswerJudge {
  const threshold = options.threshold ?? 0.9;
  if (typeof threshold !== "number" || !(threshold > 0 && threshold <= 1)) {
    throw new ValidationError("embeddingAnswerJudge: `threshold` must be a number in (0, 1].");
  }
  const embedding = toEmbeddingFunction(embeddings as EmbeddingSource);
  return async ({ fresh, stored }) => {
    if (sameText(fresh, stored)) return true;
    const [a, b] = embedding.embedBatch ? await embedding.embedBatch([fresh, stored]) : await Promise.all([embedding.embed(fresh), embedding.embed(stored)]);
    if (typeof a === "string" || typeof b === "string") return a === b;
    return cosineSimilarity(Float32Array.from(a), Float32Array.from(b)) >= threshold;
  };
}

/** The verifier's default prompt: {question}, {cached_question}, {fresh_answer}, {cached_answer}; reply yes or no. */
export const DEFAULT_ANSWER_PROMPT = ChatPromptTemplate.fromMessages([
  [
    "system",
    "You check a cache. A user asked a question; the cache holds an answer given to an earlier, similar question. " +
      "Decide whether the cached answer would have served the user as well as a fresh answer: same facts, same conclusion, " +
      "nothing that answers a different question. Wording and length do not matter. Reply with one word: yes or no.",
  ],
  [
    "human",
    "Question: {question}\nEarlier question: {cached_question}\n\nFresh answer:\n{fresh_answer}\n\nCached answer:\n{cached_answer}",
  ],
]);

/** Asks a chat model (give it temperature 0) whether the two answers are equivalent: "yes", or a score of 0.5 and above. */
export function verifierAnswerJudge(model: JudgeModel, options: { prompt?: string | BasePromptTemplate } = {}): AnswerJudge {
  if (!Runnable.isRunnable(model)) throw new ValidationError("verifierAnswerJudge: `model` must be a LangChain chat model (or a Runnable returning a message or text).");
  const prompt = typeof options.prompt === "string" ? ChatPromptTemplate.fromTemplate(options.prompt) : (options.prompt ?? DEFAULT_ANSWER_PROMPT);
  const variables: readonly string[] = prompt.inputVariables ?? [];
  if (!variables.includes("fresh_answer") || !variables.includes("cached_answer")) {
    throw new ValidationError("verifierAnswerJudge: `prompt` must have the variables {fresh_answer} and {cached_answer}.");
  }
  const chain = prompt.pipe(model);
  return async ({ fresh, stored, question, cachedQuestion }) => {
    if (sameText(fresh, stored)) return true;
    const reply = await chain.invoke({ question, cached_question: cachedQuestion, fresh_answer: fresh, cached_answer: stored });
    return parseJudgement(typeof reply === "string" ? reply : messageText(reply)) >= 0.5;
  };
}
