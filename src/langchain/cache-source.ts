import { Cache } from "../presets/cache.js";
import { MissingDependencyError, NotInitError, ValidationError } from "../core/errors.js";
import { absorbFault } from "../core/pipeline.js";
import { initSimilarCache } from "../presets/similar-cache.js";
import { EMBEDDED_DEFAULT_MANAGER, type ManagerComponents } from "../presets/manager-factory.js";
import { FlatIndex } from "../stores/vector/flat.js";
import { UsearchIndex } from "../stores/vector/usearch-index.js";
import type { VectorIndex } from "../core/contracts/vector-index.js";

const WARNING_PREFIX = "[langchain-semcache]";

/**
 * Where a LangChain surface gets its Cache: one handed over (used once initialised), or one it builds itself on
 * first use. Either way a cache that is not usable never fails the model call: the call goes to the model
 * uncached (fail open), the fault is counted in the cache's report, and one warning is logged.
 */
export class CacheSource {
  private building?: Promise<Cache | undefined>;
  private warned = false;

  constructor(private readonly source: Cache | (() => Promise<Cache>)) {}

  /** The cache to use for this call, or undefined to go to the model uncached. */
  async resolve(): Promise<Cache | undefined> {
    if (typeof this.source !== "function") return this.usable(this.source) ? this.source : undefined;
    // Concurrent first calls share one initialisation; a failed one is not retried (it would fail again, slowly).
    this.building ??= this.source().catch((error: unknown) => {
      this.warn(`the semantic cache could not start, so calls go to the model uncached: ${(error as Error)?.message ?? String(error)}`);
      return undefined;
    });
    return this.building;
  }

  /** Closes the cache this source built, once built (a handed-over cache belongs to its owner). */
  async close(): Promise<void> {
    const built = await this.building;
    this.building = undefined;
    await built?.close();
  }

  /**
   * True for an initialised cache; a handed-over one (or a call option's) that is not is a counted fault with
   * one warning, checked again on every call since its owner may still initialise it.
   */
  usable(cache: Cache): boolean {
    if (cache.initialized) return true;
    const error = new NotInitError("A cache given to SemanticCache is not initialised (call `await cache.init(...)`); calls go to the model uncached until it is.");
    absorbFault(cache, error);
    this.warn(error.message);
    return false;
  }

  private warn(message: string): void {
    if (this.warned) return;
    this.warned = true;
    console.warn(`${WARNING_PREFIX} ${message}`);
  }
}

/** The stores of a cache a LangChain surface builds: in memory (nothing written to disk), or the embedded default in dataDir. */
export function storage(dataDir: string | undefined, vector: VectorIndex = new UsearchIndex({ dimension: 0 })): { manager: string | ManagerComponents; dataDir?: string } {
  return dataDir === undefined ? { manager: { scalar: "memory", vector } } : { manager: EMBEDDED_DEFAULT_MANAGER, dataDir };
}

/**
 * The in-memory vector index: usearch's, or, where its native module cannot load (a platform it ships no build
 * for, whose build step never ran), the exact plain-JavaScript FlatIndex, with one warning saying how to get
 * usearch. So one line works on any install.
 */
export async function memoryIndex(): Promise<VectorIndex> {
  const index = new UsearchIndex({ dimension: 0 });
  try {
    await index.init();
    return index;
  } catch (error) {
    if (!MissingDependencyError.isInstance(error)) throw error;
    console.warn(`${WARNING_PREFIX} ${error.message} Until then the in-memory cache searches its entries one by one (FlatIndex): exact, about 1 ms a lookup per 1,000 entries.`);
    return new FlatIndex();
  }
}

/** Where a surface's own cache tells of its model loading: a function of yours, or false for nothing. */
export type ProgressOption = ((message: string) => void) | false;

/** Whether this process (this copy of the package) has said so already: the model loads once per process. */
let modelLoadingTold = false;

/**
 * The default progress lines: the first own cache of the process says, through the package's warnings, that
 * the offline model is loading (its first use pauses ~1 s) and how long it took; later ones say nothing.
 */
function tellOncePerProcess(): ((message: string) => void) | undefined {
  if (modelLoadingTold) return undefined;
  modelLoadingTold = true;
  return (message) => console.warn(`${WARNING_PREFIX} ${message}`);
}

export function checkProgress(surface: string, onProgress: unknown): void {
  if (onProgress !== undefined && onProgress !== false && typeof onProgress !== "function") {
    throw new ValidationError(`${surface}: \`onProgress\` must be a function of a message, or false for no loading lines.`);
  }
}

/**
 * A surface's own cache, built on first use: the offline preset, in memory or in `dataDir`. Its model loading is
 * told to `onProgress`, by default once per process through console.warn (false: not at all).
 */
export function ownCache(dataDir: string | undefined, threshold: number | undefined, onProgress?: ProgressOption): () => Promise<Cache> {
  return async () => {
    const progress = onProgress === undefined ? tellOncePerProcess() : onProgress || undefined;
    const stores = storage(dataDir, dataDir === undefined ? await memoryIndex() : undefined);
    return initSimilarCache({ cache: new Cache(), threshold, onProgress: progress, ...stores });
  };
}

export function checkThreshold(surface: string, threshold: unknown): void {
  if (threshold !== undefined && !(typeof threshold === "number" && threshold >= 0 && threshold <= 1)) {
    throw new ValidationError(`${surface}: \`threshold\` must be a number in [0, 1].`);
  }
}

export function checkDataDir(surface: string, dataDir: unknown): void {
  if (dataDir !== undefined && (typeof dataDir !== "string" || dataDir.length === 0)) {
    throw new ValidationError(`${surface}: \`dataDir\` must be a non-empty string.`);
  }
}
