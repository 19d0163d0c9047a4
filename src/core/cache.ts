import { toEmbeddingFunction, type EmbeddingSource } from "./embedding-source.js";
import type { EmbeddingFunction, EmbeddingInput, EmbeddingOutput } from "./contracts/embedding.js";
import type { DataManagerLike } from "./contracts/data-manager.js";
import type { PostProcessFunc, PreEmbeddingFunc } from "./contracts/processors.js";
import type { SimilarityEvaluation } from "./contracts/evaluation.js";
import { checkSpecificationVersion } from "./contracts/specification.js";
import { Config, type ConfigOptions } from "./config.js";
import { EmbeddingMemo } from "./embedding-memo.js";
import { NotInitError, SemcacheError, ValidationError, ValueTooLongError } from "./errors.js";
import { SingleFlight } from "./flow/single-flight.js";
import { isPartition, keyHash, keyText, partitionOf } from "./keys.js";
import { checkQuestionLength } from "./question-length.js";
import { Report, type Stage } from "./report.js";
import type { CacheRequest } from "./types.js";

/** Decides whether a request uses the cache at all. */
export type ShouldUseCache = (request: CacheRequest, options: object) => boolean;

/** The default: every request uses the cache. */
export const cacheAll: ShouldUseCache = () => true;

/** Options of `cache.init()`; all optional (DESIGN section 3). */
export interface CacheInitOptions {
  /** Decides per request whether the cache is used at all (GPTCache's cache_enable_func). Default `cacheAll`. */
  shouldUseCache?: ShouldUseCache;
  /** Picks the key from a request. Default `lastContent`. */
  preEmbeddingFunc?: PreEmbeddingFunc;
  /** Key -> vector: an EmbeddingFunction, any LangChain `Embeddings`, or a plain function. Default passthrough (exact match). */
  embeddingFunc?: EmbeddingSource;
  /** Storage. Default an in-memory MapDataManager. */
  dataManager?: DataManagerLike;
  /** Judges candidates. Default exact match. */
  similarityEvaluation?: SimilarityEvaluation;
  /** Picks the answer among hits. Default `temperatureSoftmax`. */
  postProcessMessagesFunc?: PostProcessFunc;
  config?: Config | ConfigOptions;
  /** A second cache asked on a miss (its hits are written back here). */
  nextCache?: CacheKernel;
  /** Called with every absorbed cache fault (they are also counted in `report.errors`). */
  onError?: (error: Error) => void;
}

/** The names `init` takes (checked at compile time against CacheInitOptions). */
const INIT_OPTIONS = [
  "shouldUseCache",
  "preEmbeddingFunc",
  "embeddingFunc",
  "dataManager",
  "similarityEvaluation",
  "postProcessMessagesFunc",
  "config",
  "nextCache",
  "onError",
] as const satisfies ReadonlyArray<keyof CacheInitOptions>;
/** Compile-time check that INIT_OPTIONS lists every option. */
type _AllInitOptionsListed<Missing extends never = Exclude<keyof CacheInitOptions, (typeof INIT_OPTIONS)[number]>> = Missing;

/** Options of `importData`. */
export interface ImportOptions {
  /** Request settings the imported entries answer for (e.g. `{ model: "gpt-4o" }`); none by default. */
  partition?: Record<string, unknown>;
  /**
   * Each entry's stored partition as `semcache export` wrote it (the opaque hash; "" or undefined for none):
   * an entry with one is restored into it, so it answers the same requests as before; `partition` applies
   * to the others.
   */
  storedPartitions?: ReadonlyArray<string | undefined>;
}

const IMPORT_EMBED_BATCH = 64;

function checkStoredPartitions(partitions: ReadonlyArray<string | undefined>, entries: number): void {
  if (!Array.isArray(partitions) || partitions.length !== entries) {
    throw new ValidationError("storedPartitions must be a list as long as questions.");
  }
  partitions.forEach((partition, i) => {
    if (partition !== undefined && !isPartition(partition)) {
      throw new ValidationError(`storedPartitions[${i}] is not a partition from an export (16 characters of A-Z a-z 0-9 _ -).`);
    }
  });
}

/**
 * The components a cache uses where `init()` is given none: the shipped ones are in presets/cache.ts (the key is
 * the last message's text, compared exactly, in an in-memory map). The factories make a fresh one per `init()`.
 */
export interface CacheDefaults {
  readonly preEmbeddingFunc: PreEmbeddingFunc;
  readonly postProcessMessagesFunc: PostProcessFunc;
  embeddingFunc(): EmbeddingFunction;
  dataManager(): DataManagerLike;
  similarityEvaluation(): SimilarityEvaluation;
}

