/**
 * Chat completions through the cache, streamed or not, vision included: `cachedChatCompletion` runs one
 * request with any upstream call (the wrapped client, a user's `llm`, the HTTP server's provider call).
 */
import type { ChatCompletion, ChatCompletionChunk, ChatCompletionCreateParams } from "openai/resources/chat/completions";
import type { Cache } from "../../presets/cache.js";
import { contextDigest, messagesBeforeLast } from "../../core/conversation-context.js";
import type { CacheHit } from "../../core/pipeline.js";
import { hitMarker, nowSeconds, responseId, ZERO_USAGE } from "./marker.js";
import { asRecords, settingsPartition } from "./options.js";
import { finishedNormally, hasItems, runTextRequest, type Body, type TextKind } from "./text.js";
import type { CacheBodyOptions, CachedCall, Marked, UpstreamSettings } from "./types.js";
import { attachmentDigest } from "./vision.js";

/** What a chat request's upstream (or `llm`) returns: a completion, or a stream of chunks for `stream: true`. */
export type ChatUpstreamResult = ChatCompletion | AsyncIterable<ChatCompletionChunk>;

/** A chat request body with the cache's options. */
export type CachedChatBody = ChatCompletionCreateParams & CacheBodyOptions<ChatCompletionCreateParams, ChatUpstreamResult>;

/** Fields that are the key (messages) or cannot change the answer; every other setting partitions. */
const NEUTRAL = new Set([
  "messages",
  "stream",
  "stream_options",
  "user",
  "metadata",
  "store",
  "service_tier",
  "safety_identifier",
  "prompt_cache_key",
  "prompt_cache_retention",
]);

/** Roles whose message is a tool's output: an answer to it depends on the whole exchange, not on its text. */
const TOOL_ROLES = new Set(["tool", "function"]);

function lastRole(messages: unknown): unknown {
  return Array.isArray(messages) ? (messages[messages.length - 1] as { role?: unknown } | null)?.role : undefined;
}

type Choice = ChatCompletion["choices"][number];

const chatKind: TextKind<Marked<ChatCompletion>, Marked<ChatCompletionChunk>> = {
  name: "openai.chat",
  cachable: (body) =>
    !hasItems(body.tools) &&
    !hasItems(body.functions) &&
    !(typeof body.n === "number" && body.n > 1) &&
    body.logprobs !== true &&
    (body.audio === undefined || body.audio === null) &&
    !(Array.isArray(body.modalities) && body.modalities.includes("audio")) &&
    !TOOL_ROLES.has(lastRole(body.messages) as string),
  // No namespace: a plain chat request shares entries with put/get, importData and the HTTP proxy. The
  // messages before the keyed one (system prompt, earlier turns) can change its answer, so they partition;
  // a lone question has none and shares entries with put/get. `share_across_contexts` leaves them out.
  partition: (body, shareAcrossContexts) => {
    const attachments = attachmentDigest(body.messages);
    const context = Array.isArray(body.messages) && !shareAcrossContexts ? contextDigest(messagesBeforeLast(body.messages)) : undefined;
    const prefix = [attachments && `vision:${attachments}`, context && `context:${context}`].filter(Boolean).join(";");
    return settingsPartition(prefix, body, NEUTRAL);
  },
  textOf: (result) => {
    const choices = (result as Partial<ChatCompletion> | null)?.choices;
    if (!Array.isArray(choices) || choices.length !== 1) return null;
    const { message, finish_reason } = choices[0] as Choice;
    if (!finishedNormally(finish_reason) || typeof message?.content !== "string") return null;
    return message.tool_calls?.length || message.function_call || message.audio ? null : message.content;
  },
  readChunk: (chunk) => {
    const choice = (chunk as Partial<ChatCompletionChunk> | null)?.choices?.[0];
    if (!choice) return { plain: true };
    const delta = choice.delta ?? {};
    const plain = !delta.tool_calls?.length && !delta.function_call && choice.index === 0;
    return { text: delta.content, finish: choice.finish_reason, plain };
  },
  fromHit: (hit, body) => ({
    id: responseId("chatcmpl"),
    object: "chat.completion",
    created: nowSeconds(),
    model: String(body.model),
    choices: [{ index: 0, message: { role: "assistant", content: hit.answer, refusal: null }, logprobs: null, finish_reason: "stop" }],
    usage: { ...ZERO_USAGE },
    semcache: hitMarker(hit),
  }),
  replay: (hit, body) => chunkShape(hit, body),
};

/** A hit's chunks: the role, the text a few words at a time, the finish, and zero usage when the request asked for usage. */
function chunkShape(hit: CacheHit, body: Body) {
  const base = { id: responseId("chatcmpl"), object: "chat.completion.chunk" as const, created: nowSeconds(), model: String(body.model) };
  const semcache = hitMarker(hit);
  const chunk = (delta: ChatCompletionChunk.Choice.Delta, finish: "stop" | null): Marked<ChatCompletionChunk> => ({
    ...base,
    choices: [{ index: 0, delta, logprobs: null, finish_reason: finish }],
    semcache,
  });
  const wantsUsage = (body.stream_options as { include_usage?: unknown } | undefined)?.include_usage === true;
  return {
    start: () => chunk({ role: "assistant", content: "" }, null),
    piece: (text: string) => chunk({ content: text }, null),
    finish: () => chunk({}, "stop"),
    usage: wantsUsage ? () => ({ ...base, choices: [], usage: { ...ZERO_USAGE }, semcache }) : undefined,
  };
}

/**
 * Runs one chat completion request through the cache. `upstream` answers misses (and requests the cache does
 * not hold: tools, n > 1, logprobs, audio); the body's cache options are read and removed, every other field
 * reaches `upstream` untouched. A stream request's result is an async iterable of chunks, ready (with its
 * outcome) before the first chunk is read; null is a `search_only` miss.
 *
 * ```ts
 * const { result, outcome } = await cachedChatCompletion(cache, body, {
 *   upstream: (body, signal) => client.chat.completions.create(body, { signal }),
 *   cacheOptions: { noStore: true, maxAgeSeconds: 60 },
 * });
 * outcome; // { status: "HIT", score: 1, id: 7, ageSeconds: 12.5 }
 * ```
 */
export function cachedChatCompletion(
  cache: Cache | undefined,
  body: CachedChatBody,
  settings: UpstreamSettings<ChatCompletionCreateParams, ChatUpstreamResult>,
): Promise<CachedCall<Marked<ChatCompletion> | AsyncIterable<Marked<ChatCompletionChunk>> | null>> {
  return runTextRequest(chatKind, cache, body, asRecords(settings) as UpstreamSettings<Body, Marked<ChatCompletion> | AsyncIterable<Marked<ChatCompletionChunk>>>);
}
