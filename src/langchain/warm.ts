import { coerceMessageLikeToMessage, HumanMessage, type BaseMessage, type BaseMessageLike } from "@langchain/core/messages";
import { ValidationError } from "../core/errors.js";

/**
 * A question and the answer to store for it, to warm a cache before the first call: the question is its text,
 * or the messages that end with it (a system prompt, earlier turns: the context it will be asked in).
 */
export interface WarmPair {
  question: string | BaseMessageLike[];
  answer: string;
}

/** Checks the pairs, and gives each question as messages. */
export function warmMessages(surface: string, pairs: readonly WarmPair[]): Array<{ messages: BaseMessage[]; answer: string }> {
  if (!Array.isArray(pairs)) throw new ValidationError(`${surface}.warm: \`pairs\` must be a list of { question, answer }.`);
  return pairs.map((pair, index) => {
    const { question, answer } = (pair ?? {}) as Partial<WarmPair>;
    const valid = (typeof question === "string" || (Array.isArray(question) && question.length > 0)) && typeof answer === "string" && answer !== "";
    if (!valid) throw new ValidationError(`${surface}.warm: pair ${index} needs a question (text or messages) and a non-empty answer.`);
    const messages = typeof question === "string" ? [new HumanMessage(question)] : question.map(coerceMessageLikeToMessage);
    return { messages, answer };
  });
}
