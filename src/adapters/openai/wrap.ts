/**
 * `wrapOpenAI(client)`: the cache in front of an `openai` client instance. Chat completions (streamed or not,
 * vision included), completions, image generation, audio transcriptions and translations, and moderations go
 * through the cache; every other member of the client is the client's own.
 */
import type OpenAI from "openai";
import type {
  ChatCompletion,
  ChatCompletionChunk,
  ChatCompletionCreateParams,
  ChatCompletionCreateParamsNonStreaming,
  ChatCompletionCreateParamsStreaming,
} from "openai/resources/chat/completions";
import type {
  Completion,
  CompletionCreateParams,
  CompletionCreateParamsNonStreaming,
  CompletionCreateParamsStreaming,
} from "openai/resources/completions";
import type { ImageGenerateParams, ImageGenerateParamsNonStreaming, ImageGenerateParamsStreaming, ImageGenStreamEvent, ImagesResponse } from "openai/resources/images";
import type {
  Transcription,
  TranscriptionCreateParams,
  TranscriptionCreateParamsNonStreaming,
  TranscriptionCreateParamsStreaming,
  TranscriptionStreamEvent,
  TranscriptionVerbose,
} from "openai/resources/audio/transcriptions";
import type { Translation, TranslationCreateParams, TranslationVerbose } from "openai/resources/audio/translations";
import type { ModerationCreateParams, ModerationCreateResponse } from "openai/resources/moderations";
import type { Stream } from "openai/streaming";
import { Cache } from "../../presets/cache.js";
import { ValidationError } from "../../core/errors.js";
import type { FlowOptions } from "../../core/pipeline.js";
import { cachedAudio, type AudioParams, type AudioResult } from "./audio.js";
import { cachedChatCompletion, type ChatUpstreamResult } from "./chat.js";
import { cachedCompletion, type CompletionUpstreamResult } from "./completions.js";
import { cachedImageGeneration } from "./images.js";
import { cachedModeration } from "./moderations.js";
import { toSdkStream } from "./stream.js";
import type { CacheBodyOptions, Marked, SdkRequestOptions } from "./types.js";

export interface WrapOpenAIOptions {
  /** The cache of every call (a body's `cache_obj` overrides it). Default: the global `cache`. */
  cache?: Cache;
  /** Cache options of every call, under each body's own: `{ session: "user-42" }`, `{ noStore: true }`, ... */
  cacheOptions?: FlowOptions;
  /**
   * Chat: reuse answers stored after other system messages or earlier turns (a body's `share_across_contexts`
   * overrides it). Default false: the messages before the keyed one partition the answers.
   */
  shareAcrossContexts?: boolean;
}

type ChatOptions = CacheBodyOptions<ChatCompletionCreateParams, ChatUpstreamResult>;
type CompletionOptions = CacheBodyOptions<CompletionCreateParams, CompletionUpstreamResult>;
type AudioOptions = CacheBodyOptions<AudioParams, AudioResult>;
/** A body asking the cache only: a miss returns null. */
type SearchOnly = { search_only: true };

/** `chat.completions.create` with the cache: the SDK's shapes, a hit marked `semcache: { hit: true, score, id }`. */
export interface CachedChatCompletions {
  create(body: ChatCompletionCreateParamsNonStreaming & ChatOptions & SearchOnly, options?: SdkRequestOptions): Promise<Marked<ChatCompletion> | null>;
  create(body: ChatCompletionCreateParamsNonStreaming & ChatOptions, options?: SdkRequestOptions): Promise<Marked<ChatCompletion>>;
  create(body: ChatCompletionCreateParamsStreaming & ChatOptions & SearchOnly, options?: SdkRequestOptions): Promise<Stream<Marked<ChatCompletionChunk>> | null>;
  create(body: ChatCompletionCreateParamsStreaming & ChatOptions, options?: SdkRequestOptions): Promise<Stream<Marked<ChatCompletionChunk>>>;
  create(body: ChatCompletionCreateParams & ChatOptions, options?: SdkRequestOptions): Promise<Marked<ChatCompletion> | Stream<Marked<ChatCompletionChunk>> | null>;
}

export interface CachedCompletions {
  create(body: CompletionCreateParamsNonStreaming & CompletionOptions & SearchOnly, options?: SdkRequestOptions): Promise<Marked<Completion> | null>;
  create(body: CompletionCreateParamsNonStreaming & CompletionOptions, options?: SdkRequestOptions): Promise<Marked<Completion>>;
  create(body: CompletionCreateParamsStreaming & CompletionOptions & SearchOnly, options?: SdkRequestOptions): Promise<Stream<Marked<Completion>> | null>;
  create(body: CompletionCreateParamsStreaming & CompletionOptions, options?: SdkRequestOptions): Promise<Stream<Marked<Completion>>>;
  create(body: CompletionCreateParams & CompletionOptions, options?: SdkRequestOptions): Promise<Marked<Completion> | Stream<Marked<Completion>> | null>;
}

