import { BaseCache } from "@langchain/core/caches";
import type { BaseLanguageModel } from "@langchain/core/language_models/base";
import type { Generation } from "@langchain/core/outputs";
import { ChatPromptValue } from "@langchain/core/prompt_values";
import type { EmbeddingsInterface } from "@langchain/core/embeddings";
import { Cache } from "../presets/cache.js";
import { contextDigest } from "../core/conversation-context.js";
import { NotInitError, ValidationError } from "../core/errors.js";
import { initSimilarCache } from "../presets/similar-cache.js";
import { stableStringify } from "../core/keys.js";
import { absorbFault, putAnswer, runCached, type RequestOptions } from "../core/pipeline.js";
import type { CacheRequest } from "../core/types.js";
import { isLangChainVectorStore } from "../stores/vector/kinds.js";
import { CacheSource, checkDataDir, checkProgress, checkThreshold, memoryIndex, ownCache, storage, type ProgressOption } from "./cache-source.js";
import { exactContext, followingTurns, lastHumanTurn, withoutToolCallIds } from "./prompt-key.js";
import { sanitizeLlmKey } from "./secrets.js";
import { fromHit, toStoredAnswer } from "./stored-generations.js";
import { warmMessages, type WarmPair } from "./warm.js";

export type { CacheHitMarker } from "./stored-generations.js";

export interface SemanticCacheOptions {
  /**
   * The cache to use (initialised by you), or a function that builds one, called once on first use. Default: a
   * cache of its own, built on first use: the offline preset (Universal Sentence Encoder, the precision
   * judge), in memory, or in `dataDir` when given.
   */
  cache?: Cache | (() => Promise<Cache>);
  /** Without `cache`: keep the entries in this folder (SQLite and an HNSW index), so they survive restarts. */
  dataDir?: string;
  /** Without `cache`: the score a stored question needs to answer a new one (default the preset's). */
  threshold?: number;
  /**
   * Without `cache`: told that the offline embedding model is loading on first use, then how long it took (two
   * lines). Default: the first such cache of the process prints them with console.warn, prefixed
   * `[langchain-semcache]`; false prints nothing.
   */
  onProgress?: ProgressOption;
  /**
   * Turns LangChain's prompt string into the key text, which the cache's own `preEmbeddingFunc` then reads
   * as the request's `prompt`. Default `lastHumanTurn`; `fullPrompt` keys on the whole transcript.
   */
  preEmbeddingFunc?: (prompt: string) => string;
  /**
   * Options for every lookup and update (session, cacheSkip, topK, temperature...), or a function of the prompt
   * and llmKey exactly as LangChain passes them.
   */
  requestOptions?: RequestOptions | ((prompt: string, llmKey: string) => RequestOptions);
  /**
   * Reuse an answer stored under other system messages or earlier turns. Default false: the question is
   * matched semantically only among entries asked in the same context (the text before the last human turn,
   * as an exact partition), since "Answer in French." or "My name is Bob." changes the right answer.
   */
  shareAcrossContexts?: boolean;
  /**
   * Apply GPTCache's random skip by the model's temperature (at temperature T a lookup is skipped with
   * probability 1/(1+e^(1/T)); at 2, always). Default false: LangChain caches are deterministic, so a repeat
   * is a hit whatever the model's temperature (which still partitions the entries).
   */
  temperatureSkip?: boolean;
}

/** Options of `SemanticCache.fromEmbeddings`. */
export interface FromEmbeddingsOptions extends Omit<SemanticCacheOptions, "cache" | "onProgress"> {
  /**
   * Where the vectors live: a LangChain VectorStore of yours (its own embeddings are not used), or
   * "scalar,vector" kinds (see docs/storage.md). Default an in-process HNSW index.
   */
  store?: string | object;
}

/** One call's request to the pipeline, and the cache it goes to. */
interface Call {
  request: CacheRequest;
  options: RequestOptions;
  chat: boolean;
  cache: Cache;
}

