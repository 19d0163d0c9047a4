/**
 * LangChain messages <-> the cache: the OpenAI-style `messages` a chat request is keyed on, the plain text
 * an answer is stored as, and the marker, zero usage and chunked replay that hits come back with.
 */
import type { CallbackManagerForLLMRun } from "@langchain/core/callbacks/manager";
import { AIMessage, type BaseMessage, type UsageMetadata } from "@langchain/core/messages";
import type { ChatGenerationChunk, GenerationChunk } from "@langchain/core/outputs";
import type { CacheHit } from "../core/pipeline.js";
import { splitIntoChunks } from "../core/replay.js";
import type { ChatMessageLike } from "../core/types.js";

/**
 * How the cache answered, in `response_metadata.semcache` (chat) or `generationInfo.semcache` (LLM
 * generations): `{ hit: true, score, id }` from a stored entry; `{ hit: false, shared: true }` from a
 * concurrent identical call's model answer; `{ hit: false }` for a searchOnly miss. A call answered by its
 * own model call carries the model's output unchanged, without a marker.
 */
export type SemcacheMarker =
  | { hit: true; score: number; id: number }
  | { hit: false; shared: true }
  | { hit: false };

export const ZERO_USAGE: UsageMetadata = Object.freeze({ input_tokens: 0, output_tokens: 0, total_tokens: 0 });

export function hitMarker(hit: CacheHit): SemcacheMarker {
  return { hit: true, score: hit.score, id: hit.id };
}

export const SHARED_MARKER: SemcacheMarker = Object.freeze({ hit: false, shared: true });
export const SEARCH_ONLY_MISS_MARKER: SemcacheMarker = Object.freeze({ hit: false });

/** LangChain message types as OpenAI roles (so skipList and the `USER:` keys of context processors work). */
const ROLES: Readonly<Record<string, string>> = { human: "user", ai: "assistant" };

/** The text of message content, or null when it holds anything but text (images, audio, files, tool use). */
export function contentText(content: BaseMessage["content"] | null | undefined): string | null {
  if (content === null || content === undefined) return "";
  if (typeof content === "string") return content;
  const texts: string[] = [];
  for (const part of content) {
    if (typeof part === "string") texts.push(part);
    else if (part.type === "text" && typeof part.text === "string") texts.push(part.text);
    else return null;
  }
  return texts.join("\n");
}

export function roleOf(message: BaseMessage): string {
  const type = message.getType();
  if (type === "generic") return String((message as BaseMessage & { role?: unknown }).role);
  return ROLES[type] ?? type;
}

/**
 * The conversation as the OpenAI-style `messages` the pre-embedding functions read, or null when a message
 * carries non-text content: the key functions see only text, so two questions about different images
 * would share an answer. Such requests bypass the cache.
 */
export function toRequestMessages(messages: readonly BaseMessage[]): ChatMessageLike[] | null {
  const out: ChatMessageLike[] = [];
  for (const message of messages) {
    const content = contentText(message.content);
    if (content === null) return null;
    out.push({ role: roleOf(message), content });
  }
  return out;
}

/** True when a message (or chunk) is plain text: no tool calls, function calls or audio, text-only content. */
export function isPlainText(message: BaseMessage): boolean {
  const m = message as BaseMessage & { tool_calls?: unknown[]; invalid_tool_calls?: unknown[]; tool_call_chunks?: unknown[] };
  if (m.tool_calls?.length || m.invalid_tool_calls?.length || m.tool_call_chunks?.length) return false;
  const extra = message.additional_kwargs ?? {};
  if (extra.tool_calls || extra.function_call || extra.audio) return false;
  return contentText(message.content) !== null;
}

/**
 * An answer that cost its caller no model call, with the marker and zero usage: the text of a hit (or ""
 * for a searchOnly miss), or a copy of a shared call's message (callers never share one mutable object).
 */
export function markedMessage(marker: SemcacheMarker, from: string | BaseMessage): AIMessage {
  const source = typeof from === "string" ? undefined : from;
  return new AIMessage({
    content: source ? source.content : (from as string),
    additional_kwargs: source?.additional_kwargs,
    response_metadata: { ...source?.response_metadata, semcache: marker },
    tool_calls: source && AIMessage.isInstance(source) ? source.tool_calls : undefined,
    // No id: a message id names one answer in a thread (LangGraph replaces a message by id), and this is another.
    usage_metadata: { ...ZERO_USAGE },
  });
}

/** Replays a hit as stream chunks of a few words each, built by `toChunk`; the abort signal stops it. */
export async function* replayHit<C>(
  hit: CacheHit,
  toChunk: (text: string, first: boolean) => C,
  signal?: AbortSignal,
): AsyncGenerator<C> {
  for (const [index, text] of splitIntoChunks(hit.answer).entries()) {
    signal?.throwIfAborted();
    yield toChunk(text, index === 0);
  }
}

/** Yields the chunks, reporting each to the run as a new token (what LangChain streaming handlers expect). */
export async function* reportTokens<C extends ChatGenerationChunk | GenerationChunk>(
  chunks: AsyncIterable<C> | Iterable<C>,
  runManager?: CallbackManagerForLLMRun,
): AsyncGenerator<C> {
  for await (const chunk of chunks) {
    yield chunk;
    await runManager?.handleLLMNewToken(chunk.text, undefined, undefined, undefined, undefined, { chunk });
  }
}
