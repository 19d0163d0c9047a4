import type { BaseChatModel } from "@langchain/core/language_models/chat_models";
import { SystemMessage, type AIMessage, type BaseMessage } from "@langchain/core/messages";
import { createMiddleware, type AgentMiddleware } from "langchain";
import { Cache } from "../presets/cache.js";
import { NotInitError, ValidationError } from "../core/errors.js";
import { absorbFault, putAnswer, type RequestOptions } from "../core/pipeline.js";
import type { Session } from "../core/session.js";
import type { CacheRequest } from "../core/types.js";
import { CacheSource, checkDataDir, checkProgress, checkThreshold, ownCache, type ProgressOption } from "../langchain/cache-source.js";
import { isUnresolvedModel, modelSettings, runWithOutcome, splitCallOptions, type DescribedModel } from "../langchain/call-options.js";
import { messageFromHit, storableAnswer } from "../langchain/chat-answers.js";
import { chatRequest, toolSettingsDigest, withoutToolSettings } from "../langchain/chat-key.js";
import { markedMessage, SEARCH_ONLY_MISS_MARKER, SHARED_MARKER } from "../langchain/messages.js";
import { warmMessages, type WarmPair } from "../langchain/warm.js";

/** Concurrent identical misses share one model call only within one surface. */
const SURFACE = "langchain-agent";

export interface SemanticCacheMiddlewareOptions {
  /**
   * The cache to use (initialised by you), or a function that builds one, called once on first use. Default: a
   * cache of its own, built on first use: the offline preset, in memory, or in `dataDir` when given.
   */
  cache?: Cache | (() => Promise<Cache>);
  /** Without `cache`: keep the entries in this folder (SQLite and an HNSW index), so they survive restarts. */
  dataDir?: string;
  /** Without `cache`: the score a stored question needs to answer a new one (default the preset's). */
  threshold?: number;
  /**
   * Without `cache`: where the model's loading is told (the first cache of a process loads it, ~1 s): a
   * function of the message, or false for nothing. Default: once per process, through console.warn.
   */
  onProgress?: ProgressOption;
  /** Reuse an answer stored under other system prompts or earlier turns (never across tool results). Default false. */
  shareAcrossContexts?: boolean;
  /** The session every lookup and update belongs to (a Session or its name). */
  session?: Session | string;
  /** Request options for every model call (cacheSkip, topK, searchOnly, ...). */
  cacheOptions?: RequestOptions;
  /** Apply GPTCache's random skip by the model's temperature. Default false: a repeat is a hit whatever the temperature. */
  temperatureSkip?: boolean;
}

/** The middleware, with what SemanticCache also offers: emptying the cache and closing the one it built. */
export type SemanticCacheMiddleware = AgentMiddleware & {
  /** Removes every entry of the cache (a cache you gave: all of its entries). */
  clear(): Promise<void>;
  /** Closes the cache the middleware built for itself, if it did (a cache you gave is yours to close). */
  close(): Promise<void>;
  /**
   * Stores question/answer pairs where an agent's model calls look them up: the agent's `model`, its
   * `systemPrompt` and `tools` (as given to createAgent), and the context each question is given in. A fault
   * throws (a cache that cannot be used included).
   */
  warm(agent: AgentShape, pairs: readonly WarmPair[]): Promise<void>;
};

/**
 * What of an agent's createAgent parameters its model calls are keyed on. `tools` are every tool the model is
 * offered: the agent's own and any a middleware adds (the todo-list middleware's, say).
 */
export interface AgentShape {
  model: BaseChatModel;
  systemPrompt?: string | SystemMessage;
  tools?: unknown[];
}

/** What of LangChain's ModelRequest the key reads. */
interface ModelCall {
  model: unknown;
  messages: BaseMessage[];
  systemMessage?: BaseMessage;
  /** The system prompt as text (langchain releases before `systemMessage`). */
  systemPrompt?: string;
  runtime?: { configurable?: Record<string, unknown> };
  tools?: unknown[];
  toolChoice?: unknown;
  responseFormat?: unknown;
  modelSettings?: Record<string, unknown>;
}

function isDescribedModel(model: unknown): model is DescribedModel {
  const m = model as Partial<DescribedModel> | null;
  return typeof m?.invocationParams === "function" && typeof m._identifyingParams === "function" && typeof m._llmType === "function";
}

/**
 * The cache request of an agent's model call, or undefined when it passes through uncached: structured output
 * (the agent parses the model's answer into a structured response), a model LangChain cannot describe, or a
 * message that holds anything but text.
 */
async function requestFor(call: ModelCall, shareAcrossContexts: boolean): Promise<CacheRequest | undefined> {
  const model = await modelOf(call);
  if (call.responseFormat !== undefined || !isDescribedModel(model) || isUnresolvedModel(model)) return undefined;
  const systemMessage = call.systemMessage ?? (call.systemPrompt ? new SystemMessage(call.systemPrompt) : undefined);
  const system = systemMessage && systemMessage.text !== "" ? [systemMessage] : [];
  const settings = call.modelSettings ?? {};
  const tools = toolSettingsDigest({ tools: call.tools, tool_choice: call.toolChoice }, settings);
  return chatRequest([...system, ...call.messages], modelSettings(model, withoutToolSettings(settings)), tools, shareAcrossContexts);
}

