/**
 * Ollama's `POST /api/chat` through the cache, streamed (NDJSON lines) or not: keyed and partitioned as the
 * OpenAI adapter's chat (the last message is the key; the messages before it, the model and the options that
 * change the answer partition), a hit answered in Ollama's own shape.
 */
import type { Cache } from "../../presets/cache.js";
import { contextDigest, messagesBeforeLast } from "../../core/conversation-context.js";
import { hasItems, type TextKind } from "../openai/text.js";
import type { CachedCall, Marked, UpstreamSettings } from "../openai/types.js";
import { finishOf, hitBase, ollamaSettingsPartition, OLLAMA_NEUTRAL, readLine, runOllamaRequest, thinks, ZERO_METRICS } from "./ollama-request.js";
import type { CachedOllamaChatBody, OllamaChatRequest, OllamaChatResponse, OllamaChatUpstreamResult, OllamaMessage } from "./ollama-types.js";

const NEUTRAL = new Set(["messages", ...OLLAMA_NEUTRAL]);

function lastMessage(messages: unknown): Partial<OllamaMessage> | undefined {
  return Array.isArray(messages) ? (messages[messages.length - 1] as Partial<OllamaMessage> | null) ?? undefined : undefined;
}

/** A digest of every image in the conversation: the same question about another picture never hits. */
function imagesDigest(messages: unknown): string | undefined {
  if (!Array.isArray(messages)) return undefined;
  return contextDigest(messages.flatMap((message) => (hasItems((message as Partial<OllamaMessage> | null)?.images) ? [(message as OllamaMessage).images] : [])));
}

/** An answer that is one plain text: no tool call, no separate thinking. */
function plainMessage(message: Partial<OllamaMessage> | undefined): boolean {
  return !hasItems(message?.tool_calls) && !message?.thinking;
}

const chatKind: TextKind<Marked<OllamaChatResponse>, Marked<OllamaChatResponse>> = {
  name: "ollama.chat",
  cachable: (body) =>
    hasItems(body.messages) &&
    !hasItems(body.tools) &&
    !thinks(body) &&
    body.logprobs !== true &&
    lastMessage(body.messages)?.role !== "tool",
  // No namespace, as the OpenAI adapter's chat: a plain question shares entries with put/get and with the same
  // model asked through Ollama's OpenAI-compatible endpoint.
  partition: (body, shareAcrossContexts) => {
    const images = imagesDigest(body.messages);
    const context = shareAcrossContexts ? undefined : contextDigest(messagesBeforeLast(body.messages as unknown[]));
    const prefix = [images && `images:${images}`, context && `context:${context}`].filter(Boolean).join(";");
    return ollamaSettingsPartition(prefix, body, NEUTRAL);
  },
  textOf: (result) => {
    const message = (result as Partial<OllamaChatResponse> | null)?.message;
    if (finishOf(result) !== "stop" || typeof message?.content !== "string" || !plainMessage(message)) return null;
    return message.content;
  },
  readChunk: (line) => readLine(line, line?.message?.content, plainMessage(line?.message)),
  fromHit: (hit, body) => ({
    ...hitBase(hit, body),
    message: { role: "assistant", content: hit.answer },
    done_reason: "stop",
    done: true,
    ...ZERO_METRICS,
  }),
  replay: (hit, body) => {
    const base = hitBase(hit, body);
    return {
      piece: (text) => ({ ...base, message: { role: "assistant", content: text }, done: false }),
      finish: () => ({ ...base, message: { role: "assistant", content: "" }, done_reason: "stop", done: true, ...ZERO_METRICS }),
    };
  },
};

/**
 * Runs one `/api/chat` request through the cache. `upstream` answers misses and the requests the cache does not
 * hold (tools, thinking, a tool's result to answer, a model load with no messages); the body's cache options
 * are read and removed, every other field reaches `upstream` untouched, with `stream` said explicitly (absent
 * is true, as Ollama reads it). A stream's result is an async iterable of lines ending with `done: true`,
 * ready (with its outcome) before the first line is read; null is a `search_only` miss.
 *
 * ```ts
 * const { result, outcome } = await cachedOllamaChat(cache, { model: "llama3.2", messages, stream: false }, {
 *   upstream: (body, signal) => myOllamaCall("/api/chat", body, signal),
 *   cacheOptions: { noStore: true, maxAgeSeconds: 60 },
 * });
 * ```
 */
export function cachedOllamaChat(
  cache: Cache | undefined,
  body: CachedOllamaChatBody,
  settings: UpstreamSettings<OllamaChatRequest, OllamaChatUpstreamResult>,
): Promise<CachedCall<Marked<OllamaChatResponse> | AsyncIterable<Marked<OllamaChatResponse>> | null>> {
  return runOllamaRequest(chatKind, cache, body, settings as UpstreamSettings<never, unknown>);
}
