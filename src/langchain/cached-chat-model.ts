import type { CallbackManagerForLLMRun } from "@langchain/core/callbacks/manager";
import type { BaseLanguageModelInput, StructuredOutputMethodOptions } from "@langchain/core/language_models/base";
import {
  BaseChatModel,
  type BaseChatModelCallOptions,
  type BaseChatModelParams,
  type BindToolsInput,
} from "@langchain/core/language_models/chat_models";
import type { AIMessageChunk, BaseMessage } from "@langchain/core/messages";
import type { ChatGenerationChunk, ChatResult } from "@langchain/core/outputs";
import type { Runnable } from "@langchain/core/runnables";
import { ValidationError } from "../core/errors.js";
import { cache as globalCache } from "../presets/cache.js";
import { absorbFault, putAnswer, runCachedStream } from "../core/pipeline.js";
import type { CacheRequest } from "../core/types.js";
import { messageFromHit, storableAnswer } from "./chat-answers.js";
import { generationChunks, markedChunk, replayChunks, resultOf } from "./chat-chunks.js";
import { chatRequest, toolSettingsDigest, withoutToolSettings } from "./chat-key.js";
import { warmMessages, type WarmPair } from "./warm.js";
import { wrapperFields } from "./wrapper-fields.js";
import {
  CACHE_CALL_KEYS,
  isUnresolvedModel,
  modelCallConfig,
  modelSettings,
  runWithOutcome,
  splitCallOptions,
  wrappedInvocationParams,
  type CacheCallOptions,
  type WrapperCacheDefaults,
} from "./call-options.js";
import { markedMessage, reportTokens, SEARCH_ONLY_MISS_MARKER, SHARED_MARKER } from "./messages.js";

/** Concurrent identical misses share one model call only within one surface. */
const SURFACE = "langchain-chat";

/**
 * Call options of a `CachedChatModel`: the wrapped model's own (`M`), plus the cache's (`cacheObj`,
 * `cacheContext`, `cacheSkip`, `session`, `topK`, `searchOnly`, `temperature`), which are removed before the
 * wrapped model is called. `temperature` here drives only the cache's rule; the model's own temperature
 * setting is what it samples at (and is a partition key).
 */
export type CachedChatModelCallOptions<M extends BaseChatModelCallOptions = BaseChatModelCallOptions> = M &
  CacheCallOptions;

export interface CachedChatModelFields<M extends BaseChatModelCallOptions = BaseChatModelCallOptions>
  extends Omit<BaseChatModelParams, "cache">,
    WrapperCacheDefaults {
  /** The chat model to put the cache in front of (ChatOpenAI, ChatAnthropic, ChatOllama, ...). */
  model: BaseChatModel<M>;
  /**
   * Reuse an answer stored under other system messages or earlier turns. Default false: the question is
   * matched only among entries asked after the same messages (an exact partition on their digest).
   */
  shareAcrossContexts?: boolean;
}

function isChatModel(model: unknown): model is BaseChatModel {
  const m = model as { _modelType?: () => string; invoke?: unknown } | null;
  return typeof m?._modelType === "function" && m._modelType() === "base_chat_model" && typeof m.invoke === "function";
}

