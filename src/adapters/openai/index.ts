/** The OpenAI SDK adapter: `langchain-semcache/openai`. */
export {
  wrapOpenAI,
  type WrapOpenAIOptions,
  type CachedOpenAI,
  type CachedChatCompletions,
  type CachedCompletions,
  type CachedImages,
  type CachedTranscriptions,
  type CachedTranslations,
  type CachedModerations,
} from "./wrap.js";
export { cachedChatCompletion, type CachedChatBody, type ChatUpstreamResult } from "./chat.js";
export { cachedCompletion, type CachedCompletionBody, type CompletionUpstreamResult } from "./completions.js";
export { cachedImageGeneration, type CachedImageBody } from "./images.js";
export { cachedAudio, type AudioEndpoint, type AudioParams, type AudioResult, type CachedAudioBody } from "./audio.js";
export { cachedModeration, type CachedModerationBody } from "./moderations.js";
export { attachmentDigest } from "./vision.js";
export type {
  CacheBodyOptions,
  CachedCall,
  LlmCallOptions,
  LlmFunction,
  Marked,
  OpenAIHitMarker,
  SdkRequestOptions,
  UpstreamSettings,
} from "./types.js";
export type { CacheOutcome, CacheStatus, FlowOptions, StorageControls } from "../../core/pipeline.js";
