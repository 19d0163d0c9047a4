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
import { ENV_URLS, resolveUrl } from "../stores/connection.js";
import { concatAllQueries } from "../processors/context/concat.js";
import { first, nop, randomOne, temperatureSoftmax } from "../processors/post.js";
import * as pre from "../processors/pre.js";
import type { PostProcessFunc, PreEmbeddingFunc } from "../processors/types.js";
import { DistanceEvaluation } from "../similarity/distance.js";
import { ExactMatchEvaluation } from "../similarity/exact-match.js";
import { KReciprocalEvaluation } from "../similarity/k-reciprocal.js";
import { TimeEvaluation } from "../similarity/time.js";
import type { SimilarityEvaluation } from "../similarity/types.js";
import { readServerSection, type ServerSection } from "../server/server-config.js";

/** A GPTCache YAML config, checked and in this package's terms (component names not yet resolved). */
export interface GptCacheConfig {
  /** Embedding kind: "use" (default), "wink", or "string" (exact match). */
  embedding: string;
  embeddingConfig: { batchSize?: number; worker?: boolean };
  storage: {
    dataDir?: string;
    manager?: string;
    maxSize?: number;
    cleanSize?: number;
    eviction?: string;
    ttl?: number;
    /** Milliseconds between a replica's pulls of the others' new entries into its in-process index. */
    syncIntervalMs?: number;
    scalarParams?: ScalarParams;
    vectorParams?: VectorParams;
  };
  /**
   * Evaluation kind: "distance", "exact" (default for "string"), "time", "kreciprocal". Unset with the "use"
   * embedding: initSimilarCache's preset judge (and its threshold unless config.similarity_threshold is set);
   * unset with "wink": "distance".
   */
  evaluation?: string;
  evaluationConfig: Record<string, unknown>;
  preFunction?: string;
  preContextFunction?: string;
  postFunction?: string;
  config: ConfigOptions;
  /** The HTTP server's section as written (checked: unknown keys and wrong types are refused). */
  server?: Record<string, unknown>;
  /** The same section in this package's terms, for `buildServer({ settings })`. */
  serverOptions?: ServerSection;
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
export class Section {
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

  integerIn(key: string, min: number, max: number): number | undefined {
    return this.#check(key, (v) => Number.isInteger(v) && (v as number) >= min && (v as number) <= max, `an integer from ${min} to ${max}`);
  }

