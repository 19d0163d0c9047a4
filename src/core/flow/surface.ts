/**
 * What a surface (LangChain, an SDK adapter, a function, the HTTP server, the simple API) hands the request flow,
 * and what the flow hands back: the per-request options, the surface contracts and the outcome of a request.
 */
import type { CacheKernel } from "../cache.js";
import type { CacheContext } from "../request-context.js";
import type { Session } from "../session.js";
import type { AnswerType, CacheRecord, QuestionDep } from "../types.js";

/** Per-request cache options (camelCase; request bodies use the snake_case forms). */
export interface RequestOptions {
  /** The cache to use instead of the global one. */
  cacheObj?: CacheKernel;
  /** Per-stage arguments or overrides (see CacheContext). */
  cacheContext?: CacheContext;
  /** Do not read the cache (still embeds and stores the answer). */
  cacheSkip?: boolean;
  /** The conversation this request belongs to (a Session, or its name). */
  session?: Session | string;
  /** 0 to 2; above 0 the cache is skipped at random, at 2 always. Defaults to the request's temperature, else 0. */
  temperature?: number;
  /** Candidates fetched from the vector index (default config.topK). */
  topK?: number;
  /** Answer from the cache only: a miss returns null instead of calling the model. */
  searchOnly?: boolean;
}

/**
 * Per-request storage controls (HTTP `Cache-Control: no-store` and `max-age=N` map to them; `no-cache` is
 * `cacheSkip`). Every entry point of the flow accepts them next to the RequestOptions.
 */
export interface StorageControls {
  /** Look the request up, but never store its answer (nor write a next cache's hit back). */
  noStore?: boolean;
  /** A stored entry older than this many seconds is not a hit (0: only an entry stored this very millisecond). */
  maxAgeSeconds?: number;
}

/** What the flow accepts per request: the cache options plus the storage controls. */
export type FlowOptions = RequestOptions & StorageControls;

/** How the cache answered one request: from an entry, by calling the model after a lookup, or without a lookup. */
export type CacheStatus = "HIT" | "MISS" | "SKIP";

/** The outcome of one request, as a surface reports it (the HTTP server's `x-semcache` header). */
export interface CacheOutcome {
  status: CacheStatus;
  /**
   * A hit's normalised score in [0, 1]; on a miss, the best score a candidate got (under the threshold, or
   * turned down by the post function), when any candidate was judged: how near the miss came.
   */
  score?: number;
  /** A hit's entry id. */
  id?: number;
  /** Seconds since a hit's entry was stored. */
  ageSeconds?: number;
}

/**
 * A stored answer as a surface produces it: text, or text with its type (images: object-store keys) and deps
 * (`object` deps name the files the answer points to, deleted with the entry).
 */
export type StoredAnswer = string | { answer: string; answerType: AnswerType; deps?: QuestionDep[] };

/** A cache hit, handed to the surface to build its own result shape. */
export interface CacheHit {
  answer: string;
  answerType: AnswerType;
  /** Normalised score in [0, 1]. */
  score: number;
  id: number;
  /** The stored question that matched. */
  question: string;
  record: CacheRecord;
  /** The cache the entry came from (its object store holds any bytes the answer points to). */
  cache: CacheKernel;
  /** Every hit the post function kept, best first (the chosen one included). */
  candidates: ReadonlyArray<{ score: number; record: CacheRecord }>;
}

export interface SurfaceBase {
  /** Names the surface: concurrent identical misses share one model call only within one surface. */
  name: string;
  /** Put/get semantics: cache faults throw instead of failing open. */
  strict?: boolean;
  /**
   * Mixed into the request's partition: answers of another kind (a transcript, an image, a moderation result)
   * or about other attachments (the images of a vision question) never answer this request.
   */
  partition?: string;
  /** Told how the request was answered, once the cache has decided (again for a next cache's own answer). */
  onOutcome?(outcome: CacheOutcome): void;
}

/** Where an answer is about to be stored (images go to that cache's object store). */
export interface SaveContext {
  cache: CacheKernel;
}

/** A surface whose model call returns one value. */
export interface ValueSurface<R> extends SurfaceBase {
  call(): Promise<R>;
  /** What to store from a result; falsy = store nothing. A throw is a cache fault: the result still returns. */
  answerOf(result: R, context: SaveContext): StoredAnswer | null | undefined | Promise<StoredAnswer | null | undefined>;
  /** Builds the result of a hit. A throw (say, the object an answer points to is gone) makes the request a miss. */
  fromCache(hit: CacheHit): R | Promise<R>;
}

/** A surface whose model call returns a stream of chunks. */
export interface StreamSurface<C> extends SurfaceBase {
  call(): AsyncIterable<C> | Promise<AsyncIterable<C>>;
  /** The text a chunk adds to the answer (joined and stored when the stream ends normally). */
  chunkText(chunk: C): string | null | undefined;
  /** What to store once the stream has ended normally, from the joined text; falsy = store nothing. Default: the text. */
  answerOf?(text: string): StoredAnswer | null | undefined;
  /** Replays a hit as chunks of the surface's own shape. */
  replay(hit: CacheHit): AsyncIterable<C>;
}
