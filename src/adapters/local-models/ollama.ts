/**
 * `cachedOllama()`: an Ollama client whose `chat` and `generate` go through the cache, the `ollama` package's
 * calling style (a body in, an answer or an async iterable of lines out) over `fetch`, no dependency.
 */
import type { Cache } from "../../presets/cache.js";
import { ValidationError } from "../../core/errors.js";
import type { FlowOptions } from "../../core/pipeline.js";
import type { Marked } from "../openai/types.js";
import { callSignal, checkClientOptions, endingWith, normalizeBaseUrl, postJson, readNdjson, type ModelCallOptions, type ModelServerConnection } from "./model-server.js";
import { cachedOllamaChat } from "./ollama-chat.js";
import { cachedOllamaGenerate } from "./ollama-generate.js";
import type { CachedOllamaChatBody, CachedOllamaGenerateBody, OllamaChatResponse, OllamaGenerateResponse } from "./ollama-types.js";

/** Ollama's own address. */
export const DEFAULT_OLLAMA_HOST = "http://127.0.0.1:11434";

export interface CachedOllamaOptions {
  /** The server: "http://127.0.0.1:11434" (the default), "localhost:11434" or a remote host (no scheme: http). */
  host?: string;
  /** The cache of every call (a body's `cache_obj` overrides it). Default: the global `cache`. */
  cache?: Cache;
  /** Cache options of every call, under each body's own: `{ session: "user-42" }`, `{ noStore: true }`, ... */
  cacheOptions?: FlowOptions;
  /** Chat: reuse answers stored after other system messages or earlier turns. Default false. */
  shareAcrossContexts?: boolean;
  /** Headers of every request (a proxy's authorization, say). */
  headers?: Record<string, string>;
  /** The `fetch` to call the server with. Default: the global one. */
  fetch?: typeof fetch;
}

/** Per call: an abort signal, and cache options over the body's own (`{ noStore: true }`, `{ maxAgeSeconds: 60 }`). */
export type OllamaCallOptions = ModelCallOptions;

type Streaming = { stream: true };
type NotStreaming = { stream?: false };
/** A body asking the cache only: a miss returns null. */
type SearchOnly = { search_only: true };

/** `chat` and `generate` with the cache: Ollama's shapes, every line of a hit marked `semcache: { hit: true, score, id }`. */
export interface CachedOllama {
  /** The server's base URL. */
  readonly host: string;
  chat(body: CachedOllamaChatBody & Streaming & SearchOnly, options?: OllamaCallOptions): Promise<AsyncIterable<Marked<OllamaChatResponse>> | null>;
  chat(body: CachedOllamaChatBody & Streaming, options?: OllamaCallOptions): Promise<AsyncIterable<Marked<OllamaChatResponse>>>;
  chat(body: CachedOllamaChatBody & NotStreaming & SearchOnly, options?: OllamaCallOptions): Promise<Marked<OllamaChatResponse> | null>;
  chat(body: CachedOllamaChatBody & NotStreaming, options?: OllamaCallOptions): Promise<Marked<OllamaChatResponse>>;
  generate(body: CachedOllamaGenerateBody & Streaming & SearchOnly, options?: OllamaCallOptions): Promise<AsyncIterable<Marked<OllamaGenerateResponse>> | null>;
  generate(body: CachedOllamaGenerateBody & Streaming, options?: OllamaCallOptions): Promise<AsyncIterable<Marked<OllamaGenerateResponse>>>;
  generate(body: CachedOllamaGenerateBody & NotStreaming & SearchOnly, options?: OllamaCallOptions): Promise<Marked<OllamaGenerateResponse> | null>;
  generate(body: CachedOllamaGenerateBody & NotStreaming, options?: OllamaCallOptions): Promise<Marked<OllamaGenerateResponse>>;
}

/**
 * An Ollama client with the cache in front of `/api/chat` and `/api/generate`. As with the `ollama` package, a
 * body without `stream: true` gets one answer; with it, an async iterable of NDJSON lines (leaving the loop
 * early stops the model). The server's errors are thrown as `ModelServerError` (status and body unchanged).
 *
 * ```ts
 * const ollama = cachedOllama({ cache });
 * const answer = await ollama.chat({ model: "llama3.2", messages: [{ role: "user", content: "Why is the sky blue?" }] });
 * answer.semcache; // { hit: true, score: 1, id: 3 } on a hit; absent when the model answered
 * ```
 */
export function cachedOllama(options: CachedOllamaOptions = {}): CachedOllama {
  checkClientOptions("cachedOllama", options);
  if (options.host !== undefined && (typeof options.host !== "string" || options.host.length === 0)) {
    throw new ValidationError("cachedOllama: `host` must be a URL.");
  }
  if (options.shareAcrossContexts !== undefined && typeof options.shareAcrossContexts !== "boolean") {
    throw new ValidationError("cachedOllama: `shareAcrossContexts` must be a boolean.");
  }
  const connection: ModelServerConnection = { baseUrl: normalizeBaseUrl(options.host ?? DEFAULT_OLLAMA_HOST), headers: options.headers, fetch: options.fetch };
  const defaults: FlowOptions = { ...options.cacheOptions, ...(options.cache ? { cacheObj: options.cache } : {}) };

  /** A cached endpoint: the body read as the `ollama` package reads it (no `stream`: one answer). */
  const endpoint =
    (path: string, run: typeof cachedOllamaChat | typeof cachedOllamaGenerate) =>
    async (body: { stream?: unknown }, call: OllamaCallOptions = {}): Promise<unknown> => {
      if (typeof body !== "object" || body === null) throw new ValidationError("The request body must be an object.");
      const stream = body.stream === true;
      const { signal, controller } = callSignal(stream, call.signal);
      const { result } = await run(undefined, { ...body, stream } as never, {
        upstream: async (sent: { stream?: boolean }, upstreamSignal?: AbortSignal) => {
          const response = await postJson(connection, path, sent, upstreamSignal);
          return sent.stream ? readNdjson(response) : response.json();
        },
        signal,
        defaults,
        cacheOptions: call.cacheOptions,
        shareAcrossContexts: options.shareAcrossContexts,
      } as never);
      return controller && result ? endingWith(result as AsyncIterable<unknown>, controller) : result;
    };

  return {
    host: connection.baseUrl,
    chat: endpoint("/api/chat", cachedOllamaChat),
    generate: endpoint("/api/generate", cachedOllamaGenerate),
  } as CachedOllama;
}