type ImageOptions = CacheBodyOptions<ImageGenerateParams, ImagesResponse>;

/** `images.generate` with the cache (partial-image streams pass through uncached). */
export interface CachedImages {
  generate(body: ImageGenerateParamsNonStreaming & ImageOptions & SearchOnly, options?: SdkRequestOptions): Promise<Marked<ImagesResponse> | null>;
  generate(body: ImageGenerateParamsNonStreaming & ImageOptions, options?: SdkRequestOptions): Promise<Marked<ImagesResponse>>;
  generate(body: ImageGenerateParamsStreaming & ImageOptions, options?: SdkRequestOptions): Promise<Stream<ImageGenStreamEvent>>;
  generate(body: ImageGenerateParams & ImageOptions, options?: SdkRequestOptions): Promise<Marked<ImagesResponse> | Stream<ImageGenStreamEvent> | null>;
}

/** `audio.transcriptions.create` with the cache (streamed transcriptions pass through uncached). */
export interface CachedTranscriptions {
  create(body: TranscriptionCreateParamsNonStreaming & AudioOptions & SearchOnly, options?: SdkRequestOptions): Promise<Marked<AudioResult> | null>;
  create(body: TranscriptionCreateParamsNonStreaming<"json" | undefined> & AudioOptions, options?: SdkRequestOptions): Promise<Marked<Transcription>>;
  create(body: TranscriptionCreateParamsNonStreaming<"verbose_json"> & AudioOptions, options?: SdkRequestOptions): Promise<Marked<TranscriptionVerbose>>;
  create(body: TranscriptionCreateParamsNonStreaming<"srt" | "vtt" | "text"> & AudioOptions, options?: SdkRequestOptions): Promise<string>;
  create(body: TranscriptionCreateParamsStreaming & AudioOptions, options?: SdkRequestOptions): Promise<Stream<TranscriptionStreamEvent>>;
  create(body: TranscriptionCreateParams & AudioOptions, options?: SdkRequestOptions): Promise<Marked<AudioResult> | Stream<TranscriptionStreamEvent> | null>;
}

/** `audio.translations.create` with the cache. */
export interface CachedTranslations {
  create(body: TranslationCreateParams & AudioOptions & SearchOnly, options?: SdkRequestOptions): Promise<Marked<AudioResult> | null>;
  create(body: TranslationCreateParams<"json" | undefined> & AudioOptions, options?: SdkRequestOptions): Promise<Marked<Translation>>;
  create(body: TranslationCreateParams<"verbose_json"> & AudioOptions, options?: SdkRequestOptions): Promise<Marked<TranslationVerbose>>;
  create(body: TranslationCreateParams<"text" | "srt" | "vtt"> & AudioOptions, options?: SdkRequestOptions): Promise<string>;
  create(body: TranslationCreateParams & AudioOptions, options?: SdkRequestOptions): Promise<Marked<AudioResult>>;
}

type ModerationOptions = CacheBodyOptions<ModerationCreateParams, ModerationCreateResponse>;

/** `moderations.create` with the cache. */
export interface CachedModerations {
  create(body: ModerationCreateParams & ModerationOptions & SearchOnly, options?: SdkRequestOptions): Promise<Marked<ModerationCreateResponse> | null>;
  create(body: ModerationCreateParams & ModerationOptions, options?: SdkRequestOptions): Promise<Marked<ModerationCreateResponse>>;
}

/** A client whose cached surfaces go through the cache; everything else is the client's own. */
export type CachedOpenAI<C extends OpenAI = OpenAI> = Omit<C, "chat" | "completions" | "images" | "audio" | "moderations"> & {
  chat: Omit<C["chat"], "completions"> & { completions: Omit<C["chat"]["completions"], "create"> & CachedChatCompletions };
  completions: Omit<C["completions"], "create"> & CachedCompletions;
  images: Omit<C["images"], "generate"> & CachedImages;
  audio: Omit<C["audio"], "transcriptions" | "translations"> & {
    transcriptions: Omit<C["audio"]["transcriptions"], "create"> & CachedTranscriptions;
    translations: Omit<C["audio"]["translations"], "create"> & CachedTranslations;
  };
  moderations: Omit<C["moderations"], "create"> & CachedModerations;
};

/** The target with some members replaced; the others are the target's own (methods bound to it). */
function overlay<T extends object>(target: T, overrides: Record<string, unknown>): T {
  return new Proxy(target, {
    get(object, property) {
      if (typeof property === "string" && Object.hasOwn(overrides, property)) return overrides[property];
      const value: unknown = Reflect.get(object, property, object);
      return typeof value === "function" ? value.bind(object) : value;
    },
  });
}

