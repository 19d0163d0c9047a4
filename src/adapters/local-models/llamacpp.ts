/**
 * `cachedLlamaCpp()`: a client of llama.cpp's server whose native `/completion` goes through the cache, over
 * `fetch`, no dependency. For its OpenAI-compatible endpoints, wrap an `openai` client aimed at
 * `http://127.0.0.1:8080/v1` with `wrapOpenAI` instead.
 */
import type { Cache } from "../../presets/cache.js";
import { ValidationError } from "../../core/errors.js";
import type { FlowOptions } from "../../core/pipeline.js";
import type { Marked } from "../openai/types.js";
import { cachedLlamaCppCompletion, type CachedLlamaCppCompletionBody, type LlamaCppCompletionResponse } from "./llamacpp-completion.js";
import { callSignal, checkClientOptions, endingWith, normalizeBaseUrl, postJson, readSse, type ModelCallOptions, type ModelServerConnection } from "./model-server.js";

/** llama.cpp's server's own address (`llama-server`'s default port). */
export const DEFAULT_LLAMACPP_URL = "http://127.0.0.1:8080";

export interface CachedLlamaCppOptions {
  /** The server: "http://127.0.0.1:8080" (the default). */
  baseUrl?: string;
  /** Sent as `Authorization: Bearer ...` (a server started with `--api-key`). */
  apiKey?: string;
  /** The cache of every call (a body's `cache_obj` overrides it). Default: the global `cache`. */
  cache?: Cache;
  /** Cache options of every call, under each body's own (`topK` is the cache's candidates: a body's `top_k` is llama.cpp's). */
  cacheOptions?: FlowOptions;
  headers?: Record<string, string>;
  fetch?: typeof fetch;
}

/** Per call: an abort signal, and cache options over the body's own. */
export type LlamaCppCallOptions = ModelCallOptions;

type SearchOnly = { search_only: true };

export interface CachedLlamaCpp {
  readonly baseUrl: string;
  /** `POST /completion`: one result, or (`stream: true`) an async iterable of events ending with `stop: true`. */
  completion(body: CachedLlamaCppCompletionBody & { stream: true } & SearchOnly, options?: LlamaCppCallOptions): Promise<AsyncIterable<Marked<LlamaCppCompletionResponse>> | null>;
  completion(body: CachedLlamaCppCompletionBody & { stream: true }, options?: LlamaCppCallOptions): Promise<AsyncIterable<Marked<LlamaCppCompletionResponse>>>;
  completion(body: CachedLlamaCppCompletionBody & { stream?: false } & SearchOnly, options?: LlamaCppCallOptions): Promise<Marked<LlamaCppCompletionResponse> | null>;
  completion(body: CachedLlamaCppCompletionBody & { stream?: false }, options?: LlamaCppCallOptions): Promise<Marked<LlamaCppCompletionResponse>>;
}

/**
 * A llama.cpp server client with the cache in front of `/completion`. The server's errors are thrown as
 * `ModelServerError` (status and body unchanged); leaving a stream early stops the generation.
 *
 * ```ts
 * const llama = cachedLlamaCpp({ cache });
 * const result = await llama.completion({ prompt: "Building a website can be done in 10 simple steps:", n_predict: 128 });
 * result.semcache; // { hit: true, score: 1, id: 1 } on a hit
 * ```
 */
export function cachedLlamaCpp(options: CachedLlamaCppOptions = {}): CachedLlamaCpp {
  checkClientOptions("cachedLlamaCpp", options);
  if (options.baseUrl !== undefined && (typeof options.baseUrl !== "string" || options.baseUrl.length === 0)) {
    throw new ValidationError("cachedLlamaCpp: `baseUrl` must be a URL.");
  }
  if (options.apiKey !== undefined && typeof options.apiKey !== "string") throw new ValidationError("cachedLlamaCpp: `apiKey` must be a string.");
  const connection: ModelServerConnection = {
    baseUrl: normalizeBaseUrl(options.baseUrl ?? DEFAULT_LLAMACPP_URL),
    headers: { ...(options.apiKey ? { authorization: `Bearer ${options.apiKey}` } : {}), ...options.headers },
    fetch: options.fetch,
  };
  const defaults: FlowOptions = { ...options.cacheOptions, ...(options.cache ? { cacheObj: options.cache } : {}) };

  async function completion(body: CachedLlamaCppCompletionBody, call: LlamaCppCallOptions = {}): Promise<unknown> {
    if (typeof body !== "object" || body === null) throw new ValidationError("The request body must be an object.");
    const { signal, controller } = callSignal(body.stream === true, call.signal);
    const { result } = await cachedLlamaCppCompletion(undefined, body, {
      upstream: async (sent, upstreamSignal) => {
        const response = await postJson(connection, "/completion", sent, upstreamSignal);
        return sent.stream === true ? readSse<LlamaCppCompletionResponse>(response) : ((await response.json()) as LlamaCppCompletionResponse);
      },
      signal,
      defaults,
      cacheOptions: call.cacheOptions,
    });
    return controller && result ? endingWith(result as AsyncIterable<unknown>, controller) : result;
  }

  return { baseUrl: connection.baseUrl, completion } as CachedLlamaCpp;
}