const SURFACE = "langchain-cache";
/** How LangChain writes a content block other than text into the prompt string (`[image]`, `[file]`, ...). */
const ATTACHMENT_PLACEHOLDER = /\[[a-z][a-z_]*\]/;

/** What a request needs from LangChain's llmKey, computed once per distinct llmKey. */
interface ModelKey {
  llmKey: string;
  /** The sanitised llmKey as canonical JSON (no API key, base URL or routing settings): the partition. */
  partition: string;
  chat: boolean;
  /** The model's sampling temperature, for GPTCache's random skip (as the wrappers apply it). */
  temperature?: number;
}

/**
 * A LangChain `BaseCache` backed by a semantic `Cache`. `new ChatOpenAI({ cache: new SemanticCache() })` is a
 * working semantic cache: the offline preset, built on first use (in memory unless given a `dataDir`).
 * Lookups go through the cache's one request flow (search only: a miss is null and LangChain calls the
 * model), updates store the generations. The llmKey partitions the entries once its secrets are removed, so
 * another model or temperature never shares an answer, while a rotated API key or a new base URL keeps them.
 * A cache that cannot be used (not initialised, failed to start) never fails the model call: it misses.
 *
 * @example
 * ```typescript
 * import { ChatOpenAI } from "@langchain/openai";
 * import { SemanticCache } from "langchain-semcache/langchain";
 *
 * const model = new ChatOpenAI({ model: "gpt-4o-mini", cache: new SemanticCache() });
 * await model.invoke("What is the capital of France?");
 * await model.invoke("Tell me the capital city of France."); // answered from the cache
 * ```
 */
export class SemanticCache extends BaseCache<Generation[]> {
  private readonly source: CacheSource;
  private readonly preEmbeddingFunc: (prompt: string) => string;
  private readonly requestOptions?: SemanticCacheOptions["requestOptions"];
  private readonly shareAcrossContexts: boolean;
  private readonly temperatureSkip: boolean;
  private lastModel?: ModelKey;

  constructor(options: SemanticCacheOptions = {}) {
    super();
    if (typeof options !== "object" || options === null) throw new ValidationError("SemanticCache options must be an object.");
    const { cache, dataDir, threshold, onProgress, preEmbeddingFunc, requestOptions, shareAcrossContexts = false, temperatureSkip = false } = options;
    if (cache !== undefined && !(cache instanceof Cache) && typeof cache !== "function") {
      throw new ValidationError("SemanticCache: `cache` must be a Cache or a function that builds one.");
    }
    if (cache !== undefined && (dataDir !== undefined || threshold !== undefined || onProgress !== undefined)) {
      throw new ValidationError("SemanticCache: `dataDir`, `threshold` and `onProgress` set up its own cache; a `cache` you give is set up by you.");
    }
    checkDataDir("SemanticCache", dataDir);
    checkThreshold("SemanticCache", threshold);
    checkProgress("SemanticCache", onProgress);
    for (const [name, value] of Object.entries({ shareAcrossContexts, temperatureSkip })) {
      if (typeof value !== "boolean") throw new ValidationError(`SemanticCache: \`${name}\` must be a boolean.`);
    }
    if (preEmbeddingFunc !== undefined && typeof preEmbeddingFunc !== "function") {
      throw new ValidationError("SemanticCache: `preEmbeddingFunc` must be a function of the prompt string.");
    }
    if (requestOptions !== undefined && (typeof requestOptions !== "object" || requestOptions === null) && typeof requestOptions !== "function") {
      throw new ValidationError("SemanticCache: `requestOptions` must be an object or a function.");
    }
    this.source = new CacheSource(cache ?? ownCache(dataDir, threshold, onProgress));
    this.preEmbeddingFunc = preEmbeddingFunc ?? lastHumanTurn;
    this.requestOptions = requestOptions;
    this.shareAcrossContexts = shareAcrossContexts;
    this.temperatureSkip = temperatureSkip;
  }

