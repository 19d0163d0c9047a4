import { DEFAULT_EMBEDDING_MEMO_SIZE } from "./embedding-memo.js";
import { ValidationError } from "./errors.js";
import { isNonNegativeInteger, isNumberBetween, isPositiveInteger } from "./validation.js";

/** Request settings that must match exactly for a stored answer to be reused (model and sampling). */
export const DEFAULT_PARTITION_KEYS: readonly string[] = Object.freeze([
  "model",
  "temperature",
  "top_p",
  "top_k",
  "n",
  "seed",
  "max_tokens",
  "max_completion_tokens",
  "stop",
  "presence_penalty",
  "frequency_penalty",
  "logit_bias",
  "response_format",
  "tools",
  "tool_choice",
  "functions",
  "size",
  "quality",
  "style",
  "language",
  // LangChain's llmKey (secrets removed): the model's identity and settings as LangChain serialises them.
  "llm_key",
]);

export interface ConfigOptions {
  /** Normalised score a candidate needs to be a hit, in [0, 1]. Default 0.8. */
  similarityThreshold?: number;
  /** Candidates fetched from the vector index per lookup. Default 5. */
  topK?: number;
  /** Called with each stage's name and duration in milliseconds. */
  logTimeFunc?: (stage: string, milliseconds: number) => void;
  /** Strings removed from the key by `lastContentWithoutPrompt`. */
  prompts?: string[];
  /** Template(s) such as "Translate {text} into {language}": `lastContentWithoutTemplate` keys on the filled values. */
  template?: string | string[];
  /** User turns kept by the context processors (`concatAllQueries`, ...). Default 3. */
  contextLen?: number;
  /** Flush the data manager every this many saves (0 = never on its own). Default 20. */
  autoFlush?: number;
  /** Roles skipped by the context processors. Default ["system", "assistant"]. */
  skipList?: string[];
  /** Request settings that must match exactly (see DEFAULT_PARTITION_KEYS). */
  partitionKeys?: readonly string[];
  /** Random source in [0, 1) for temperature skips and sampling (seed it in tests). Default Math.random. */
  random?: () => number;
  /**
   * Longest question, in characters, the cache embeds, looks up or stores. The limit is the least of this, the
   * question column (3,000 by default) and the embedding's `maxInputLength`. Checked before embedding: a longer
   * question skips the cache (the model still answers; nothing is stored), and put/get refuse it with
   * ValueTooLongError. Default: no limit of its own.
   */
  maxQuestionLength?: number;
  /**
   * Recent texts whose embeddings the cache remembers, so a text asked again is embedded once: a LangChain
   * `lookup` and then its `update`, a `get` and then a `put`, a question repeated. Default 256 (0.5 MB of 512-d
   * vectors); 0 remembers none.
   */
  embeddingMemoSize?: number;
}

function check(condition: boolean, message: string): void {
  if (!condition) throw new ValidationError(`Config: ${message}`);
}

/** Every ConfigOptions name: another one is refused by name, never dropped. */
const CONFIG_OPTIONS: ReadonlyArray<keyof ConfigOptions> = [
  "similarityThreshold", "topK", "logTimeFunc", "prompts", "template", "contextLen", "autoFlush", "skipList",
  "partitionKeys", "random", "maxQuestionLength", "embeddingMemoSize",
];

function isStringList(value: unknown): value is string[] {
  return Array.isArray(value) && value.every((item) => typeof item === "string");
}

/** Cache settings, validated once at construction. */
export class Config {
  readonly similarityThreshold: number;
  readonly topK: number;
  readonly logTimeFunc?: (stage: string, milliseconds: number) => void;
  readonly prompts: readonly string[];
  readonly template?: readonly string[];
  readonly contextLen: number;
  readonly autoFlush: number;
  readonly skipList: readonly string[];
  readonly partitionKeys: readonly string[];
  readonly random: () => number;
  readonly maxQuestionLength?: number;
  readonly embeddingMemoSize: number;

  constructor(options: ConfigOptions = {}) {
    const o = options;
    check(typeof o === "object" && o !== null, "options must be an object");
    const threshold = o.similarityThreshold ?? 0.8;
    check(isNumberBetween(threshold, 0, 1), "similarityThreshold must be a number in [0, 1]");
    const topK = o.topK ?? 5;
    check(isPositiveInteger(topK), "topK must be a positive integer");
    check(o.logTimeFunc === undefined || typeof o.logTimeFunc === "function", "logTimeFunc must be a function");
    check(o.prompts === undefined || isStringList(o.prompts), "prompts must be a list of strings");
    const template = typeof o.template === "string" ? [o.template] : o.template;
    check(template === undefined || isStringList(template), "template must be a string or a list of strings");
    const contextLen = o.contextLen ?? 3;
    check(isPositiveInteger(contextLen), "contextLen must be a positive integer");
    const autoFlush = o.autoFlush ?? 20;
    check(isNonNegativeInteger(autoFlush), "autoFlush must be a non-negative integer");
    check(o.skipList === undefined || isStringList(o.skipList), "skipList must be a list of strings");
    // Entries expire in the data manager, which hides and removes them in every store; a Config ttl would do nothing.
    const ttlName = (["ttlSeconds", "ttl"] as const).find((name) => (o as Record<string, unknown>)[name] !== undefined);
    check(
      ttlName === undefined,
      `${ttlName} is not a Config setting: entries expire in the data manager (managerFactory(kinds, { ttlSeconds }), initSimilarCache({ ttlSeconds }), storage_config.ttl in a YAML config)`,
    );
    const unknown = Object.keys(o).filter((name) => name !== "ttl" && name !== "ttlSeconds" && !(CONFIG_OPTIONS as readonly string[]).includes(name));
    check(unknown.length === 0, `unknown option${unknown.length > 1 ? "s" : ""} ${unknown.map((name) => `"${name}"`).join(", ")}: Config takes ${CONFIG_OPTIONS.join(", ")}`);
    check(o.partitionKeys === undefined || isStringList(o.partitionKeys), "partitionKeys must be a list of strings");
    check(o.random === undefined || typeof o.random === "function", "random must be a function");
    const maxQuestionLength = o.maxQuestionLength;
    check(maxQuestionLength === undefined || isPositiveInteger(maxQuestionLength), "maxQuestionLength must be a positive integer");
    const embeddingMemoSize = o.embeddingMemoSize ?? DEFAULT_EMBEDDING_MEMO_SIZE;
    check(isNonNegativeInteger(embeddingMemoSize), "embeddingMemoSize must be a non-negative integer");

    this.similarityThreshold = threshold;
    this.topK = topK;
    this.logTimeFunc = o.logTimeFunc;
    this.prompts = o.prompts ?? [];
    this.template = template;
    this.contextLen = contextLen;
    this.autoFlush = autoFlush;
    this.skipList = o.skipList ?? ["system", "assistant"];
    this.partitionKeys = [...new Set(o.partitionKeys ?? DEFAULT_PARTITION_KEYS)];
    this.random = o.random ?? Math.random;
    this.maxQuestionLength = maxQuestionLength;
    this.embeddingMemoSize = embeddingMemoSize;
  }
}
