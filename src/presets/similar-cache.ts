import { toEmbeddingFunction, type EmbeddingSource } from "../core/embedding-source.js";
import type { EmbeddingFunction } from "../core/contracts/embedding.js";
import { UniversalSentenceEncoderEmbeddings } from "../embeddings/use.js";
import type { EvictionPolicy } from "../core/contracts/eviction.js";
import { EMBEDDED_DEFAULT_MANAGER, managerFactory, type ManagerComponents, type ScalarParams, type VectorParams } from "./manager-factory.js";
import type { PostProcessFunc, PreEmbeddingFunc } from "../core/contracts/processors.js";
import { DistanceEvaluation } from "../similarity/distance.js";
import { loadLexicon } from "../similarity/lexicon.js";
import { DEFAULT_GUARD_THRESHOLD, PrecisionGuardEvaluation } from "../similarity/precision-guard.js";
import { DEFAULT_PRESET_THRESHOLD, presetEvaluation } from "../similarity/preset.js";
import type { SimilarityEvaluation } from "../core/contracts/evaluation.js";
import { cache as globalCache, type Cache } from "./cache.js";
import { Config, type ConfigOptions } from "../core/config.js";
import { ValidationError } from "../core/errors.js";

/**
 * The preset's similarity threshold (cosine similarity of Universal Sentence Encoder vectors). Picked on the
 * QQP tune split (indexes 0-59,999) and the paraphrase pairs: see docs/semantic.md for the figures.
 */
export const DEFAULT_SIMILAR_THRESHOLD = 0.9;

/** Options of `initSimilarCache`; every one optional. */
export interface SimilarCacheOptions {
  /** Where the SQLite file and the vector index live. Default `./semcache_data`. */
  dataDir?: string;
  /** Key -> vector. Default the offline Universal Sentence Encoder (512-d). */
  embedding?: EmbeddingSource;
  /**
   * Judges candidates. Default: with the Universal Sentence Encoder (the default embedding, or any
   * UniversalSentenceEncoderEmbeddings: batching and the worker thread do not change its vectors),
   * `presetEvaluation()` (the precision guard, fitted on its cosines, which refuses pairs that differ in a
   * number, a name, a negation or an opposite action, blended with the cosine and weighed down when another
   * stored question with another answer is about as near); with another embedding, DistanceEvaluation
   * (cosine similarity).
   */
  evaluation?: SimilarityEvaluation;
  /**
   * Score a candidate needs to be a hit; overrides config.similarityThreshold. Default DEFAULT_PRESET_THRESHOLD
   * with the preset's evaluation, DEFAULT_GUARD_THRESHOLD with a PrecisionGuardEvaluation, else
   * DEFAULT_SIMILAR_THRESHOLD.
   */
  threshold?: number;
  /** Entries kept before eviction; unbounded by default. */
  maxSize?: number;
  /** Entries evicted at once when maxSize is passed. Default 20% of maxSize. */
  cleanSize?: number;
  /** "LRU" (default), "LFU", "FIFO" or a policy. */
  eviction?: string | EvictionPolicy;
  /** Seconds an entry lives; none by default. */
  ttlSeconds?: number;
  /** "scalar,vector" store kinds, or the stores themselves. Default EMBEDDED_DEFAULT_MANAGER ("sqlite,usearch"). */
  manager?: string | ManagerComponents;
  /** With a shared scalar store and the in-process index: ms between pulls of other replicas' entries (default 250). */
  syncIntervalMs?: number;
  /** Milliseconds between writes of buffered hit counts, last-access times and report rows (default 5000). */
  bookkeepingIntervalMs?: number;
  scalarParams?: ScalarParams;
  vectorParams?: VectorParams;
  /** Picks the key from a request. Default the cache's (`lastContent`). */
  preEmbeddingFunc?: PreEmbeddingFunc;
  /** Picks the answer among hits. Default the cache's (`temperatureSoftmax`). */
  postProcessMessagesFunc?: PostProcessFunc;
  /** The cache to set up. Default the global `cache`. */
  cache?: Cache;
  config?: Config | ConfigOptions;
  /**
   * Told of startup progress, one line at a time without a newline: that the embedding model is loading,
   * then how long it took to load and embed the warm-up text. Default silent (`semcache serve` prints them).
   */
  onProgress?: (message: string) => void;
  /**
   * Embed one text before resolving (default true), so the first request does not pay for loading the model.
   * False leaves the loading to the first embedding, for tools that may never embed (stats, export).
   */
  warmUp?: boolean;
}

/** Embedded once before initSimilarCache resolves, so the first request does not pay for loading the model. */
const WARM_UP_TEXT = "Is the embedding model ready?";

/** The embedding's name for progress lines. */
function embeddingName(embedding: EmbeddingSource): string {
  if (typeof embedding === "function") return embedding.name || "embedding function";
  const name = (embedding as object).constructor?.name;
  return name && name !== "Object" ? name : "embedding";
}

