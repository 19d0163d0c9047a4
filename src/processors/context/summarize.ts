import { ChatPromptTemplate } from "@langchain/core/prompts";
import { Runnable, type RunnableInterface } from "@langchain/core/runnables";
import { ValidationError } from "../../core/errors.js";
import type { CacheRequest } from "../../core/types.js";
import { Lru } from "../../core/lru.js";
import { integerAtLeast } from "../../core/validation.js";
import { messageText } from "../../core/messages.js";
import type { PreEmbeddingContext } from "../../core/contracts/processors.js";
import { concatAllQueries } from "./concat.js";
import { formatTurns, readDialogue } from "./dialogue.js";

/** Anything with a tokenizer's encode (js-tiktoken, gpt-tokenizer, a Hugging Face tokenizer wrapper, ...). */
export interface Tokenizer {
  encode(text: string): ArrayLike<number>;
}

export interface SummarizeContextOptions {
  /**
   * Summarises the earlier turns: any LangChain Runnable taking `{ dialogue }` ("USER: ..." lines) and
   * returning text or a message, e.g. `DEFAULT_SUMMARY_PROMPT.pipe(model).pipe(new StringOutputParser())`.
   */
  runnable: RunnableInterface<{ dialogue: string }, unknown>;
  /** Dialogues longer than this (by lengthFunction) are summarised; shorter ones are keyed whole. Default 512. */
  maxLength?: number;
  /** Measures a dialogue. Default: characters (or tokens, with `tokenizer`). */
  lengthFunction?: (text: string) => number;
  /** Counts tokens instead of characters. */
  tokenizer?: Tokenizer;
  /** Summaries kept, by the exact earlier turns they summarise (least recently used dropped). Default 128. */
  cacheSize?: number;
}

/** A summary prompt to build `runnable` on: it asks for the facts the next answer depends on, and nothing else. */
export const DEFAULT_SUMMARY_PROMPT = ChatPromptTemplate.fromMessages([
  [
    "system",
    "Summarise the conversation below in at most three sentences, as context for answering its next question. " +
      "Keep every fact, name, number, constraint and preference the answer may depend on; drop greetings and filler. " +
      "Reply with the summary only.",
  ],
  ["human", "{dialogue}"],
]);

function measureWith(options: SummarizeContextOptions): (text: string) => number {
  const { lengthFunction, tokenizer } = options;
  if (lengthFunction !== undefined && tokenizer !== undefined) {
    throw new ValidationError("summarizeContext: give `lengthFunction` or `tokenizer`, not both.");
  }
  if (tokenizer !== undefined) {
    if (typeof tokenizer?.encode !== "function") throw new ValidationError("summarizeContext: `tokenizer` needs encode(text).");
    return (text) => tokenizer.encode(text).length;
  }
  if (lengthFunction !== undefined && typeof lengthFunction !== "function") {
    throw new ValidationError("summarizeContext: `lengthFunction` must be a function of the text.");
  }
  return lengthFunction ?? ((text) => text.length);
}

function summaryText(output: unknown): string {
  if (typeof output === "string") return output.trim();
  if (typeof output === "object" && output !== null && "content" in output) return messageText(output).trim();
  throw new ValidationError("summarizeContext: the runnable must return text or a message (end it with a StringOutputParser).");
}

/**
 * GPTCache's summarisation context processor with a LangChain chain as the summariser. A conversation
 * longer than maxLength (its turns not in config.skipList, plus the question) is keyed on a summary of its
 * earlier turns followed by the question, verbatim: "SUMMARY: ...\nUSER: <question>". Two long
 * conversations with the same gist and the same question then meet in the cache, and a question never
 * loses its exact wording to the summariser. Shorter conversations are keyed as concatAllQueries keys
 * them.
 *
 * Summaries are remembered by the exact earlier turns they summarise, so a retry, or another question over
 * the same history, does not summarise again. The runnable's failures propagate: the cache counts them and
 * sends the request to the model, storing nothing.
 */
export function summarizeContext(options: SummarizeContextOptions): (request: CacheRequest, context: PreEmbeddingContext) => Promise<string> {
  const runnable = options?.runnable;
  if (!Runnable.isRunnable(runnable)) {
    throw new ValidationError("summarizeContext: `runnable` must be a LangChain Runnable (prompt | model | StringOutputParser).");
  }
  const maxLength = integerAtLeast("summarizeContext: `maxLength`", options.maxLength, 1, 512);
  const measure = measureWith(options);
  const summaries = new Lru<string, Promise<string>>(integerAtLeast("summarizeContext: `cacheSize`", options.cacheSize, 0, 128));

  return async function summarizedContext(request: CacheRequest, context: PreEmbeddingContext): Promise<string> {
    const { history, question } = readDialogue(request, context, "summarizeContext");
    const earlier = formatTurns(history);
    if (history.length === 0 || measure(formatTurns([...history, question])) <= maxLength) return concatAllQueries(request, context);
    const summary = await summaries.remember(earlier, async () => summaryText(await runnable.invoke({ dialogue: earlier })));
    return `SUMMARY: ${summary}\n${formatTurns([question])}`;
  };
}