/**
 * Puts the cache in front of any LangChain chat model: `invoke`, `batch` and `stream` go through the request
 * flow, keyed on the real messages (`{ messages: [{ role, content }], model, temperature, ... }`).
 *
 * ```ts
 * const chat = new CachedChatModel({ model: new ChatOpenAI({ model: "gpt-4o-mini" }), cache });
 * await chat.invoke("What is a semantic cache?"); // calls the model, stores the answer
 * const again = await chat.invoke("What is a semantic cache?");
 * again.response_metadata.semcache; // { hit: true, score: 1, id: 1 }; again.usage_metadata is all zeros
 * await chat.invoke(messages, { session: "user-42", cacheSkip: true }); // cache options per call
 * ```
 *
 * - The key: by default (`lastContent`) the last message's text, matched only among entries asked after the
 *   same messages (system prompt, earlier turns: an exact partition on their digest), since they can change
 *   the answer. `shareAcrossContexts: true` shares answers across them (never across tool results). To
 *   match on the conversation instead, init the cache with `preEmbeddingFunc: concatAllQueries` (the last
 *   `config.contextLen` user turns) or `getMessages` (every message).
 * - Hits are AIMessages with `response_metadata.semcache = { hit: true, score, id }` and zero usage; stream
 *   hits replay as AIMessageChunks of a few words. Misses return the wrapped model's message unchanged
 *   (SemcacheMarker lists the other markers).
 * - A miss calls the wrapped model's `invoke`/`stream` with the same messages, its call options and the
 *   abort signal. Callback handlers see this wrapper's run, hit or miss (stream tokens, end, usage: once
 *   each); the model's own run goes only to handlers set on the model itself and to LangSmith's tracer
 *   (nested under this run), so usage is never counted twice.
 * - Tools (`bindTools`, or the `tools` call option), tool_choice and response_format partition the entries (as
 *   a digest of their definitions). An answer that calls tools is stored whole and replayed with fresh
 *   tool-call ids; once tool results follow the question, the whole transcript must match exactly. Answers with
 *   other non-text content (audio) are never stored; questions with non-text content (images) bypass the
 *   cache; `withStructuredOutput` is the wrapped model's own, uncached.
 * - A `searchOnly` miss is an empty AIMessage marked `{ hit: false }` (a stream yields one such chunk), not
 *   an error: a miss is an expected answer to "is this cached?", and a throw would fail a whole `batch()`.
 */
export class CachedChatModel<M extends BaseChatModelCallOptions = BaseChatModelCallOptions> extends BaseChatModel<
  CachedChatModelCallOptions<M>