  /**
   * A semantic cache over your own LangChain `Embeddings` (as LangChain's own semantic caches take them), built
   * on first use and judged as `initSimilarCache` judges that embedding: by cosine similarity (default threshold
   * DEFAULT_SIMILAR_THRESHOLD), or by the preset's judge for a UniversalSentenceEncoderEmbeddings.
   */
  static fromEmbeddings(embeddings: EmbeddingsInterface, options: FromEmbeddingsOptions = {}): SemanticCache {
    if (typeof embeddings?.embedQuery !== "function" || typeof embeddings.embedDocuments !== "function") {
      throw new ValidationError("SemanticCache.fromEmbeddings: `embeddings` must be a LangChain Embeddings.");
    }
    if (typeof options !== "object" || options === null) throw new ValidationError("SemanticCache.fromEmbeddings options must be an object.");
    const { store, dataDir, threshold, ...rest } = options;
    if (store !== undefined && typeof store !== "string" && !isLangChainVectorStore(store)) {
      throw new ValidationError('SemanticCache.fromEmbeddings: `store` must be a LangChain VectorStore or "scalar,vector" kinds.');
    }
    checkThreshold("SemanticCache", threshold);
    const stores = async () => {
      if (typeof store === "string") return { manager: store, dataDir };
      if (store !== undefined) return { ...storage(dataDir), manager: { scalar: dataDir === undefined ? "memory" : "sqlite", vector: store } };
      return storage(dataDir, dataDir === undefined ? await memoryIndex() : undefined);
    };
    return new SemanticCache({ ...rest, cache: async () => initSimilarCache({ cache: new Cache(), embedding: embeddings, threshold, ...(await stores()) }) });
  }

  /**
   * Stores question/answer pairs where `model`'s calls look them up (its partition, and the context each question
   * is given in), as if the model had answered them: `model` is the LangChain model this cache is set on. A fault
   * throws (a cache that cannot be used included): nothing is stored silently wrong.
   */
  async warm(model: BaseLanguageModel, pairs: readonly WarmPair[]): Promise<void> {
    if (typeof model?._getSerializedCacheKeyParametersForCall !== "function") throw new ValidationError("SemanticCache.warm: `model` must be a LangChain model.");
    const llmKey = model._getSerializedCacheKeyParametersForCall({});
    const chat = model._modelType() === "base_chat_model";
    for (const { messages, answer } of warmMessages("SemanticCache", pairs)) {
      const prompt = chat ? new ChatPromptValue(messages).toString() : String(messages.at(-1)?.content);
      const call = await this.callFor(prompt, llmKey);
      if (!call) throw new NotInitError("SemanticCache.warm: the cache cannot be used (not initialised, failed to start) or the question has attachments.");
      await putAnswer(call.request, call.options, answer);
    }
  }

  /**
   * Removes every entry of the cache its calls use (every model's and context's; a cache you gave: all of its
   * entries): `requestOptions.cacheObj` when set as an object, else its own or the one you gave. A cache chosen
   * per call by a `requestOptions` function is yours to clear.
   */
  async clear(): Promise<void> {
    const chosen = typeof this.requestOptions === "object" ? this.requestOptions.cacheObj : undefined;
    const cache = chosen ?? (await this.source.resolve());
    await cache?.dataManager.clear();
  }

  /** Closes the cache this SemanticCache built for itself, if it did (a cache you gave is yours to close). */
  close(): Promise<void> {
    return this.source.close();
  }

  /**
   * Refused: LangChain's key encoders hash the prompt into an exact key, while this cache matches the question's
   * text by meaning. Choose the key text with `preEmbeddingFunc` instead.
   */
  override makeDefaultKeyEncoder(): void {
    throw new ValidationError("SemanticCache matches the question's text by meaning, so a hashing key encoder cannot apply: choose the key text with `preEmbeddingFunc`.");
  }

