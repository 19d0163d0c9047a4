import { BaseCache, deserializeStoredGeneration, serializeGeneration } from "@langchain/core/caches";
import { AIMessage, type StoredGeneration, type StoredMessage } from "@langchain/core/messages";
import type { ChatGeneration, Generation } from "@langchain/core/outputs";
import { cache as globalCache, Cache } from "../core/cache.js";
import { StoreError, ValidationError } from "../core/errors.js";
import { stableStringify } from "../core/keys.js";
import { absorbFault, putAnswer, runCached, type CacheHit, type RequestOptions, type StoredAnswer } from "../core/pipeline.js";
import type { CacheRequest } from "../core/types.js";
import { lastHumanTurn } from "./prompt-key.js";
import type { SemcacheMarker } from "./messages.js";
import { sanitizeLlmKey } from "./secrets.js";

/** Set on every generation a hit returns (`generationInfo.semcache`, and a chat message's `response_metadata.semcache`). */
export type CacheHitMarker = Extract<SemcacheMarker, { hit: true }>;

export interface SemanticCacheOptions {
  /** The cache to use. Default: the global `cache` (initialise it before the first model call). */
  cache?: Cache;
  /**
   * Turns LangChain's prompt string into the key text, which the cache's own `preEmbeddingFunc` then reads
   * as the request's `prompt`. Default `lastHumanTurn`; `fullPrompt` keys on the whole transcript.
   */
  preEmbeddingFunc?: (prompt: string) => string;
  /**
   * Options for every lookup and update (session, cacheSkip, topK, temperature to apply GPTCache's random
   * skip...), or a function of the prompt and llmKey exactly as LangChain passes them.
   */
  requestOptions?: RequestOptions | ((prompt: string, llmKey: string) => RequestOptions);
}

/** A generation as stored: LangChain's own serialised form plus its generationInfo. */
type StoredEntry = StoredGeneration & { generationInfo?: Record<string, unknown> };

const MARKER = "semcache";
const SURFACE = "langchain-cache";
const IMAGE_PLACEHOLDER = "[image]";

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
 * A LangChain `BaseCache` backed by a semantic `Cache`: `new ChatOpenAI({ cache: new SemanticCache({ cache }) })`.
 * Lookups go through the cache's one request flow (search only: a miss is null and LangChain calls the
 * model), updates store the generations. The llmKey partitions the entries once its secrets are removed, so
 * another model or temperature never shares an answer, while a rotated API key or a new base URL keeps them.
 */
export class SemanticCache extends BaseCache<Generation[]> {
  private readonly cacheObj?: Cache;
  private readonly preEmbeddingFunc: (prompt: string) => string;
  private readonly requestOptions?: SemanticCacheOptions["requestOptions"];
  private lastModel?: ModelKey;

  constructor(options: SemanticCacheOptions = {}) {
    super();
    if (typeof options !== "object" || options === null) throw new ValidationError("SemanticCache options must be an object.");
    const { cache, preEmbeddingFunc, requestOptions } = options;
    if (cache !== undefined && !(cache instanceof Cache)) throw new ValidationError("SemanticCache: `cache` must be a Cache.");
    if (preEmbeddingFunc !== undefined && typeof preEmbeddingFunc !== "function") {
      throw new ValidationError("SemanticCache: `preEmbeddingFunc` must be a function of the prompt string.");
    }
    if (requestOptions !== undefined && (typeof requestOptions !== "object" || requestOptions === null) && typeof requestOptions !== "function") {
      throw new ValidationError("SemanticCache: `requestOptions` must be an object or a function.");
    }
    this.cacheObj = cache;
    this.preEmbeddingFunc = preEmbeddingFunc ?? lastHumanTurn;
    this.requestOptions = requestOptions;
  }

  /**
   * The stored generations for a prompt, or null on a miss. A store fault or a bad entry is a miss (counted);
   * an uninitialised cache or invalid request options throw, as on every surface.
   */
  async lookup(prompt: string, llmKey: string): Promise<Generation[] | null> {
    const call = this.callFor(prompt, llmKey);
    if (!call) return null;
    return runCached<Generation[] | null>(call.request, { ...call.options, searchOnly: true }, {
      name: SURFACE,
      call: async () => null,
      answerOf: (generations) => generations && toStoredAnswer(generations),
      fromCache: (hit) => {
        try {
          return fromHit(hit, call.chat);
        } catch (error) {
          absorbFault(call.options.cacheObj ?? globalCache, error);
          return null;
        }
      },
    });
  }

  /** Stores the model's generations. A cache fault is counted, never thrown: the user's answer is already made. */
  async update(prompt: string, llmKey: string, generations: Generation[]): Promise<void> {
    const call = this.callFor(prompt, llmKey);
    if (!call) return;
    try {
      const answer = toStoredAnswer(generations);
      if (answer) await putAnswer(call.request, call.options, answer);
    } catch (error) {
      absorbFault(call.options.cacheObj ?? globalCache, error);
    }
  }

  /** The pipeline request and options for a call; null (uncached) for image prompts, or (fault counted) when the user's functions throw. */
  private callFor(prompt: string, llmKey: string): { request: CacheRequest; options: RequestOptions; chat: boolean } | null {
    try {
      const model = this.modelKey(llmKey);
      const user = typeof this.requestOptions === "function" ? this.requestOptions(prompt, llmKey) : this.requestOptions;
      // LangChain writes an image into the prompt as "[image]", without its data: two questions about
      // different pictures would share a key, so they bypass the cache.
      if (prompt.includes(IMAGE_PLACEHOLDER)) return null;
      return {
        request: { prompt: this.preEmbeddingFunc(prompt), llm_key: model.partition },
        options: { temperature: model.temperature, ...user, cacheObj: user?.cacheObj ?? this.cacheObj },
        chat: model.chat,
      };
    } catch (error) {
      absorbFault(this.cacheObj ?? globalCache, error);
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
      data: { ...message.data, response_metadata: { ...message.data.response_metadata, [MARKER]: marker } },
    };
    return { ...deserializeStoredGeneration({ text, message: marked }), generationInfo: { ...generationInfo, [MARKER]: marker } };
  });
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