  /** A non-empty string, or a non-negative integer returned as its digits. */
  stringOrNonNegativeInteger(key: string): string | undefined {
    const ok = (v: unknown) => (typeof v === "string" && v.length > 0) || (Number.isInteger(v) && (v as number) >= 0);
    const value = this.#check<string | number>(key, ok, "a non-empty string or a non-negative integer");
    return value === undefined ? undefined : String(value);
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

  /** A list of strings and mappings; each mapping is read as a section named `key[i]`. */
  list(key: string): Array<string | Section> | undefined {
    const items = this.#check<unknown[]>(key, (v) => Array.isArray(v) && v.every((item) => typeof item === "string" || isMapping(item)), "a list of strings or mappings");
    return items?.map((item, i) => (typeof item === "string" ? item : new Section(item, `${this.path ? `${this.path}.` : ""}${key}[${i}]`)));
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

  /** The keys as written (set to a value; YAML's empty value counts as unset). */
  keys(): string[] {
    return Object.keys(this.#data).filter((key) => this.#data[key] !== null && this.#data[key] !== undefined);
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

/** Keys every server-database store takes: its connection (src/stores/connection.ts), column lengths, report retention. */
const CONNECTION_KEYS = ["url", "url_env", "host", "port", "user", "password", "database", "connect_timeout_ms", "timeout_ms", "table_len_config", "max_reports"];
const SQL_SERVER_KEYS = [...CONNECTION_KEYS, "sql_url", "pool_size", "table_prefix"];

/** The scalar_params keys each store kind takes: a key another kind takes is refused, not silently ignored. */
const SCALAR_KEYS: Readonly<Record<string, readonly string[]>> = {
  memory: ["path", "max_reports"],
  sqlite: ["path", "table_prefix", "table_len_config", "max_reports"],
  postgres: SQL_SERVER_KEYS,
  mysql: SQL_SERVER_KEYS,
  mariadb: SQL_SERVER_KEYS,
  redis: [...CONNECTION_KEYS, "namespace", "ttl"],
  mongodb: [...CONNECTION_KEYS, "table_prefix", "lock_lease_ms", "lock_wait_ms"],
};

/** GPTCache's SQLAlchemy URLs name a driver (`postgresql+psycopg2://`); the scheme alone is what we connect with. */
function withoutDriver(url: string): string {
  return url.replace(/^([a-z][a-z0-9]*)\+[a-z0-9_]+:/i, "$1:");
}

/** The one URL given as url, sql_url (GPTCache's key) or url_env (an environment variable's name), checked for the kind. */
function readUrl(section: Section, kind: string | undefined, env: NodeJS.ProcessEnv): string | undefined {
  const given = { url: section.string("url"), sql_url: section.string("sql_url"), url_env: section.string("url_env") };
  const set = Object.entries(given).filter(([, value]) => value !== undefined);
  if (set.length > 1) throw new ValidationError(`${section.path}: set one of url, sql_url and url_env, not ${set.map(([key]) => key).join(" and ")}.`);
  if (set.length === 0) return undefined;
  const [key, value] = set[0] as [string, string];
  let url = value;
  if (key === "url_env") {
    url = env[value] ?? "";
    if (url === "") throw new ValidationError(`${section.path}.url_env names ${value}, which is not set in the environment.`);
  } else if (key === "sql_url") url = withoutDriver(value);
  if (kind !== undefined && kind in ENV_URLS) {
    try {
      resolveUrl(kind as keyof typeof ENV_URLS, { url }, {});
    } catch (error) {
      throw new ValidationError(`${section.path}.${key}: ${(error as Error).message}`, { cause: error });
    }
  }
  return url;
}

/** scalar_params, checked against what `kind` takes (undefined: an unknown kind, left to managerFactory to refuse). */
function readScalarParams(section: Section | undefined, kind: string | undefined, env: NodeJS.ProcessEnv): ScalarParams | undefined {
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
  const params: ScalarParams = {
    path: section.string("path"),
    tablePrefix: section.string("table_prefix"),
    tableLenConfig,
    url: readUrl(section, kind, env),
    host: section.string("host"),
    port: section.integerIn("port", 1, 65535),
    user: section.string("user"),
    password: section.string("password"),
    // Redis numbers its databases; YAML reads `database: 0` as a number.
    database: section.stringOrNonNegativeInteger("database"),
    poolSize: section.positiveInteger("pool_size"),
    connectTimeout: section.positiveInteger("connect_timeout_ms"),
    timeoutMs: section.positiveInteger("timeout_ms"),
    namespace: section.string("namespace"),
    ttl: section.positiveNumber("ttl"),
    maxReports: section.nonNegativeInteger("max_reports"),
    lockLeaseMs: section.positiveInteger("lock_lease_ms"),
    lockWaitMs: section.positiveInteger("lock_wait_ms"),
  };
  section.done();
  const allowed = kind === undefined ? undefined : SCALAR_KEYS[kind];
  const misplaced = allowed && section.keys().filter((key) => !allowed.includes(key));
  if (misplaced && misplaced.length > 0) {
    throw new ValidationError(`${section.path}: ${misplaced.join(", ")} ${misplaced.length > 1 ? "do" : "does"} not apply to the ${kind} store (it takes ${allowed.join(", ")}).`);
  }
  // Unset keys are left out: an explicit undefined would override what managerFactory passes (the redis ttl).
  return Object.fromEntries(Object.entries(params).filter(([, value]) => value !== undefined));
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
    // The vector databases (docs/vector-stores.md); each checks its own options when it is built.
    url: section.string("url"),
    collection: section.string("collection"),
  };
  section.done();
  return params;
}

/**
 * Parses and checks a GPTCache YAML config. Accepts GPTCache's keys (and its older aliases model_source,
 * model_config, evaluation_kws) plus `server`; an unknown key or a wrong type is a ValidationError naming
 * the key's path, e.g. `storage_config.max_size must be a positive integer`. `env` is where
 * `storage_config.scalar_params.url_env` is looked up.
 */
export function loadGptCacheConfig(yamlText: string, env: NodeJS.ProcessEnv = process.env): GptCacheConfig {
  let document: unknown;
  try {
    document = parse(yamlText);
  } catch (error) {
    throw new ValidationError(`The config is not valid YAML: ${(error as Error).message}`, { cause: error });
  }
  const root = new Section(document ?? {}, "");
  const embedding = root.string("embedding", EMBEDDINGS) ?? root.string("model_source", EMBEDDINGS) ?? "use";
  const embeddingSection = root.section("embedding_config") ?? root.section("model_config");
  const embeddingConfig = { batchSize: embeddingSection?.positiveInteger("batch_size"), worker: embeddingSection?.boolean("worker") };
  embeddingSection?.done();

  const storageSection = root.section("storage_config");
  const manager = storageSection?.string("manager");
  // Both defaults ("sqlite", "sqlite,hnswlib") keep their rows in SQLite.
  const scalarKind = manager === undefined ? "sqlite" : manager.split(",")[0].trim().toLowerCase();
  const storage = {
    dataDir: storageSection?.string("data_dir"),
    manager,
    maxSize: storageSection?.positiveInteger("max_size"),
    cleanSize: storageSection?.positiveInteger("clean_size"),
    eviction: storageSection?.string("eviction", EVICTIONS),
    ttl: storageSection?.positiveNumber("ttl"),
    syncIntervalMs: storageSection?.nonNegativeInteger("sync_interval_ms"),
    scalarParams: readScalarParams(storageSection?.section("scalar_params"), scalarKind in SCALAR_KEYS ? scalarKind : undefined, env),
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
    maxQuestionLength: configSection?.positiveInteger("max_question_length"),
  };
  configSection?.done();
  const serverSection = root.section("server");
  const serverOptions = serverSection && readServerSection(serverSection);

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
    server: serverSection?.entries(),
    serverOptions,
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

/**
 * The judge a config names. Unnamed, the string embedding matches exactly, and the others keep
 * initSimilarCache's default (undefined): the preset judge with "use", on whose cosines it was fitted, so a
 * file written for its `server` section or a threshold does not turn the precision guard off.
 */
function evaluationOf(config: GptCacheConfig, exact: boolean): SimilarityEvaluation | undefined {
  if (config.evaluation !== undefined) return createEvaluation(config.evaluation, config.evaluationConfig);
  const keys = Object.keys(config.evaluationConfig);
  if (keys.length > 0) throw new ValidationError(`evaluation_config (${keys.join(", ")}) needs an \`evaluation\` it applies to.`);
  return exact ? new ExactMatchEvaluation() : undefined;
}

/**
 * The initSimilarCache options a checked config describes (components created, names resolved). What the file
 * leaves unset keeps initSimilarCache's default: the judge (see `evaluationOf`) and its threshold.
 */
export function similarCacheOptionsFromConfig(config: GptCacheConfig): SimilarCacheOptions {
  const exact = config.embedding === "string" || config.embedding === "none";
  const embedding = exact
    ? new StringEmbedding()
    : config.embedding === "wink"
      ? new WinkEmbeddings()
      : new UniversalSentenceEncoderEmbeddings({ batchSize: config.embeddingConfig.batchSize, worker: config.embeddingConfig.worker ?? true });
  const { batchSize, worker } = config.embeddingConfig;
  if (config.embedding !== "use" && !config.embedding.startsWith("universal") && (batchSize !== undefined || worker !== undefined)) {
    throw new ValidationError(`embedding_config.${batchSize !== undefined ? "batch_size" : "worker"} applies to the "use" embedding only.`);
  }
  const { storage } = config;
  return {
    embedding,
    evaluation: evaluationOf(config, exact),
    dataDir: storage.dataDir,
    manager: storage.manager ?? (exact ? "sqlite" : "sqlite,hnswlib"),
    maxSize: storage.maxSize,
    cleanSize: storage.cleanSize,
    eviction: storage.eviction,
    ttl: storage.ttl,
    syncIntervalMs: storage.syncIntervalMs,
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
