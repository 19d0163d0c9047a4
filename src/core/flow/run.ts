/**
 * The request flow (DESIGN section 4). Every surface (LangChain, OpenAI SDK, functions, the HTTP server, the
 * simple API) goes through `runCached` or `runCachedStream`: key, exact lookup, embedding, search, judgement,
 * answer; or the model call, whose answer is stored. The steps live beside this file: request.ts (options, key,
 * stages), lookup.ts (search and judgement), save.ts, and the Cache's single flight.
 */
import type { CacheRequest } from "../types.js";
import { fault } from "./faults.js";
import { answeredFromCache, lookupOrSkip } from "./lookup.js";
import { prepare, type Prepared } from "./request.js";
import { saveResult, storeWhenComplete } from "./save.js";
import type { FlowOptions, StreamSurface, SurfaceBase, ValueSurface } from "./surface.js";

export async function runCached<R>(request: CacheRequest, options: FlowOptions, surface: ValueSurface<R>): Promise<R | null> {
  const prepared = await prepare(request, options, surface);
  if (!prepared) return skipped(options, surface);
  const hit = await lookupOrSkip(prepared, surface);
  if (hit) {
    try {
      const value = await surface.fromCache(hit);
      answeredFromCache(prepared, surface, hit);
      return value;
    } catch (error) {
      // An entry the surface cannot turn into a result is a miss: the model answers instead.
      fault(prepared.cache, surface, error);
      prepared.cache.count("miss");
      surface.onOutcome?.({ status: "MISS" });
    }
  }
  return shareFlight(prepared, surface, () => missValue(request, prepared, surface));
}

export async function runCachedStream<C>(
  request: CacheRequest,
  options: FlowOptions,
  surface: StreamSurface<C>,
): Promise<AsyncIterable<C> | null> {
  const prepared = await prepare(request, options, surface);
  if (!prepared) return skipped(options, surface);
  const hit = await lookupOrSkip(prepared, surface);
  if (hit) {
    answeredFromCache(prepared, surface, hit);
    return surface.replay(hit);
  }
  if (prepared.cache.nextCache) {
    const upstream = await runCachedStream(request, forNextCache(prepared), surface);
    return upstream && storeWhenComplete(upstream, prepared, surface);
  }
  if (prepared.options.searchOnly) return null;
  const started = performance.now();
  const upstream = await surface.call();
  return storeWhenComplete(upstream, prepared, surface, started);
}

/** A request the cache does not take part in: the model answers (nothing, when only searching). */
function skipped<T>(options: FlowOptions, surface: SurfaceBase & { call(): T }): T | null {
  surface.onOutcome?.({ status: "SKIP" });
  return options.searchOnly ? null : surface.call();
}

/** A miss: the next cache answers, else the model (unless searchOnly); the answer is stored here. */
async function missValue<R>(request: CacheRequest, prepared: Prepared, surface: ValueSurface<R>): Promise<R | null> {
  const cache = prepared.cache;
  let result: R | null;
  if (cache.nextCache) {
    result = await runCached(request, forNextCache(prepared), surface);
    if (result === null) return null;
  } else {
    if (prepared.options.searchOnly) return null;
    const started = performance.now();
    result = await surface.call();
    cache.timeStage("llm", performance.now() - started);
    prepared.modelAnswered = true;
  }
  await saveResult(prepared, surface, result);
  return result;
}

/** The next cache sees the same request and options; what it answers is written back here. */
function forNextCache(prepared: Prepared): FlowOptions {
  return { ...prepared.options, cacheObj: prepared.cache.nextCache, cacheSkip: prepared.skip };
}

/** Concurrent identical misses (same cache, surface, partition and key) share one model call. */
function shareFlight<R>(prepared: Prepared, surface: SurfaceBase, run: () => Promise<R>): Promise<R> {
  if (prepared.skip || !prepared.key) return run();
  // A no-store request shares only with its own kind: a storing request must not lose its save to it.
  const id = `${surface.name}\u0000${prepared.options.noStore ? "no-store" : ""}\u0000${prepared.key.hash}`;
  return prepared.cache.shareFlight(id, run);
}
