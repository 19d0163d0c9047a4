import { randomUUID } from "node:crypto";
import { BaseCache, deserializeStoredGeneration, serializeGeneration } from "@langchain/core/caches";
import { AIMessage, type StoredGeneration, type StoredMessage } from "@langchain/core/messages";
import type { ChatGeneration, Generation } from "@langchain/core/outputs";
import type { EmbeddingsInterface } from "@langchain/core/embeddings";
import { Cache } from "../core/cache.js";
import { contextDigest } from "../core/conversation-context.js";
import { StoreError, ValidationError } from "../core/errors.js";
import { initSimilarCache } from "../core/similar-cache.js";
import type { ManagerComponents } from "../manager/factory.js";
import { stableStringify } from "../core/keys.js";
import { absorbFault, putAnswer, runCached, type CacheHit, type RequestOptions, type StoredAnswer } from "../core/pipeline.js";
import type { CacheRequest } from "../core/types.js";
import { isLangChainVectorStore } from "../stores/vector/kinds.js";
import { HnswIndex } from "../stores/vector/hnsw.js";
import { CacheSource } from "./cache-source.js";
import { exactContext, lastHumanTurn, withoutToolCallIds } from "./prompt-key.js";
import type { SemcacheMarker } from "./messages.js";
import { sanitizeLlmKey } from "./secrets.js";