/**
 * The model a call goes to: a model given by name (`createAgent({ model: "openai:gpt-4o" })`, initChatModel)
 * is resolved as it resolves itself for the run (its configurable fields included), so each keys as itself.
 */
async function modelOf(call: ModelCall): Promise<unknown> {
  if (!isUnresolvedModel(call.model)) return call.model;
  const named = call.model as { _getModelInstance(config: object): Promise<unknown> };
  return named._getModelInstance({ configurable: call.runtime?.configurable ?? {} });
}

/**
 * A LangChain v1 agent middleware (`createMiddleware` with `wrapModelCall`) that puts the semantic cache in front
 * of every model call of an agent, keyed as CachedChatModel keys a call: the last human turn matched by
 * meaning, within an exact partition of the model and its settings, the system prompt and earlier turns, the
 * tools' definitions and, once tool results follow the question, the whole transcript. A step that calls tools
 * is stored whole and replayed with fresh tool-call ids, so a repeated run makes no model call.
 *
 * ```ts
 * const agent = createAgent({ model, tools, middleware: [semanticCacheMiddleware()] });
 * ```
 *
 * A hit is the stored AIMessage with `response_metadata.semcache = { hit: true, score, id }` and zero usage; an
 * agent streamed with `streamMode: "messages"` gets it whole, as one message. Calls with a `responseFormat`
 * (structured output) pass through uncached. A cache fault never fails the model call: it goes to the model.
 */
export function semanticCacheMiddleware(options: SemanticCacheMiddlewareOptions = {}): SemanticCacheMiddleware {
  if (typeof options !== "object" || options === null) throw new ValidationError("semanticCacheMiddleware options must be an object.");
  const { cache, dataDir, threshold, onProgress, shareAcrossContexts = false, session, cacheOptions, temperatureSkip } = options;
  if (cache !== undefined && !(cache instanceof Cache) && typeof cache !== "function") {
    throw new ValidationError("semanticCacheMiddleware: `cache` must be a Cache or a function that builds one.");
  }
  if (cache !== undefined && (dataDir !== undefined || threshold !== undefined || onProgress !== undefined)) {
    throw new ValidationError("semanticCacheMiddleware: `dataDir`, `threshold` and `onProgress` set up its own cache; a `cache` you give is set up by you.");
  }
  checkDataDir("semanticCacheMiddleware", dataDir);
  checkProgress("semanticCacheMiddleware", onProgress);
  checkThreshold("semanticCacheMiddleware", threshold);
  if (typeof shareAcrossContexts !== "boolean") throw new ValidationError("semanticCacheMiddleware: `shareAcrossContexts` must be a boolean.");
  if (temperatureSkip !== undefined && typeof temperatureSkip !== "boolean") {
    throw new ValidationError("semanticCacheMiddleware: `temperatureSkip` must be a boolean.");
  }
  const source = new CacheSource(cache ?? ownCache(dataDir, threshold, onProgress));
  const defaults = { session, cacheOptions, temperatureSkip };
  /** The cache of every call: `cacheOptions.cacheObj` when set, else its own or the one given. */
  const cacheFor = async (): Promise<Cache | undefined> => {
    const chosen = cacheOptions?.cacheObj;
    if (chosen === undefined) return source.resolve();
    return source.usable(chosen) ? chosen : undefined;
  };

  const middleware = createMiddleware({
    name: "SemanticCacheMiddleware",
    wrapModelCall: async (request, handler) => {
      const call = () => handler(request) as Promise<AIMessage>;
      const target = await cacheFor();
      if (!target) return call();
      let key: CacheRequest | undefined;
      try {
        key = await requestFor(request as unknown as ModelCall, shareAcrossContexts);
      } catch (error) {
        // The key could not be built from the call: a cache fault, so the call goes to the model uncached.
        absorbFault(target, error);
      }
      if (!key) return call();
      const { cacheOptions: flowOptions } = splitCallOptions({}, { ...defaults, cache: target });
      const { value, outcome } = await runWithOutcome<AIMessage>(key, flowOptions, {
        name: SURFACE,
        call,
        answerOf: storableAnswer,
        fromCache: messageFromHit,
      });
      if (value === null) return markedMessage(SEARCH_ONLY_MISS_MARKER, "");
      return outcome === "shared" ? markedMessage(SHARED_MARKER, value) : value;
    },
  });
  return Object.assign(middleware, {
    warm: async (agent: AgentShape, pairs: readonly WarmPair[]) => {
      const target = await cacheFor();
      if (!target) throw new NotInitError("semanticCacheMiddleware.warm: the cache cannot be used (not initialised, or it failed to start).");
      const { cacheOptions: flowOptions } = splitCallOptions({}, { ...defaults, cache: target });
      const prompt = agent?.systemPrompt;
      const systemMessage = typeof prompt === "string" || prompt === undefined ? new SystemMessage(prompt ?? "") : prompt;
      for (const { messages, answer } of warmMessages("semanticCacheMiddleware", pairs)) {
        const key = await requestFor({ model: agent?.model, messages, systemMessage, tools: agent?.tools }, shareAcrossContexts);
        if (!key) throw new ValidationError("semanticCacheMiddleware.warm: `model` must be a LangChain chat model, and questions text only.");
        await putAnswer(key, flowOptions, answer);
      }
    },
    clear: async () => {
      const target = await cacheFor();
      await target?.dataManager.clear();
    },
    close: () => source.close(),
  });
}