/**
 * A cache object with pluggable components (GPTCache's Cache), without defaults of its own: the kernel the
 * request flow runs on. Users make a `Cache` (presets/cache.ts), which is this with the shipped defaults.
 */
export class CacheKernel {
  /** True from the end of `init()` until `close()` (GPTCache's has_init). */
  initialized = false;
  shouldUseCache: ShouldUseCache = cacheAll;
  preEmbeddingFunc: PreEmbeddingFunc;
  embeddingFunc: EmbeddingFunction;
  private manager?: DataManagerLike;
  similarityEvaluation: SimilarityEvaluation;
  postProcessMessagesFunc: PostProcessFunc;
  config: Config = new Config();
  nextCache?: CacheKernel;
  onError?: (error: Error) => void;
  report: Report = new Report();
  /** Model calls in flight, by surface and key (concurrent identical misses share one). */
  private readonly flights = new SingleFlight();
  private savesSinceFlush = 0;
  /** Recent texts' embeddings (config.embeddingMemoSize of them). */
  private embeddings = new EmbeddingMemo(0);

  constructor(private readonly defaults: CacheDefaults) {
    this.preEmbeddingFunc = defaults.preEmbeddingFunc;
    this.postProcessMessagesFunc = defaults.postProcessMessagesFunc;
    this.embeddingFunc = defaults.embeddingFunc();
    this.similarityEvaluation = defaults.similarityEvaluation();
  }

  /**
   * Embeds with the cache's embedding function; a text embedded lately is answered from memory (a lookup and then
   * the save of its miss, a get and then a put embed once). See `ConfigOptions.embeddingMemoSize`.
   */
  embed(data: EmbeddingInput, extra?: unknown): Promise<EmbeddingOutput> {
    return this.embeddings.embed(this.embeddingFunc, data, extra);
  }

  /** The store behind the cache; a NotInitError before init(). */
  get dataManager(): DataManagerLike {
    if (!this.manager) throw new NotInitError();
    return this.manager;
  }

  async init(options: CacheInitOptions = {}): Promise<this> {
    if (typeof options !== "object" || options === null) throw new ValidationError("init options must be an object.");
    // GPTCache hands unknown init options to its data manager; here a data manager takes its own options
    // (managerFactory), so a name this list lacks is a mistake to say, never an option silently dropped.
    const unknown = Object.keys(options).filter((name) => !(INIT_OPTIONS as readonly string[]).includes(name));
    if (unknown.length > 0) {
      throw new ValidationError(`Unknown init option${unknown.length > 1 ? "s" : ""} ${unknown.map((name) => `"${name}"`).join(", ")}: init takes ${INIT_OPTIONS.join(", ")} (data manager options go to managerFactory).`);
    }
    const o = options;
    for (const name of ["shouldUseCache", "preEmbeddingFunc", "postProcessMessagesFunc", "onError"] as const) {
      if (o[name] !== undefined && typeof o[name] !== "function") throw new ValidationError(`${name} must be a function.`);
    }
    if (o.nextCache !== undefined && !(o.nextCache instanceof CacheKernel)) throw new ValidationError("nextCache must be a Cache.");
    if (o.nextCache === this) throw new ValidationError("nextCache cannot be the cache itself.");
    const evaluation = o.similarityEvaluation;
    if (evaluation !== undefined && (typeof evaluation.range !== "function" || typeof evaluation.evaluation !== "function")) {
      throw new ValidationError("similarityEvaluation must have range() and evaluation().");
    }
    if (evaluation !== undefined) checkSpecificationVersion(evaluation, "similarity evaluation");
    const config = o.config instanceof Config ? o.config : new Config(o.config);
    const defaults = this.defaults;
    const embeddingFunc = o.embeddingFunc === undefined ? defaults.embeddingFunc() : toEmbeddingFunction(o.embeddingFunc);
    checkSpecificationVersion(embeddingFunc, "embedding");
    const dataManager = o.dataManager ?? defaults.dataManager();
    await dataManager.init();

    this.shouldUseCache = o.shouldUseCache ?? cacheAll;
    this.preEmbeddingFunc = o.preEmbeddingFunc ?? defaults.preEmbeddingFunc;
    this.embeddingFunc = embeddingFunc;
    this.manager = dataManager;
    this.similarityEvaluation = evaluation ?? defaults.similarityEvaluation();
    this.postProcessMessagesFunc = o.postProcessMessagesFunc ?? defaults.postProcessMessagesFunc;
    this.config = config;
    this.embeddings = new EmbeddingMemo(config.embeddingMemoSize);
    this.nextCache = o.nextCache;
    this.onError = o.onError;
    this.report = new Report(config.logTimeFunc, () => [this.similarityEvaluation]);
    this.savesSinceFlush = 0;
    this.initialized = true;
    return this;
  }

