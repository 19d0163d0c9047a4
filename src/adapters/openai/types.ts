/**
 * Shared shapes of the OpenAI SDK adapter: the cache options a request body may carry, the user function a
 * miss may go to, the hit marker, and a call's result with its outcome. The SDK's own types are imported as
 * types only: nothing here loads `openai` at run time.
 */
import type OpenAI from "openai";
import type { Cache } from "../../presets/cache.js";
import type { CacheOutcome, FlowOptions } from "../../core/pipeline.js";
import type { CacheContext } from "../../core/request-context.js";
import type { Session } from "../../core/session.js";

/** The SDK's per-call options (headers, signal, timeout, ...), the second argument of every `create`. */
export type SdkRequestOptions = NonNullable<Parameters<OpenAI["chat"]["completions"]["create"]>[1]>;

/** What the adapter's `llm` function gets besides the request body. */
export interface LlmCallOptions {
  /** The request's `cache_args`, as given. */
  cacheArgs?: Record<string, unknown>;
  /** Aborts when the caller aborts (or stops reading a stream). */
  signal?: AbortSignal;
}

/** A user function that answers a miss instead of the client: a local model, another provider, a test double. */
export type LlmFunction<B, R> = (body: B, options: LlmCallOptions) => R | Promise<R>;

/**
 * Cache options in a request body (GPTCache's names), removed before the upstream call; every other field is
 * sent on untouched. `temperature` is also the provider's own setting where the endpoint has one (chat,
 * completions, audio): it stays in the body and drives the cache's temperature rule too.
 */
export interface CacheBodyOptions<B = never, R = never> {
  /** The cache to use instead of the wrapper's (or the global) one. */
  cache_obj?: Cache;
  /** Per-stage arguments or overrides (`pre_embedding_func`, `embedding_func`, ...). */
  cache_context?: CacheContext;
  /** Do not read the cache (the answer is still stored). */
  cache_skip?: boolean;
  /** The conversation this request belongs to (a Session or its name). */
  session?: Session | string;
  /** 0 to 2: above 0 the cache is skipped at random, at 2 always. */
  temperature?: number | null;
  /** Candidates fetched from the vector index. */
  top_k?: number;
  /** Answer from the cache only: a miss returns null instead of calling the model. */
  search_only?: boolean;
  /** Answers a miss instead of the client. */
  llm?: LlmFunction<B, R>;
  /** Extra arguments handed to `llm`. */
  cache_args?: Record<string, unknown>;
  /**
   * Chat: reuse an answer stored after other system messages or earlier turns (GPTCache's `last_content`
   * sharing). Default false: the messages before the keyed one partition the answers.
   */
  share_across_contexts?: boolean;
}

/** How a hit is marked on the SDK's result shapes (as on the LangChain surfaces). */
export interface OpenAIHitMarker {
  hit: true;
  score: number;
  id: number;
}

/** An SDK result that may carry the cache's hit marker (present on hits only). */
export type Marked<T> = T & { semcache?: OpenAIHitMarker };

/** A request's result and how the cache answered it (HIT, MISS or SKIP; a hit's score, id and age). */
export interface CachedCall<R> {
  result: R;
  outcome: CacheOutcome;
}

/**
 * How a request reaches the provider and which cache options apply besides the body's own. The HTTP server's
 * proxy passes `upstream` (its provider call) and maps Cache-Control to `cacheOptions`.
 */
export interface UpstreamSettings<B, R> {
  /** What a miss calls, and what an uncached request (tools, n > 1, ...) goes to directly. */
  upstream: (body: B, signal?: AbortSignal) => Promise<R>;
  /** Handed to `upstream` (and to `llm`); stops a stream replayed from the cache too. */
  signal?: AbortSignal;
  /** Cache options over the body's own (e.g. from Cache-Control: `noStore`, `maxAgeSeconds`, `cacheSkip`). */
  cacheOptions?: FlowOptions;
  /** Cache options under the body's own (a wrapper's defaults). */
  defaults?: FlowOptions;
  /** The default of the body's `share_across_contexts` (a wrapper's `shareAcrossContexts`). */
  shareAcrossContexts?: boolean;
}