> {
  readonly model: BaseChatModel<M>;
  private readonly fields: CachedChatModelFields<M>;
  private readonly defaults: WrapperCacheDefaults;
  private readonly shareAcrossContexts: boolean;
  /** What a miss calls: the model, or the model bound with tools by `bindTools`. */
  private target: Runnable<BaseLanguageModelInput, AIMessageChunk, M>;
  /** The tools and tool settings `bindTools` bound (they partition the entries). */
  private boundTools?: Record<string, unknown>;

  static override lc_name(): string {
    return "CachedChatModel";
  }

  constructor(fields: CachedChatModelFields<M>) {
    const { model, defaults, params } = wrapperFields("CachedChatModel", fields, isChatModel, "a LangChain chat model");
    const { shareAcrossContexts = false, ...modelParams } = params;
    super(modelParams);
    if (typeof shareAcrossContexts !== "boolean") throw new ValidationError("CachedChatModel: `shareAcrossContexts` must be a boolean.");
    this.shareAcrossContexts = shareAcrossContexts;
    this.model = model;
    this.target = model;
    this.fields = fields;
    this.defaults = defaults;
  }

  _llmType(): string {
    return "semcache";
  }

  override get callKeys(): string[] {
    return [...super.callKeys, ...CACHE_CALL_KEYS];
  }

  /** The wrapped model's invocation params (what traces show). */
  override invocationParams(options?: this["ParsedCallOptions"]): unknown {
    return wrappedInvocationParams(this.model, options);
  }

  override getLsParams(options: this["ParsedCallOptions"]) {
    return this.model.getLsParams(splitCallOptions(options, {}).modelOptions as never);
  }

  /**
   * Binds tools on the wrapped model; the result is still a CachedChatModel. Its answers (tool calls included)
   * are stored in a partition of these tools' definitions and settings.
   */
  override bindTools(tools: BindToolsInput[], kwargs?: Partial<M>): CachedChatModel<M> {
    if (typeof this.model.bindTools !== "function") {
      throw new ValidationError(`${this.model.getName()} has no bindTools(): it does not support tool calling.`);
    }
    const bound = new CachedChatModel<M>(this.fields);
    bound.target = this.model.bindTools(tools, kwargs);
    bound.boundTools = { ...(kwargs as Record<string, unknown>), tools };
    return bound;
  }

  /** The wrapped model's own structured output (uncached: a parsed object is not a text answer). */
  override withStructuredOutput<RunOutput extends Record<string, unknown> = Record<string, unknown>>(
    outputSchema: Parameters<BaseChatModel["withStructuredOutput"]>[0],
    config?: StructuredOutputMethodOptions<boolean>,
  ): Runnable<BaseLanguageModelInput, RunOutput> {
    return this.model.withStructuredOutput(outputSchema, config as StructuredOutputMethodOptions<false>) as Runnable<
      BaseLanguageModelInput,
      RunOutput
    >;
  }

  async _generate(
    messages: BaseMessage[],
    options: this["ParsedCallOptions"],
    runManager?: CallbackManagerForLLMRun,
  ): Promise<ChatResult> {
    options.signal?.throwIfAborted();
    const { request, cacheOptions, config } = this.plan(messages, options, runManager, true);
    const call = () => this.target.invoke(messages, config);
    if (!request) return resultOf(await call());
    const { value, outcome } = await runWithOutcome<BaseMessage>(request, cacheOptions, {
      name: SURFACE,
      call,
      answerOf: storableAnswer,
      fromCache: messageFromHit,
    });
    if (value === null) return resultOf(markedMessage(SEARCH_ONLY_MISS_MARKER, ""));
    // As LangChain's own cache does: a hit reports its text as one token.
    if (outcome === "hit") await runManager?.handleLLMNewToken(value.text);
    return resultOf(outcome === "shared" ? markedMessage(SHARED_MARKER, value) : value);
  }

  override async *_streamResponseChunks(
    messages: BaseMessage[],
    options: this["ParsedCallOptions"],
    runManager?: CallbackManagerForLLMRun,
  ): AsyncGenerator<ChatGenerationChunk> {
    options.signal?.throwIfAborted();
    const { request, cacheOptions, config } = this.plan(messages, options, runManager);
    const upstream = async () => generationChunks(await this.target.stream(messages, config));
    if (!request) {
      yield* reportTokens(await upstream(), runManager);
      return;
    }
    // The streamed answer is stored once complete: its text, or the whole message when it calls tools.
    let answer: AIMessageChunk | undefined;
    const stream = await runCachedStream<ChatGenerationChunk>(request, cacheOptions, {
      name: SURFACE,
      call: upstream,
      chunkText: (chunk) => {
        answer = answer === undefined ? (chunk.message as AIMessageChunk) : answer.concat(chunk.message as AIMessageChunk);
        return chunk.text;
      },
      answerOf: () => (answer === undefined ? null : storableAnswer(answer)),
      replay: (hit) => replayChunks(hit, upstream, options.signal),
    });
    yield* reportTokens(stream ?? [markedChunk("", SEARCH_ONLY_MISS_MARKER)], runManager);
  }

  /**
   * Stores question/answer pairs where this model's calls look them up (its settings, tools and the context each
   * question is given in), as if the model had answered them. A fault throws: nothing is stored silently wrong.
   */
  async warm(pairs: readonly WarmPair[]): Promise<void> {
    const { cacheOptions } = splitCallOptions({}, this.defaults);
    for (const { messages, answer } of warmMessages("CachedChatModel", pairs)) {
      const request = this.requestFor(messages, {});
      if (!request) throw new ValidationError("CachedChatModel.warm: a question with non-text content is never cached.");
      await putAnswer(request, cacheOptions, answer);
    }
  }

  /** Splits the options into the cache's and the model call's, and builds the cache request. */
  private plan(messages: BaseMessage[], options: this["ParsedCallOptions"], runManager?: CallbackManagerForLLMRun, relayTokens = false) {
    const { cacheOptions, modelOptions } = splitCallOptions(options, this.defaults);
    const config = modelCallConfig<M>(modelOptions, runManager, { relayTokens });
    try {
      return { request: this.requestFor(messages, modelOptions), cacheOptions, config };
    } catch (error) {
      // The key could not be built from the call (a setting that does not serialise, say): a cache fault, so
      // the call goes to the model uncached.
      const cache = cacheOptions.cacheObj ?? globalCache;
      if (cache.initialized) absorbFault(cache, error);
      return { request: undefined, cacheOptions, config };
    }
  }

  /**
   * The cache request, or undefined when the call passes through uncached: non-text content, or a model that
   * does not say which it is (loaded by name).
   */
  private requestFor(messages: BaseMessage[], modelOptions: object): CacheRequest | undefined {
    if (isUnresolvedModel(this.model)) return undefined;
    const options = modelOptions as Record<string, unknown>;
    const tools = toolSettingsDigest(this.boundTools, options);
    return chatRequest(messages, modelSettings(this.model, withoutToolSettings(options)), tools, this.shareAcrossContexts);
  }
}
