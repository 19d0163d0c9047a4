import { ValidationError } from "../core/errors.js";
import { runCached, runCachedStream, type CacheHit, type RequestOptions, type StoredAnswer } from "../core/pipeline.js";
import { splitIntoChunks } from "../core/replay.js";
import type { CacheRequest } from "../core/types.js";

export interface CachedOptions<A extends unknown[], R, C> {
  /** Request options for every call (cacheObj, session, ...), or a function of the call's arguments. */
  requestOptions?: RequestOptions | ((...args: A) => RequestOptions);
  /** Builds the cache request from the arguments. Default: a string first argument -> `{ prompt }`; an object -> itself. */
  toRequest?: (...args: A) => CacheRequest;
  /** Names the function (concurrent identical misses share one call only within one name). Default fn.name. */
  name?: string;
  /** The function returns an async iterable of chunks. Detected for async generator functions. */
  stream?: boolean;
  /** What to store from a result. Default: a string as is, anything else as JSON. */
  answerOf?: (result: R) => StoredAnswer | null | undefined;
  /** Builds a result from a hit. Default: the string, or the JSON parsed back. */
  fromCache?: (hit: CacheHit) => R;
  /** The text of a chunk. Default: a string chunk, or its `text`/`content` field. */
  chunkText?: (chunk: C) => string | null | undefined;
  /** Replays a hit as chunks. Default: pieces of a few words, as strings. */
  replay?: (hit: CacheHit) => AsyncIterable<C> | Iterable<C>;
}

function defaultRequest(...args: unknown[]): CacheRequest {
  const [first] = args;
  if (typeof first === "string") return { prompt: first };
  if (typeof first === "object" && first !== null && !Array.isArray(first)) return first as CacheRequest;
  throw new ValidationError("cached(): give a toRequest option for functions whose first argument is not a string or an object.");
}

function defaultAnswer(result: unknown): StoredAnswer | null {
  if (result === undefined || result === null) return null;
  return typeof result === "string" ? result : { answer: JSON.stringify(result), answerType: "object" };
}

function defaultFromCache(hit: CacheHit): unknown {
  return hit.answerType === "object" ? JSON.parse(hit.answer) : hit.answer;
}

function defaultChunkText(chunk: unknown): string | null {
  if (typeof chunk === "string") return chunk;
  const fields = chunk as { text?: unknown; content?: unknown } | null;
  const text = fields?.text ?? fields?.content;
  return typeof text === "string" ? text : null;
}

function isAsyncGeneratorFunction(fn: unknown): boolean {
  return typeof fn === "function" && fn.constructor?.name === "AsyncGeneratorFunction";
}

/**
 * Puts the cache in front of any async function (local models, image pipelines, other SDKs), or of any
 * function returning an async iterable of chunks: chunks pass through as they come, the joined text is
 * stored only when the stream ends normally, and a hit replays as chunks.
 */
export function cached<A extends unknown[], R>(
  fn: (...args: A) => Promise<R>,
  options?: CachedOptions<A, R, unknown> & { stream?: false },
): (...args: A) => Promise<R>;
export function cached<A extends unknown[], C>(
  fn: (...args: A) => AsyncIterable<C>,
  options?: CachedOptions<A, unknown, C> & { stream?: true },
): (...args: A) => AsyncGenerator<C, void, undefined>;
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the overloads above carry the real types
export function cached<A extends unknown[], R, C>(fn: (...args: A) => any, options: CachedOptions<A, any, any> = {}): any {
  if (typeof fn !== "function") throw new ValidationError("cached() needs a function.");
  const name = `fn:${options.name ?? (fn.name || "anonymous")}`;
  const toRequest = options.toRequest ?? (defaultRequest as (...args: A) => CacheRequest);
  const optionsOf = (args: A): RequestOptions =>
    typeof options.requestOptions === "function" ? options.requestOptions(...args) : (options.requestOptions ?? {});

  if (options.stream ?? isAsyncGeneratorFunction(fn)) {
    const chunkText = options.chunkText ?? (defaultChunkText as (chunk: C) => string | null);
    const replay = options.replay ?? ((hit: CacheHit) => splitIntoChunks(hit.answer) as unknown as Iterable<C>);
    return async function* cachedStream(...args: A): AsyncGenerator<C, void, undefined> {
      const stream = await runCachedStream<C>(toRequest(...args), optionsOf(args), {
        name,
        call: () => fn(...args) as AsyncIterable<C>,
        chunkText,
        replay: async function* (hit) {
          yield* replay(hit);
        },
      });
      if (stream) yield* stream;
    };
  }

  const answerOf = options.answerOf ?? (defaultAnswer as (result: R) => StoredAnswer | null);
  const fromCache = options.fromCache ?? (defaultFromCache as (hit: CacheHit) => R);
  return async function cachedCall(...args: A): Promise<R> {
    const result = await runCached<R>(toRequest(...args), optionsOf(args), {
      name,
      call: () => fn(...args) as Promise<R>,
      answerOf,
      fromCache,
    });
    return result as R;
  };
}
