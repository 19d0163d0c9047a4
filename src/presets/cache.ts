/**
 * The Cache users make: the kernel (core/cache.ts) with the shipped defaults, which GPTCache's Cache has too: the
 * key is the last message's text, its "embedding" the text itself, judged by exact match, stored in an in-memory
 * map, and the best hit answers. Also the global cache that calls without `cacheObj` use.
 */
import { CacheKernel, type CacheDefaults } from "../core/cache.js";
import { installGlobalCache } from "../core/global-cache.js";
import { StringEmbedding } from "../embeddings/string.js";
import { temperatureSoftmax } from "../processors/post.js";
import { lastContent } from "../processors/pre.js";
import { ExactMatchEvaluation } from "../similarity/exact-match.js";
import { MapDataManager } from "./map-manager.js";

const SHIPPED_DEFAULTS: CacheDefaults = {
  preEmbeddingFunc: lastContent,
  postProcessMessagesFunc: temperatureSoftmax,
  embeddingFunc: () => new StringEmbedding(),
  dataManager: () => new MapDataManager(),
  similarityEvaluation: () => new ExactMatchEvaluation(),
};

/** A cache object with pluggable components (GPTCache's Cache); `init()` takes the ones to use instead of the defaults. */
export class Cache extends CacheKernel {
  constructor() {
    super(SHIPPED_DEFAULTS);
  }
}

/** The global cache, used by every call that passes no cacheObj. */
export const cache = new Cache();
installGlobalCache(cache);
