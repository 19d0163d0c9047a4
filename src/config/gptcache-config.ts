/**
 * GPTCache's YAML config (`cache_config_template.yml` and the configs of its docs): read and checked into this
 * package's terms, then built into initSimilarCache's options. Every GPTCache component name either maps to its
 * equivalent here (a note says so when it runs as something else, e.g. `embedding: onnx` as the offline
 * Universal Sentence Encoder) or is refused with what to install or configure.
 */
import { readFile } from "node:fs/promises";
import { parse } from "yaml";
import type { Cache } from "../presets/cache.js";
import type { ConfigOptions } from "../core/config.js";
import { ValidationError } from "../core/errors.js";
import { initSimilarCache, type SimilarCacheOptions } from "../presets/similar-cache.js";
import { EMBEDDED_DEFAULT_MANAGER, type ScalarParams, type VectorParams } from "../presets/manager-factory.js";
import { concatAllQueries } from "../processors/context/concat.js";
import { first, nop, randomOne, temperatureSoftmax } from "../processors/post.js";
import * as pre from "../processors/pre.js";
import type { PostProcessFunc, PreEmbeddingFunc } from "../core/contracts/processors.js";
import { ExactMatchEvaluation } from "../similarity/exact-match.js";
import type { SimilarityEvaluation } from "../core/contracts/evaluation.js";
import { readServerSection, type ServerSection } from "../server/server-config.js";
import type { EmbeddingKind, EmbeddingSettings } from "./embedding-choice.js";
import { readEmbedding } from "./embedding-config.js";
import { createEmbedding } from "./embedding-factory.js";
import { createEvaluation, readEvaluation, type EvaluationChoice } from "./evaluation-config.js";
import { defined, isInstalled, type ReadContext } from "./read-context.js";
import { Section } from "./section.js";
import { readManager } from "./storage-config.js";
import { readScalarParams } from "./storage-scalar-params.js";
import { readVectorParams } from "./storage-vector-params.js";

export { Section } from "./section.js";

/** A GPTCache YAML config, checked and in this package's terms (components not yet built). */
export interface GptCacheConfig {
  /**
   * This package's embedding kind: "use" (default; also GPTCache's `onnx` without a local model), "wink" (also
   * `fasttext`), "string" (exact match), "onnx" (a local model), "transformers" (`huggingface`, `sbert`),
   * "image" (`vit`, `timm`), "openai", "cohere", "langchain".
   */
  embedding: EmbeddingKind;
  /** `embedding_config`, checked for that kind. */
  embeddingConfig: EmbeddingSettings;
  storage: {
    dataDir?: string;
    /** "scalar,vector[,object]" in this package's kinds (`sqlite,faiss` is `sqlite,hnswlib` without faiss-node). */
    manager?: string;
    maxSize?: number;
    cleanSize?: number;
    eviction?: string;
    /** Seconds an entry lives (YAML: storage_config.ttl). */
    ttlSeconds?: number;
    /** Milliseconds between a replica's pulls of the others' new entries into its in-process index. */
    syncIntervalMs?: number;
    scalarParams?: ScalarParams;
    vectorParams?: VectorParams;
  };
  /**
   * This package's evaluation kind (GPTCache's `np` is "distance", `sbert_crossencoder` "cross_encoder", `cohere`
   * "rerank", `onnx` without a local model "preset"). Unset with the "use" embedding: initSimilarCache's preset
   * judge (and its threshold unless config.similarity_threshold is set); with "string": exact; else "distance".
   */
  evaluation?: string;
  /** `evaluation_config` as written (GPTCache's names). */
  evaluationConfig: Record<string, unknown>;
  /** The same, checked for the kind and in this package's terms. */
  evaluationChoice?: EvaluationChoice;
  preFunction?: string;
  preContextFunction?: string;
  postFunction?: string;
  config: ConfigOptions;
  /** The HTTP server's section as written (checked: unknown keys and wrong types are refused). */
  server?: Record<string, unknown>;
  /** The same section in this package's terms, for `buildServer({ settings })`. */
  serverOptions?: ServerSection;
  /**
   * One line per GPTCache name that runs as something else here (`embedding: onnx runs as use here ...`), for
   * the startup output; empty when everything ran as named.
   */
  notes: string[];
}

const EVICTIONS = ["LRU", "LFU", "FIFO"];
/** GPTCache's eviction managers: here the data manager evicts in whichever store holds the entries. */
const EVICTION_MANAGERS = ["memory", "redis", "no_op_eviction"];

