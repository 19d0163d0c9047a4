import { readFile } from "node:fs/promises";
import { parse } from "yaml";
import type { Cache } from "../core/cache.js";
import type { ConfigOptions } from "../core/config.js";
import { UnknownKindError, ValidationError } from "../core/errors.js";
import { initSimilarCache, type SimilarCacheOptions } from "../core/similar-cache.js";
import { StringEmbedding } from "../embeddings/string.js";
import { UniversalSentenceEncoderEmbeddings } from "../embeddings/use.js";
import { WinkEmbeddings } from "../embeddings/wink.js";
import type { ScalarParams, VectorParams } from "../manager/factory.js";
import { concatAllQueries } from "../processors/context/concat.js";
import { first, nop, randomOne, temperatureSoftmax } from "../processors/post.js";
import * as pre from "../processors/pre.js";
import type { PostProcessFunc, PreEmbeddingFunc } from "../processors/types.js";
import { DistanceEvaluation } from "../similarity/distance.js";
import { ExactMatchEvaluation } from "../similarity/exact-match.js";
import { KReciprocalEvaluation } from "../similarity/k-reciprocal.js";
import { TimeEvaluation } from "../similarity/time.js";
import type { SimilarityEvaluation } from "../similarity/types.js";

/** A GPTCache YAML config, checked and in this package's terms (component names not yet resolved). */
export interface GptCacheConfig {
  /** Embedding kind: "use" (default), "wink", or "string" (exact match). */
  embedding: string;
  embeddingConfig: { batchSize?: number };
  storage: {
    dataDir?: string;
    manager?: string;
    maxSize?: number;
    cleanSize?: number;
    eviction?: string;
    ttl?: number;
    scalarParams?: ScalarParams;
    vectorParams?: VectorParams;
  };
  /** Evaluation kind: "distance" (default for vectors), "exact" (default for "string"), "time", "kreciprocal". */
  evaluation?: string;
  evaluationConfig: Record<string, unknown>;
  preFunction?: string;
  preContextFunction?: string;
  postFunction?: string;
  config: ConfigOptions;
  /** The HTTP server's section, passed through unchecked: the server validates its own settings. */
  server?: Record<string, unknown>;
}

const EMBEDDINGS = ["use", "universal-sentence-encoder", "universal_sentence_encoder", "wink", "string", "none"];
const EVALUATIONS = ["distance", "exact", "time", "kreciprocal"];
const EVICTIONS = ["LRU", "LFU", "FIFO"];

/** GPTCache's pre_function names. */
const PRE_FUNCTIONS: Record<string, PreEmbeddingFunc> = {
  last_content: pre.lastContent,
  last_content_without_prompt: pre.lastContentWithoutPrompt,
  last_content_without_template: pre.lastContentWithoutTemplate,
  get_prompt: pre.getPrompt,
  get_messages: pre.getMessages,
  get_file_bytes: pre.getFileBytes,
  get_openai_moderation_input: pre.getModerationInput,
  concat_all_queries: concatAllQueries,
};

/** GPTCache's pre_context_function names; the summarising and selective ones need a model, so code only. */
const PRE_CONTEXT_FUNCTIONS: Record<string, PreEmbeddingFunc> = { concat: concatAllQueries };

const POST_FUNCTIONS: Record<string, PostProcessFunc> = {
  first: first as PostProcessFunc,
  nop: nop as PostProcessFunc,
  random_one: randomOne as PostProcessFunc,
  temperature_softmax: temperatureSoftmax,
};

