import type { Config } from "../config.js";
import type { CacheRequest } from "../types.js";

export interface PreEmbeddingContext {
  config: Config;
  /** Per-request arguments (cache_context.pre_embedding_func). */
  extra?: unknown;
}

/** A key, or a key plus a separate form to store as the question (GPTCache's (pre_embedding, pre_store) pair). */
export type PreEmbeddingResult = string | Uint8Array | { key: string | Uint8Array; store?: string };

/** Picks the cache key from a request. */
export type PreEmbeddingFunc = (
  request: CacheRequest,
  context: PreEmbeddingContext,
) => PreEmbeddingResult | Promise<PreEmbeddingResult>;

export interface PostProcessContext {
  /** The request's temperature (0 to 2). */
  temperature: number;
  random: () => number;
}

/**
 * Picks the answer among hits (sorted best first). Returns one hit, a list (all kept; the first is used and
 * the rest are exposed as candidates), or null/undefined for "no answer" (a miss).
 */
export type PostProcessFunc = <T extends { score: number }>(
  hits: readonly T[],
  context: PostProcessContext,
) => T | readonly T[] | null | undefined;