/** GPTCache's pre_function names. */
const PRE_FUNCTIONS: Record<string, PreEmbeddingFunc> = {
  last_content: pre.lastContent,
  last_content_without_prompt: pre.lastContentWithoutPrompt,
  last_content_without_template: pre.lastContentWithoutTemplate,
  get_prompt: pre.getPrompt,
  get_messages: pre.getMessages,
  // GPTCache's name for the last message's content of a chat request.
  get_messages_last_content: pre.lastContent,
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

/** GPTCache's context processors that summarise or select with a model: set in code, where the model is. */
const MODEL_CONTEXT_FUNCTIONS: Readonly<Record<string, string>> = {
  summarization: "summarizeContext({ model })",
  selective: "selectiveContext({ embedding })",
};

/** A pre_function or pre_context_function name, refused with where to set it when it needs a model. */
function readContextFunction(root: Section): string | undefined {
  const written = root.string("pre_context_function");
  const inCode = written === undefined ? undefined : MODEL_CONTEXT_FUNCTIONS[written.toLowerCase()];
  if (inCode !== undefined) throw new ValidationError(`pre_context_function: ${written} needs a model: set it in code with ${inCode} (preEmbeddingFunc).`);
  if (written !== undefined && !(written in PRE_CONTEXT_FUNCTIONS)) throw new ValidationError(`pre_context_function must be one of: ${Object.keys(PRE_CONTEXT_FUNCTIONS).join(", ")}, summarization, selective (got "${written}").`);
  return written;
}

/** The first of a key and its older GPTCache spellings that is set; two set is an error. */
function firstOf<T>(root: Section, keys: readonly string[], read: (key: string) => T | undefined): T | undefined {
  const set = keys.filter((key) => root.has(key));
  if (set.length > 1) throw new ValidationError(`${set.join(" and ")} are the same setting (GPTCache's older name): set one.`);
  // Every spelling is read, so an empty one (YAML null, as GPTCache's template leaves them) counts as read.
  return keys.map(read).find((value) => value !== undefined);
}

/**
 * Parses and checks a GPTCache YAML config. Accepts GPTCache's keys (and its older names model_source,
 * model_src, model_config, evaluation_kws, config.threshold) and component names, plus `server`; an unknown key
 * or a wrong type is a ValidationError naming the key's path (`storage_config.max_size must be a positive
 * integer`), and a component that cannot run here is refused naming what to install or configure. `notes` says
 * what ran as something else. `env` is where API keys and `url_env` are looked up; `installed` says which
 * optional packages are installed (default: those Node resolves from here).
 */
export function loadGptCacheConfig(yamlText: string, env: NodeJS.ProcessEnv = process.env, installed: (packageName: string) => boolean = isInstalled): GptCacheConfig {
  let document: unknown;
  try {
    document = parse(yamlText);
  } catch (error) {
    throw new ValidationError(`The config is not valid YAML: ${(error as Error).message}`, { cause: error });
  }
  const context: ReadContext = { env, installed, notes: [] };
  const root = new Section(document ?? {}, "");
  const embeddingName = firstOf(root, ["embedding", "model_source", "model_src"], (key) => root.string(key)) ?? "use";
  const embeddingSection = firstOf(root, ["embedding_config", "model_config"], (key) => root.section(key));
  const { kind: embedding, settings: embeddingConfig } = readEmbedding(embeddingName, embeddingSection, context);

  const storageSection = root.section("storage_config");
  const { manager, scalar, vector } = readManager(storageSection?.string("manager"), embedding, context);
  const evictionManager = storageSection?.string("eviction_manager", EVICTION_MANAGERS);
  if (evictionManager !== undefined && evictionManager !== "memory") {
    context.notes.push(`storage_config.eviction_manager: ${evictionManager} is not needed here: the data manager evicts (max_size, clean_size, eviction) in whichever store holds the entries.`);
  }
  const vectorChoice = readVectorParams(storageSection?.section("vector_params"), vector, context);
  const storage = {
    dataDir: storageSection?.string("data_dir"),
    manager,
    maxSize: storageSection?.positiveInteger("max_size"),
    cleanSize: storageSection?.positiveInteger("clean_size"),
    eviction: storageSection?.string("eviction", EVICTIONS),
    ttlSeconds: storageSection?.positiveNumber("ttl"),
    syncIntervalMs: storageSection?.nonNegativeInteger("sync_interval_ms"),
    scalarParams: readScalarParams(storageSection?.section("scalar_params"), scalar, env),
    vectorParams: vectorChoice.params,
  };
  storageSection?.done();

  const evaluationName = root.string("evaluation");
  const evaluationSection = firstOf(root, ["evaluation_config", "evaluation_kws"], (key) => root.section(key));
  const evaluationConfig = evaluationSection?.entries() ?? {};
  const evaluationChoice = evaluationName === undefined ? undefined : readEvaluation(evaluationName, evaluationConfig, { ...context, embedding });
  if (evaluationName === undefined && Object.keys(evaluationConfig).length > 0) {
    throw new ValidationError(`evaluation_config (${Object.keys(evaluationConfig).join(", ")}) needs an \`evaluation\` it applies to.`);
  }

  const configSection = root.section("config");
  if (configSection?.has("ttl")) {
    throw new ValidationError("config.ttl: entries expire in the data manager, in every store: set storage_config.ttl (seconds) instead.");
  }
  const config: ConfigOptions = {
    // GPTCache's first template wrote `threshold`.
    similarityThreshold: configSection && firstOf(configSection, ["similarity_threshold", "threshold"], (key) => configSection.numberIn(key, 0, 1)),
    topK: configSection?.positiveInteger("top_k"),
    prompts: configSection?.stringList("prompts"),
    template: configSection?.stringOrList("template"),
    contextLen: configSection?.positiveInteger("context_len"),
    autoFlush: configSection?.nonNegativeInteger("auto_flush"),
    skipList: configSection?.stringList("skip_list"),
    partitionKeys: configSection?.stringList("partition_keys"),
    maxQuestionLength: configSection?.positiveInteger("max_question_length"),
    embeddingMemoSize: configSection?.nonNegativeInteger("embedding_memo_size"),
  };
  configSection?.done();
  if (vectorChoice.topK !== undefined) {
    if (config.topK !== undefined && config.topK !== vectorChoice.topK) {
      throw new ValidationError(`storage_config.vector_params.top_k (${vectorChoice.topK}) and config.top_k (${config.topK}) disagree: set one.`);
    }
    config.topK = vectorChoice.topK;
    context.notes.push(`storage_config.vector_params.top_k (${vectorChoice.topK}) is read as config.top_k: how many candidates a search returns.`);
  }
  const serverSection = root.section("server");
  const serverOptions = serverSection && readServerSection(serverSection);

  const result: GptCacheConfig = {
    embedding,
    embeddingConfig: defined(embeddingConfig),
    storage,
    evaluation: evaluationChoice?.kind,
    evaluationConfig,
    evaluationChoice,
    preFunction: root.string("pre_function", Object.keys(PRE_FUNCTIONS)),
    preContextFunction: readContextFunction(root),
    postFunction: root.string("post_function", Object.keys(POST_FUNCTIONS)),
    config: defined(config),
    server: serverSection?.entries(),
    serverOptions,
    notes: context.notes,
  };
  root.done();
  if (result.preFunction && result.preContextFunction) {
    throw new ValidationError("pre_function and pre_context_function are alternatives: set one.");
  }
  return result;
}

/**
 * The judge a config names. Unnamed, the string embedding matches exactly, and the others keep
 * initSimilarCache's default (undefined): the preset judge with "use", on whose cosines it was fitted, so a
 * file written for its `server` section or a threshold does not turn the precision guard off.
 */
function evaluationOf(config: GptCacheConfig, embedding: ReturnType<typeof createEmbedding>): SimilarityEvaluation | undefined {
  const choice =
    config.evaluationChoice ??
    (config.evaluation === undefined ? undefined : readEvaluation(config.evaluation, config.evaluationConfig, { env: process.env, installed: isInstalled, notes: [], embedding: config.embedding }));
  if (choice !== undefined) return createEvaluation(choice, embedding);
  return config.embedding === "string" ? new ExactMatchEvaluation() : undefined;
}

/**
 * The initSimilarCache options a checked config describes (components created, names resolved). What the file
 * leaves unset keeps initSimilarCache's default: the judge (see `evaluationOf`) and its threshold.
 */
export function similarCacheOptionsFromConfig(config: GptCacheConfig): SimilarCacheOptions {
  const exact = config.embedding === "string";
  const embedding = createEmbedding({ kind: config.embedding, settings: config.embeddingConfig });
  const { storage } = config;
  return {
    embedding,
    evaluation: evaluationOf(config, embedding),
    dataDir: storage.dataDir,
    manager: storage.manager ?? (exact ? "sqlite" : EMBEDDED_DEFAULT_MANAGER),
    maxSize: storage.maxSize,
    cleanSize: storage.cleanSize,
    eviction: storage.eviction,
    ttlSeconds: storage.ttlSeconds,
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
