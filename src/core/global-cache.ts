/**
 * GPTCache's global cache: the one a call without `cacheObj` uses. It is made with the shipped defaults in
 * presets/cache.ts, which installs it here when it loads (every entry that exports `cache`, or a surface that
 * falls back on it, loads that module), so the kernel reaches it without importing the components.
 */
import type { CacheKernel } from "./cache.js";
import { NotInitError } from "./errors.js";

let installed: CacheKernel | undefined;

/** Makes `cache` the global cache (presets/cache.ts does, once). */
export function installGlobalCache(cache: CacheKernel): void {
  installed = cache;
}

/** The global cache. */
export function globalCache(): CacheKernel {
  if (!installed) {
    throw new NotInitError("No cache was given (cacheObj) and the global cache is not loaded: import { cache } from \"langchain-semcache\".");
  }
  return installed;
}
