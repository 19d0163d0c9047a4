/**
 * The caches a server answers from, and how namespaces map onto them. One store serves every tenant: a
 * request's namespace is one more partition key (`semcache_namespace`), so entries written in one namespace
 * never match a request of another, while requests with no namespace keep the partitions they always had.
 * The plain map (`PUT/GET /?prompt=`) is a second, exact-match-only Cache over the same data manager, with
 * its own partition (`semcache_map`), so its entries never answer /get or the proxy and are never embedded.
 */
import { readFile } from "node:fs/promises";
import { loadGptCacheConfig, similarCacheOptionsFromConfig, type GptCacheConfig } from "../config/gptcache-config.js";
import { Cache } from "../presets/cache.js";
import { Config, type ConfigOptions } from "../core/config.js";
import { ValidationError } from "../core/errors.js";
import { EMBEDDED_DEFAULT_MANAGER } from "../presets/manager-factory.js";
import { initSimilarCache, type SimilarCacheOptions } from "../presets/similar-cache.js";
import type { ServerSection } from "./server-config.js";

export const NAMESPACE_KEY = "semcache_namespace";
export const MAP_KEY = "semcache_map";

/** Request fields that put a request in a namespace (none for the shared default). */
export function namespaceFields(namespace: string | undefined): Record<string, unknown> | undefined {
  return namespace === undefined ? undefined : { [NAMESPACE_KEY]: namespace };
}

/** Request fields of the plain map's entries in a namespace. */
export function mapFields(namespace: string | undefined): Record<string, unknown> {
  return { ...namespaceFields(namespace), [MAP_KEY]: true };
}

/**
 * Adds the namespace to the cache's partition keys (a key no request sets changes no partition, so entries
 * stored before keep matching requests without a namespace).
 */
export function ensureNamespaceKey(cache: Cache): void {
  const keys = cache.config.partitionKeys;
  if (keys.includes(NAMESPACE_KEY)) return;
  // A Config's fields are its options (lists read-only, which the constructor never mutates).
  cache.config = new Config({ ...(cache.config as unknown as ConfigOptions), partitionKeys: [...keys, NAMESPACE_KEY] });
}

/** The exact-match cache of `PUT/GET /?prompt=`, over the main cache's data manager. */
export function createMapCache(main: Cache): Promise<Cache> {
  return new Cache().init({
    dataManager: main.dataManager,
    config: { partitionKeys: [NAMESPACE_KEY, MAP_KEY], autoFlush: main.config.autoFlush },
    onError: main.onError,
  });
}

export interface ServerCacheOptions {
  /** A GPTCache YAML config (`-f`). */
  configPath?: string;
  /** Overrides the config's storage_config.data_dir. Default `./semcache_data`. */
  dataDir?: string;
  /** Startup progress lines (the embedding model loading, and its load time); default silent. */
  onProgress?: (message: string) => void;
  /** Load the model and embed a warm-up text before resolving (default true); false for tools that may never embed. */
  warmUp?: boolean;
}

/** The cache a server answers from, and what it was set up with (for the startup line). */
export interface ServerCache {
  cache: Cache;
  /** The config's `server` section. */
  server?: ServerSection;
  /** The data dir in force. */
  dataDir: string;
  /** The "scalar,vector" store kinds in force, e.g. "sqlite,usearch". */
  stores: string;
}

/** Reads and checks a YAML config (server section included), building nothing: a typo fails before any model loads. */
export async function readConfigFile(configPath: string): Promise<GptCacheConfig> {
  let text: string;
  try {
    text = await readFile(configPath, "utf8");
  } catch (error) {
    throw new ValidationError(`Cannot read the config file ${configPath}: ${(error as Error).message}`, { cause: error });
  }
  return loadGptCacheConfig(text);
}

/**
 * The cache `semcache serve` runs: the YAML config's when given (a path, or one read already), else the
 * offline semantic preset (`initSimilarCache`: Universal Sentence Encoder, SQLite, usearch, the preset's judge)
 * in dataDir. What the config leaves unset keeps the preset's (the judge and its threshold included). Resolves
 * once the embedding model has embedded a warm-up text, so the first request is not slowed by its loading.
 */
export async function openServerCache(options: ServerCacheOptions & { config?: GptCacheConfig } = {}): Promise<ServerCache> {
  const cache = new Cache();
  const config = options.config ?? (options.configPath === undefined ? undefined : await readConfigFile(options.configPath));
  const fromFile: SimilarCacheOptions = config === undefined ? {} : similarCacheOptionsFromConfig(config);
  const dataDir = options.dataDir ?? fromFile.dataDir ?? "./semcache_data";
  const manager = fromFile.manager ?? EMBEDDED_DEFAULT_MANAGER;
  await initSimilarCache({ ...fromFile, cache, dataDir, manager, onProgress: options.onProgress, warmUp: options.warmUp });
  const stores = typeof manager === "string" ? manager.replace(/\s+/g, "") : "custom";
  return { cache, server: config?.serverOptions, dataDir, stores };
}