type Sdk = (body: never, options?: SdkRequestOptions) => PromiseLike<unknown>;
/** One of the `cached*` functions, the cache left to the defaults and the body. */
type Run = (body: never, settings: never) => Promise<{ result: unknown }>;

/**
 * Puts the cache in front of an `openai` client (openai 6; openai 7 needs Node 22).
 *
 * ```ts
 * const openai = wrapOpenAI(new OpenAI(), { cache });
 * const answer = await openai.chat.completions.create({ model: "gpt-4o-mini", messages });
 * answer.semcache; // { hit: true, score: 1, id: 3 } on a hit; absent when the model answered
 * ```
 */
export function wrapOpenAI<C extends OpenAI>(client: C, options: WrapOpenAIOptions = {}): CachedOpenAI<C> {
  if (typeof client?.chat?.completions?.create !== "function") throw new ValidationError("wrapOpenAI needs an OpenAI client (`new OpenAI()`).");
  if (typeof options !== "object" || options === null) throw new ValidationError("wrapOpenAI options must be an object.");
  if (options.cache !== undefined && !(options.cache instanceof Cache)) throw new ValidationError("wrapOpenAI: `cache` must be a Cache.");
  if (options.cacheOptions !== undefined && (typeof options.cacheOptions !== "object" || options.cacheOptions === null)) {
    throw new ValidationError("wrapOpenAI: `cacheOptions` must be an object.");
  }
  if (options.shareAcrossContexts !== undefined && typeof options.shareAcrossContexts !== "boolean") {
    throw new ValidationError("wrapOpenAI: `shareAcrossContexts` must be a boolean.");
  }
  const defaults: FlowOptions = { ...options.cacheOptions, ...(options.cache ? { cacheObj: options.cache } : {}) };
  const { shareAcrossContexts } = options;

  /** A cached method: runs the body through `run` with the SDK method as upstream; a stream comes back as the SDK's Stream. */
  const cachedMethod =
    (upstreamMethod: Sdk, run: Run) =>
    async (body: { stream?: unknown } | undefined, requestOptions?: SdkRequestOptions): Promise<unknown> => {
      const controller = body?.stream === true ? new AbortController() : undefined;
      const callerSignal = requestOptions?.signal ?? undefined;
      const signal = controller && callerSignal ? AbortSignal.any([controller.signal, callerSignal]) : (controller?.signal ?? callerSignal);
      const { result } = await run(body as never, {
        upstream: (sent: never, upstreamSignal?: AbortSignal) => upstreamMethod(sent, upstreamSignal ? { ...requestOptions, signal: upstreamSignal } : requestOptions),
        signal,
        defaults,
        shareAcrossContexts,
      } as never);
      const isStream = typeof (result as AsyncIterable<unknown> | null)?.[Symbol.asyncIterator] === "function";
      return controller && isStream ? toSdkStream(result as AsyncIterable<unknown>, controller) : result;
    };
  const sdk = (owner: object, method: unknown) => (method as (...args: unknown[]) => PromiseLike<unknown>).bind(owner) as Sdk;

  const { chat, completions, images, audio, moderations } = client;
  const overrides: Record<string, unknown> = {
    chat: overlay(chat, {
      completions: overlay(chat.completions, {
        create: cachedMethod(sdk(chat.completions, chat.completions.create), (body, settings) => cachedChatCompletion(undefined, body, settings)),
      }),
    }),
  };
  if (completions) {
    const create = cachedMethod(sdk(completions, completions.create), (body, settings) => cachedCompletion(undefined, body, settings));
    overrides.completions = overlay(completions, { create });
  }
  if (images) {
    const generate = cachedMethod(sdk(images, images.generate), (body, settings) => cachedImageGeneration(undefined, body, settings));
    overrides.images = overlay(images, { generate });
  }
  if (moderations) {
    const create = cachedMethod(sdk(moderations, moderations.create), (body, settings) => cachedModeration(undefined, body, settings));
    overrides.moderations = overlay(moderations, { create });
  }
  if (audio) {
    const { transcriptions, translations } = audio;
    overrides.audio = overlay(audio, {
      transcriptions: overlay(transcriptions, {
        create: cachedMethod(sdk(transcriptions, transcriptions.create), (body, settings) => cachedAudio("transcriptions", undefined, body, settings)),
      }),
      translations: overlay(translations, {
        create: cachedMethod(sdk(translations, translations.create), (body, settings) => cachedAudio("translations", undefined, body, settings)),
      }),
    });
  }
  return overlay(client, overrides) as unknown as CachedOpenAI<C>;
}
