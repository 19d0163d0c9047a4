/**
 * One request of any SDK surface through the request flow, with its outcome (HIT, MISS or SKIP) captured
 * for the caller: the HTTP server sets its response headers from it before the first byte of a stream.
 */
import {
  assertFlowOptions,
  runCached,
  runCachedStream,
  type CacheOutcome,
  type FlowOptions,
  type StreamSurface,
  type ValueSurface,
} from "../../core/pipeline.js";
import { cache as globalCache } from "../../presets/cache.js";
import { NotInitError } from "../../core/errors.js";
import type { CacheRequest } from "../../core/types.js";
import type { PreEmbeddingFunc } from "../../core/contracts/processors.js";
import { withDefaultKey } from "./options.js";
import type { CachedCall } from "./types.js";

/** What a surface adds to the flow besides the call: its own key function (unless the request gives one). */
interface SurfaceKey {
  key?: PreEmbeddingFunc;
}

export type ValueSpec<R> = Omit<ValueSurface<R>, "call" | "onOutcome"> & SurfaceKey;
export type StreamSpec<C> = Omit<StreamSurface<C>, "call" | "onOutcome"> & SurfaceKey;

export async function runValue<R>(
  request: CacheRequest,
  options: FlowOptions,
  spec: ValueSpec<R>,
  call: () => Promise<R>,
): Promise<CachedCall<R | null>> {
  let outcome: CacheOutcome = { status: "SKIP" };
  const { key, ...surface } = spec;
  const result = await runCached<R>(request, withDefaultKey(options, key), { ...surface, call, onOutcome: (o) => (outcome = o) });
  return { result, outcome };
}

export async function runStream<C>(
  request: CacheRequest,
  options: FlowOptions,
  spec: StreamSpec<C>,
  call: () => Promise<AsyncIterable<C>>,
): Promise<CachedCall<AsyncIterable<C> | null>> {
  let outcome: CacheOutcome = { status: "SKIP" };
  const { key, ...surface } = spec;
  const result = await runCachedStream<C>(request, withDefaultKey(options, key), { ...surface, call, onOutcome: (o) => (outcome = o) });
  return { result, outcome };
}

/**
 * A request the cache does not answer (tools, several choices, ...): its options are still checked, and so is
 * the cache (an uninitialised one fails every call of the client alike, not only the cachable ones), then it
 * goes upstream.
 */
export async function passThrough<R>(options: FlowOptions, call: () => Promise<R>): Promise<CachedCall<R>> {
  assertFlowOptions(options);
  if (!(options.cacheObj ?? globalCache).initialized) throw new NotInitError();
  return { result: await call(), outcome: { status: "SKIP" } };
}

/** The upstream's answer to a stream request, checked to be a stream (a user's `llm` may return anything). */
export async function asStream<C>(result: unknown): Promise<AsyncIterable<C>> {
  const value = await result;
  if (typeof (value as AsyncIterable<C> | null)?.[Symbol.asyncIterator] !== "function") {
    throw new TypeError("A stream request's upstream (or llm) must return an async iterable of chunks.");
  }
  return value as AsyncIterable<C>;
}