function configOf(config: Config | ConfigOptions | undefined, threshold: number | undefined, fallback: number): Config {
  if (config instanceof Config) {
    if (threshold === undefined || threshold === config.similarityThreshold) return config;
    // A Config's fields are its options (lists read-only, which the constructor never mutates).
    return new Config({ ...(config as unknown as ConfigOptions), similarityThreshold: threshold });
  }
  return new Config({ ...config, similarityThreshold: threshold ?? config?.similarityThreshold ?? fallback });
}

/**
 * Models load on their first text (the default one on its worker thread: 0.5 to 1 s): embeds one now, so no
 * request pays for it. `init()` learns an unknown dimension with a probe, which is that text.
 */
async function warmUpEmbedding(embeddingFunc: EmbeddingFunction, name: string, onProgress?: (message: string) => void): Promise<void> {
  onProgress?.(`loading the embedding model (${name})`);
  const loadStart = performance.now();
  const probes = embeddingFunc.dimension === 0 && embeddingFunc.init !== undefined;
  await embeddingFunc.init?.();
  if (!probes) await embeddingFunc.embed(WARM_UP_TEXT);
  const loadMs = Math.round(performance.now() - loadStart);
  onProgress?.(`embedding model ready in ${loadMs} ms`);
}

/** Whether the cache will judge with the preset (as below), whose precision guard reads the questions' words. */
function judgesWords(options: SimilarCacheOptions): boolean {
  const evaluation = options.evaluation;
  return evaluation === undefined ? options.embedding === undefined || options.embedding instanceof UniversalSentenceEncoderEmbeddings : evaluation instanceof PrecisionGuardEvaluation;
}

/**
 * The offline semantic cache in one call: the Universal Sentence Encoder, an SQLite file and an HNSW index
 * in `dataDir`, and `presetEvaluation()` judging candidates. Entries survive restarts on the same dataDir.
 * Resolves once the embedding has embedded a warm-up text (its model loaded: 0.5 to 1 s for the default one),
 * so the first request is as fast as the next.
 */
export async function initSimilarCache(options: SimilarCacheOptions = {}): Promise<Cache> {
  if (typeof options !== "object" || options === null) throw new ValidationError("initSimilarCache options must be an object.");
  const { threshold } = options;
  if (threshold !== undefined && !(typeof threshold === "number" && threshold >= 0 && threshold <= 1)) {
    throw new ValidationError("initSimilarCache: `threshold` must be a number in [0, 1].");
  }
  const target = options.cache ?? globalCache;
  // On a worker thread: embedding a miss must not stall the hits being answered meanwhile.
  const embedding = options.embedding ?? new UniversalSentenceEncoderEmbeddings({ worker: true });
  const known = (embedding as { dimension?: unknown }).dimension;
  const embeddingFunc = toEmbeddingFunction(embedding, { dimension: typeof known === "number" && known > 0 ? known : undefined });
  if (options.warmUp ?? true) {
    const warming = warmUpEmbedding(embeddingFunc, embeddingName(embedding), options.onProgress);
    // The default judge reads words: its lexicon (~0.1 s) loads here, while the model loads on its thread.
    if (judgesWords(options)) loadLexicon();
    await warming;
  }
  // Learns an unknown dimension with one probe, so the index is created at the right size.
  else await embeddingFunc.init?.();
  const dimension = options.vectorParams?.dimension ?? (embeddingFunc.dimension || undefined);
  const dataManager = managerFactory(options.manager ?? EMBEDDED_DEFAULT_MANAGER, {
    dataDir: options.dataDir ?? "./semcache_data",
    maxSize: options.maxSize,
    cleanSize: options.cleanSize,
    eviction: options.eviction,
    ttlSeconds: options.ttlSeconds,
    syncIntervalMs: options.syncIntervalMs,
    bookkeepingIntervalMs: options.bookkeepingIntervalMs,
    scalarParams: options.scalarParams,
    vectorParams: { ...options.vectorParams, dimension },
  });
  // The guard's model was fitted on the default embedding's cosines, so the preset judge is the default only with it.
  const preset = options.evaluation === undefined && (options.embedding === undefined || options.embedding instanceof UniversalSentenceEncoderEmbeddings);
  const evaluation = options.evaluation ?? (preset ? presetEvaluation() : new DistanceEvaluation());
  const fallback = preset ? DEFAULT_PRESET_THRESHOLD : evaluation instanceof PrecisionGuardEvaluation ? DEFAULT_GUARD_THRESHOLD : DEFAULT_SIMILAR_THRESHOLD;
  return target.init({
    embeddingFunc,
    dataManager,
    similarityEvaluation: evaluation,
    preEmbeddingFunc: options.preEmbeddingFunc,
    postProcessMessagesFunc: options.postProcessMessagesFunc,
    config: configOf(options.config, threshold, fallback),
  });
}