function isMapping(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** One mapping of the YAML document: typed reads that name the key's path on failure, and unknown-key checks. */
class Section {
  readonly #data: Record<string, unknown>;
  readonly #seen = new Set<string>();

  constructor(
    value: unknown,
    readonly path: string,
  ) {
    if (!isMapping(value)) throw new ValidationError(`${path || "The config"} must be a mapping of keys to values.`);
    this.#data = value;
  }

  /** The value, with YAML's empty value (null) read as unset, as GPTCache's template leaves sections empty. */
  #take(key: string): unknown {
    this.#seen.add(key);
    return this.#data[key] ?? undefined;
  }

  #fail(key: string, what: string): never {
    throw new ValidationError(`${this.path ? `${this.path}.` : ""}${key} must be ${what}`);
  }

  #check<T>(key: string, ok: (value: unknown) => boolean, what: string): T | undefined {
    const value = this.#take(key);
    if (value !== undefined && !ok(value)) this.#fail(key, what);
    return value as T | undefined;
  }

  /** A string; with `allowed`, one of them (any case), returned as spelled in the list. */
  string(key: string, allowed?: readonly string[]): string | undefined {
    const value = this.#check<string>(key, (v) => typeof v === "string" && v.length > 0, "a non-empty string");
    if (value === undefined || !allowed) return value;
    return allowed.find((name) => name.toLowerCase() === value.toLowerCase()) ?? this.#fail(key, `one of: ${allowed.join(", ")}`);
  }

  positiveInteger(key: string): number | undefined {
    return this.#check(key, (v) => Number.isInteger(v) && (v as number) > 0, "a positive integer");
  }

  nonNegativeInteger(key: string): number | undefined {
    return this.#check(key, (v) => Number.isInteger(v) && (v as number) >= 0, "a non-negative integer");
  }

  positiveNumber(key: string): number | undefined {
    return this.#check(key, (v) => typeof v === "number" && v > 0 && Number.isFinite(v), "a positive number");
  }

  numberIn(key: string, min: number, max: number): number | undefined {
    return this.#check(key, (v) => typeof v === "number" && v >= min && v <= max, `a number in [${min}, ${max}]`);
  }

  boolean(key: string): boolean | undefined {
    return this.#check(key, (v) => typeof v === "boolean", "true or false");
  }

  stringList(key: string): string[] | undefined {
    return this.#check(key, (v) => Array.isArray(v) && v.every((item) => typeof item === "string"), "a list of strings");
  }

  stringOrList(key: string): string | string[] | undefined {
    const isList = (v: unknown) => Array.isArray(v) && v.every((item) => typeof item === "string");
    return this.#check(key, (v) => typeof v === "string" || isList(v), "a string or a list of strings");
  }

  section(key: string): Section | undefined {
    const value = this.#take(key);
    return value === undefined ? undefined : new Section(value, this.path ? `${this.path}.${key}` : key);
  }

  /** Every entry as is (for sections checked elsewhere); counts them all as read. */
  entries(): Record<string, unknown> {
    for (const key of Object.keys(this.#data)) this.#seen.add(key);
    return { ...this.#data };
  }

  /** Refuses keys nobody read: a typo must not silently fall back to a default. */
  done(): void {
    const unknown = Object.keys(this.#data).filter((key) => !this.#seen.has(key));
    if (unknown.length > 0) {
      const where = this.path ? ` in ${this.path}` : "";
      throw new ValidationError(`Unknown config key${unknown.length > 1 ? "s" : ""}${where}: ${unknown.join(", ")}`);
    }
  }
}

function readScalarParams(section: Section | undefined): ScalarParams | undefined {
  if (!section) return undefined;
  const lengths = section.section("table_len_config");
  const tableLenConfig = lengths && {
    question_question: lengths.positiveInteger("question_question"),
    answer_answer: lengths.positiveInteger("answer_answer"),
    session_id: lengths.positiveInteger("session_id"),
    dep_name: lengths.positiveInteger("dep_name"),
    dep_data: lengths.positiveInteger("dep_data"),
  };
  lengths?.done();
  const params = { path: section.string("path"), tablePrefix: section.string("table_prefix"), tableLenConfig };
  section.done();
  return params;
}

function readVectorParams(section: Section | undefined): VectorParams | undefined {
  if (!section) return undefined;
  const params = {
    dimension: section.positiveInteger("dimension"),
    path: section.string("path"),
    M: section.positiveInteger("m"),
    efConstruction: section.positiveInteger("ef_construction"),
    ef: section.positiveInteger("ef"),
    initialCapacity: section.positiveInteger("initial_capacity"),
  };
  section.done();
  return params;
}

/**
 * Parses and checks a GPTCache YAML config. Accepts GPTCache's keys (and its older aliases model_source,
 * model_config, evaluation_kws) plus `server`; an unknown key or a wrong type is a ValidationError naming
 * the key's path, e.g. `storage_config.max_size must be a positive integer`.
 */
export function loadGptCacheConfig(yamlText: string): GptCacheConfig {
  let document: unknown;
  try {
    document = parse(yamlText);
  } catch (error) {
    throw new ValidationError(`The config is not valid YAML: ${(error as Error).message}`, { cause: error });
  }
  const root = new Section(document ?? {}, "");
  const embedding = root.string("embedding", EMBEDDINGS) ?? root.string("model_source", EMBEDDINGS) ?? "use";
  const embeddingSection = root.section("embedding_config") ?? root.section("model_config");
  const embeddingConfig = { batchSize: embeddingSection?.positiveInteger("batch_size") };
  embeddingSection?.done();

  const storageSection = root.section("storage_config");
  const storage = {
    dataDir: storageSection?.string("data_dir"),
    manager: storageSection?.string("manager"),
    maxSize: storageSection?.positiveInteger("max_size"),
    cleanSize: storageSection?.positiveInteger("clean_size"),
    eviction: storageSection?.string("eviction", EVICTIONS),
    ttl: storageSection?.positiveNumber("ttl"),
    scalarParams: readScalarParams(storageSection?.section("scalar_params")),
    vectorParams: readVectorParams(storageSection?.section("vector_params")),
  };
  storageSection?.done();

  const evaluation = root.string("evaluation", EVALUATIONS);
  const evaluationConfig = (root.section("evaluation_config") ?? root.section("evaluation_kws"))?.entries() ?? {};

  const configSection = root.section("config");
  const config: ConfigOptions = {
    similarityThreshold: configSection?.numberIn("similarity_threshold", 0, 1),
    topK: configSection?.positiveInteger("top_k"),
    prompts: configSection?.stringList("prompts"),
    template: configSection?.stringOrList("template"),
    contextLen: configSection?.positiveInteger("context_len"),
    autoFlush: configSection?.nonNegativeInteger("auto_flush"),
    skipList: configSection?.stringList("skip_list"),
    ttl: configSection?.positiveNumber("ttl"),
    partitionKeys: configSection?.stringList("partition_keys"),
  };
  configSection?.done();

  const result: GptCacheConfig = {
    embedding,
    embeddingConfig,
    storage,
    evaluation,
    evaluationConfig,
    preFunction: root.string("pre_function", Object.keys(PRE_FUNCTIONS)),
    preContextFunction: root.string("pre_context_function", Object.keys(PRE_CONTEXT_FUNCTIONS)),
    postFunction: root.string("post_function", Object.keys(POST_FUNCTIONS)),
    config: Object.fromEntries(Object.entries(config).filter(([, value]) => value !== undefined)),
    server: root.section("server")?.entries(),
  };
  root.done();
  if (result.preFunction && result.preContextFunction) {
    throw new ValidationError("pre_function and pre_context_function are alternatives: set one.");
  }
  return result;
}

function createEvaluation(kind: string, options: Record<string, unknown>): SimilarityEvaluation {
  const section = new Section(options, "evaluation_config");
  let evaluation: SimilarityEvaluation;
  if (kind === "distance") evaluation = new DistanceEvaluation();
  else if (kind === "exact") evaluation = new ExactMatchEvaluation();
  else if (kind === "time") evaluation = new TimeEvaluation({ evaluation: new DistanceEvaluation(), timeRange: section.positiveNumber("time_range") });
  else if (kind === "kreciprocal") {
    evaluation = new KReciprocalEvaluation({
      topK: section.positiveInteger("top_k"),
      maxDistance: section.positiveNumber("max_distance"),
      positive: section.boolean("positive"),
    });
  } else throw new UnknownKindError("evaluation", kind, EVALUATIONS);
  section.done();
  return evaluation;
}

/** The initSimilarCache options a checked config describes (components created, names resolved). */
export function similarCacheOptionsFromConfig(config: GptCacheConfig): SimilarCacheOptions {
  const exact = config.embedding === "string" || config.embedding === "none";
  const embedding = exact
    ? new StringEmbedding()
    : config.embedding === "wink"
      ? new WinkEmbeddings()
      : new UniversalSentenceEncoderEmbeddings({ batchSize: config.embeddingConfig.batchSize });
  if (config.embedding !== "use" && !config.embedding.startsWith("universal") && config.embeddingConfig.batchSize !== undefined) {
    throw new ValidationError(`embedding_config.batch_size applies to the "use" embedding only.`);
  }
  const { storage } = config;
  return {
    embedding,
    evaluation: createEvaluation(config.evaluation ?? (exact ? "exact" : "distance"), config.evaluationConfig),
    dataDir: storage.dataDir,
    manager: storage.manager ?? (exact ? "sqlite" : "sqlite,hnswlib"),
    maxSize: storage.maxSize,
    cleanSize: storage.cleanSize,
    eviction: storage.eviction,
    ttl: storage.ttl,
    scalarParams: storage.scalarParams,
    vectorParams: storage.vectorParams,
    preEmbeddingFunc: config.preFunction
      ? PRE_FUNCTIONS[config.preFunction]
      : config.preContextFunction
        ? PRE_CONTEXT_FUNCTIONS[config.preContextFunction]
        : undefined,
    postProcessMessagesFunc: config.postFunction ? POST_FUNCTIONS[config.postFunction] : undefined,
    config: config.config,
  };
}

/**
 * GPTCache's init_similar_cache_from_config: reads the YAML file and sets up the cache it describes
 * (`options` override the file, e.g. `{ cache, dataDir }`).
 */
export async function initSimilarCacheFromConfig(yamlPath: string, options: SimilarCacheOptions = {}): Promise<Cache> {
  let text: string;
  try {
    text = await readFile(yamlPath, "utf8");
  } catch (error) {
    throw new ValidationError(`Cannot read the config file ${yamlPath}: ${(error as Error).message}`, { cause: error });
  }
  const fromFile = similarCacheOptionsFromConfig(loadGptCacheConfig(text));
  const defined = Object.fromEntries(Object.entries(options).filter(([, value]) => value !== undefined));
  return initSimilarCache({ ...fromFile, ...defined });
}