  /**
   * Stores question/answer pairs directly (GPTCache's import_data): the questions are the keys as given,
   * embedded in batches, and written in one transaction (a too-long value writes nothing).
   */
  async importData(
    questions: readonly string[],
    answers: readonly string[],
    sessionIds?: ReadonlyArray<string | undefined>,
    options: ImportOptions = {},
  ): Promise<number[]> {
    this.assertInit();
    if (!Array.isArray(questions) || !Array.isArray(answers)) throw new ValidationError("questions and answers must be lists.");
    if (questions.length !== answers.length) {
      throw new ValidationError(`questions (${questions.length}) and answers (${answers.length}) differ in length.`);
    }
    if (sessionIds !== undefined && (!Array.isArray(sessionIds) || sessionIds.length !== questions.length)) {
      throw new ValidationError("sessionIds must be a list as long as questions.");
    }
    // Lengths are checked before anything is embedded: an over-long question would cost the embedding for nothing.
    const limits = { configured: this.config.maxQuestionLength, column: this.dataManager.tableLen.question, embedding: this.embeddingFunc.maxInputLength };
    questions.forEach((q, i) => {
      if (typeof q !== "string" || q.length === 0) throw new ValidationError(`questions[${i}] must be a non-empty string.`);
      if (typeof answers[i] !== "string" || answers[i].length === 0) throw new ValidationError(`answers[${i}] must be a non-empty string.`);
      checkQuestionLength(q, limits);
    });
    const { storedPartitions } = options;
    if (storedPartitions !== undefined) checkStoredPartitions(storedPartitions, questions.length);
    const shared = partitionOf(options.partition ?? {}, this.config.partitionKeys);
    const embeddings = await this.embedAll(questions);
    return this.dataManager.save(
      questions.map((question, i) => {
        const partition = storedPartitions?.[i] || shared;
        return {
          question,
          keyHash: keyHash(partition, keyText(question)),
          partition,
          answer: answers[i],
          embedding: embeddings[i],
          session: sessionIds?.[i],
        };
      }),
    );
  }

  private async embedAll(texts: readonly string[]) {
    const embedding = this.embeddingFunc;
    const out = [];
    for (let start = 0; start < texts.length; start += IMPORT_EMBED_BATCH) {
      const batch = texts.slice(start, start + IMPORT_EMBED_BATCH);
      out.push(...(embedding.embedBatch ? await embedding.embedBatch(batch) : await Promise.all(batch.map((t) => embedding.embed(t)))));
    }
    return out;
  }

  // The request flow's bookkeeping (core/flow/): what it counts, times, absorbs and shares goes through these.

  /** Counts one request, skip, miss or absorbed error in the report. */
  count(event: "request" | "skip" | "miss" | "error"): void {
    const report = this.report;
    if (event === "request") report.requests++;
    else if (event === "skip") report.skips++;
    else if (event === "miss") report.misses++;
    else report.errors++;
  }

  /** Counts a hit, and the completion tokens its answer saved (characters / 4). */
  countHit(answer: string): void {
    this.report.hits++;
    this.report.savedTokens += Math.ceil(answer.length / 4);
  }

  /** Adds one run of a stage to the report's timings. */
  timeStage(stage: Stage, milliseconds: number): void {
    this.report.time(stage, milliseconds);
  }

  /** Absorbs a cache fault: counted (a too-long value also as a skipped save) and handed to `onError`. */
  absorbFault(error: unknown): void {
    if (ValueTooLongError.isInstance(error)) this.report.savesSkipped++;
    this.report.errors++;
    this.onError?.(error instanceof Error ? error : new SemcacheError("SEMCACHE_STORE", String(error)));
  }

  /** `run`'s result, shared with the concurrent identical misses that ask for the same flight id. */
  shareFlight<R>(id: string, run: () => Promise<R>): Promise<R> {
    return this.flights.share(id, run);
  }

  /** Told of each stored answer: flushes every `config.autoFlush` saves. */
  async recordSave(): Promise<void> {
    if (this.config.autoFlush > 0 && ++this.savesSinceFlush >= this.config.autoFlush) {
      this.savesSinceFlush = 0;
      await this.dataManager.flush({ partial: true });
    }
  }

  /** Writes everything buffered and saves file-backed stores. */
  async flush(): Promise<void> {
    this.assertInit();
    await this.dataManager.flush();
  }

  /** Flushes and closes the stores; the cache needs `init()` again afterwards. */
  async close(): Promise<void> {
    if (!this.initialized) return;
    this.initialized = false;
    await this.dataManager.close();
  }

  private assertInit(): void {
    if (!this.initialized) throw new NotInitError();
  }
}