  /**
   * The stored generations for a prompt, or null on a miss. A store fault, a bad entry or a cache that cannot be
   * used is a miss (counted); invalid request options throw, as on every surface.
   */
  async lookup(prompt: string, llmKey: string): Promise<Generation[] | null> {
    const call = await this.callFor(prompt, llmKey);
    if (!call) return null;
    return runCached<Generation[] | null>(call.request, { ...call.options, searchOnly: true }, {
      name: SURFACE,
      call: async () => null,
      answerOf: (generations) => generations && toStoredAnswer(generations),
      fromCache: (hit) => {
        try {
          return fromHit(hit, call.chat);
        } catch (error) {
          absorbFault(call.cache, error);
          return null;
        }
      },
    });
  }

  /** Stores the model's generations. A cache fault is counted, never thrown: the user's answer is already made. */
  async update(prompt: string, llmKey: string, generations: Generation[]): Promise<void> {
    const call = await this.callFor(prompt, llmKey);
    if (!call) return;
    try {
      const answer = toStoredAnswer(generations);
      if (answer) await putAnswer(call.request, call.options, answer);
    } catch (error) {
      absorbFault(call.cache, error);
    }
  }

  /**
   * The pipeline request and options for a call; null (uncached) for image prompts, when no cache can be used,
   * or (fault counted) when the user's functions throw.
   */
  private async callFor(prompt: string, llmKey: string): Promise<Call | null> {
    try {
      const model = this.modelKey(llmKey);
      const user = typeof this.requestOptions === "function" ? this.requestOptions(prompt, llmKey) : this.requestOptions;
      // LangChain writes an attachment into the prompt as "[image]", "[file]", "[audio]", ..., without its data:
      // two questions about different files would share a key, so they bypass the cache.
      if (ATTACHMENT_PLACEHOLDER.test(prompt)) return null;
      const cache = user?.cacheObj ?? (await this.source.resolve());
      if (!cache || !this.source.usable(cache)) return null;
      // The context joins the model's partition (llm_key), so it partitions whatever config.partitionKeys lists
      // besides; a lone question has none, so entries warmed with llmKeyPartition() answer it.
      const text = withoutToolCallIds(prompt);
      // Shared across contexts or not, tool calls and results after the question never match by meaning.
      const context = contextDigest(this.shareAcrossContexts ? followingTurns(text) : exactContext(text));
      return {
        request: { prompt: this.preEmbeddingFunc(text), llm_key: context === undefined ? model.partition : `${model.partition}\n${context}` },
        options: { temperature: this.temperatureSkip ? model.temperature : undefined, ...user, cacheObj: cache },
        chat: model.chat,
        cache,
      };
    } catch (error) {
      const cache = await this.source.resolve();
      if (cache) absorbFault(cache, error);
      return null;
    }
  }

  /** A model's llmKey is the same on every call: the last one is kept so the hit path parses it once. */
  private modelKey(llmKey: string): ModelKey {
    if (this.lastModel?.llmKey !== llmKey) this.lastModel = modelKeyOf(llmKey);
    return this.lastModel;
  }
}

function modelKeyOf(llmKey: string): ModelKey {
  const clean = sanitizeLlmKey(llmKey);
  const t = clean.temperature;
  const temperature = typeof t === "number" && t >= 0 && t <= 2 ? t : undefined;
  return { llmKey, partition: stableStringify(clean), chat: clean._model === "base_chat_model", temperature };
}

/**
 * The partition a LangChain model's entries live in, as request settings: pass it as `importData`'s or
 * `put`'s `partition` to warm the cache for a model
 * (`llmKeyPartition(model._getSerializedCacheKeyParametersForCall({}))`).
 */
export function llmKeyPartition(llmKey: string): { llm_key: string } {
  return { llm_key: modelKeyOf(llmKey).partition };
}