/** Set on every generation a hit returns (`generationInfo.semcache`, and a chat message's `response_metadata.semcache`). */
export type CacheHitMarker = Extract<SemcacheMarker, { hit: true }>;

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
export interface FromEmbeddingsOptions extends Omit<SemanticCacheOptions, "cache"> {
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

/** A generation as stored: LangChain's own serialised form plus its generationInfo. */
type StoredEntry = StoredGeneration & { generationInfo?: Record<string, unknown> };

const MARKER = "semcache";
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
    const { cache, dataDir, threshold, preEmbeddingFunc, requestOptions, shareAcrossContexts = false, temperatureSkip = false } = options;
    if (cache !== undefined && !(cache instanceof Cache) && typeof cache !== "function") {
      throw new ValidationError("SemanticCache: `cache` must be a Cache or a function that builds one.");
    }
    if (cache !== undefined && (dataDir !== undefined || threshold !== undefined)) {
      throw new ValidationError("SemanticCache: `dataDir` and `threshold` set up its own cache; a `cache` you give is set up by you.");
    }
    if (dataDir !== undefined && (typeof dataDir !== "string" || dataDir.length === 0)) {
      throw new ValidationError("SemanticCache: `dataDir` must be a non-empty string.");
    }
    checkThreshold(threshold);
    for (const [name, value] of Object.entries({ shareAcrossContexts, temperatureSkip })) {
      if (typeof value !== "boolean") throw new ValidationError(`SemanticCache: \`${name}\` must be a boolean.`);
    }
    if (preEmbeddingFunc !== undefined && typeof preEmbeddingFunc !== "function") {
      throw new ValidationError("SemanticCache: `preEmbeddingFunc` must be a function of the prompt string.");
    }
    if (requestOptions !== undefined && (typeof requestOptions !== "object" || requestOptions === null) && typeof requestOptions !== "function") {
      throw new ValidationError("SemanticCache: `requestOptions` must be an object or a function.");
    }
    this.source = new CacheSource(cache ?? (() => initSimilarCache({ cache: new Cache(), threshold, ...storage(dataDir) })));
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
    checkThreshold(threshold);
    const stores = typeof store === "string" ? { manager: store, dataDir } : store === undefined ? storage(dataDir) : { ...storage(dataDir), manager: { scalar: dataDir === undefined ? "memory" : "sqlite", vector: store } };
    return new SemanticCache({ ...rest, cache: () => initSimilarCache({ cache: new Cache(), embedding: embeddings, threshold, ...stores }) });
  }

  /** Removes every entry of the cache (every model's and context's; a cache you gave: all of its entries). */
  async clear(): Promise<void> {
    const cache = await this.source.resolve();
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
      const context = this.shareAcrossContexts ? undefined : contextDigest(exactContext(text));
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

function checkThreshold(threshold: unknown): void {
  if (threshold !== undefined && !(typeof threshold === "number" && threshold >= 0 && threshold <= 1)) {
    throw new ValidationError("SemanticCache: `threshold` must be a number in [0, 1].");
  }
}

/** The stores of a cache SemanticCache builds: in memory (nothing written to disk), or the embedded default in dataDir. */
function storage(dataDir: string | undefined): { manager: string | ManagerComponents; dataDir?: string } {
  return dataDir === undefined ? { manager: { scalar: "memory", vector: new HnswIndex({ dimension: 0 }) } } : { manager: "sqlite,hnswlib", dataDir };
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

/**
 * What to store. One text generation without a message (an LLM's usual answer) is stored as text: the
 * answer column stays readable and the simple API, the server and report rows read it as is; its
 * generationInfo (finish reason, logprobs of that one sampling) is not kept. Anything else (chat messages
 * with metadata and tool calls, several generations) is LangChain's own serialised form as JSON.
 */
function toStoredAnswer(generations: readonly Generation[]): StoredAnswer | null {
  if (!Array.isArray(generations) || generations.length === 0) return null;
  const [first] = generations;
  if (generations.length === 1 && !hasMessage(first)) return first.text || null;
  return { answer: JSON.stringify(generations.map(toEntry)), answerType: "object" };
}

function hasMessage(generation: Generation): boolean {
  return (generation as { message?: unknown }).message !== undefined;
}

function toEntry(generation: Generation): StoredEntry {
  const stored: StoredEntry = serializeGeneration(generation);
  if (stored.message) {
    const data = stored.message.data;
    stored.message = { ...stored.message, data: { ...data, response_metadata: withoutMarker(data.response_metadata) } };
  }
  const info = withoutMarker(generation.generationInfo);
  if (info && Object.keys(info).length > 0) stored.generationInfo = info;
  return stored;
}

/** A hit's own marker is not part of the answer (an L2 hit written back to L1 must not carry it). */
function withoutMarker<T extends Record<string, unknown> | undefined>(record: T): T {
  if (!record || !(MARKER in record)) return record;
  return Object.fromEntries(Object.entries(record).filter(([key]) => key !== MARKER)) as T;
}

/** Rebuilds fresh generations from a hit (a chat model gets messages even from a text entry). */
function fromHit(hit: CacheHit, chat: boolean): Generation[] {
  const marker: CacheHitMarker = { hit: true, score: hit.score, id: hit.id };
  if (hit.answerType !== "object") {
    const generation = { text: hit.answer, generationInfo: { [MARKER]: marker } };
    if (!chat) return [generation];
    const message = new AIMessage({ content: hit.answer, response_metadata: { [MARKER]: marker } });
    const chatGeneration: ChatGeneration = { ...generation, message };
    return [chatGeneration];
  }
  const entries: unknown = JSON.parse(hit.answer);
  if (!Array.isArray(entries) || entries.length === 0 || !entries.every((entry) => isEntry(entry, chat))) {
    throw new StoreError("langchain", `entry ${hit.id} is not a list of LangChain ${chat ? "chat " : ""}generations.`);
  }
  return entries.map((entry: StoredEntry) => {
    const { generationInfo, message, text } = entry;
    const marked: StoredMessage | undefined = message && {
      ...message,
      data: { ...withFreshToolCallIds(message.data), response_metadata: { ...message.data.response_metadata, [MARKER]: marker } },
    };
    return { ...deserializeStoredGeneration({ text, message: marked }), generationInfo: { ...generationInfo, [MARKER]: marker } };
  });
}

/**
 * A replayed tool call gets a new id (in `tool_calls` and the provider's raw `additional_kwargs.tool_calls`
 * alike): an agent matches each tool's result to its call by id, and two runs must not share one.
 */
function withFreshToolCallIds(data: StoredMessage["data"]): StoredMessage["data"] {
  const fresh = new Map<string, string>();
  const renew = <T extends { id?: unknown }>(call: T): T => {
    if (typeof call?.id !== "string") return call;
    if (!fresh.has(call.id)) fresh.set(call.id, `call_${randomUUID().replaceAll("-", "").slice(0, 24)}`);
    return { ...call, id: fresh.get(call.id) };
  };
  const { tool_calls: calls } = data as { tool_calls?: unknown };
  const raw = data.additional_kwargs?.tool_calls;
  if (!Array.isArray(calls) && !Array.isArray(raw)) return data;
  return {
    ...data,
    ...(Array.isArray(calls) && { tool_calls: calls.map(renew) }),
    ...(Array.isArray(raw) && { additional_kwargs: { ...data.additional_kwargs, tool_calls: raw.map(renew) } }),
  } as StoredMessage["data"];
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function isEntry(value: unknown, chat: boolean): value is StoredEntry {
  if (!isRecord(value) || typeof value.text !== "string") return false;
  if (value.generationInfo !== undefined && !isRecord(value.generationInfo)) return false;
  if (value.message === undefined) return !chat;
  return isRecord(value.message) && typeof value.message.type === "string" && isRecord(value.message.data);
}
