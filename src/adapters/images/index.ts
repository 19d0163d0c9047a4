/** Images through the cache: any text-to-image function, Stability AI, and visual question answering (any function, or a local transformers.js model). `langchain-semcache/images`. */
export { cachedTextToImage, type CachedTextToImage, type CachedTextToImageOptions, type ImageBytes, type TextToImageFunction, type TextToImageResult } from "./text-to-image.js";
export {
  cachedStability,
  DEFAULT_STABILITY_URL,
  type CachedStability,
  type CachedStabilityOptions,
  type StabilityGenerateParams,
  type StabilityService,
  type StabilityTextPrompt,
  type StabilityV1TextToImageBody,
} from "./stability.js";
export { cachedVisualQuestionAnswering, type CachedVisualQuestion, type CachedVisualQuestionOptions, type VisualAnswer, type VisualQuestionFunction } from "./visual-question.js";
export {
  transformersVisualQuestionAnswering,
  type TransformersVisualQuestion,
  type TransformersVisualQuestionOptions,
  type TransformersVisualQuestionSettings,
} from "./transformers-visual-question.js";
export { dataUrlOf, type ImageInput, type ResolvedImage } from "./image-input.js";
export type { CachedImages, GeneratedImages } from "./image-generation.js";
export type { CachedImage, GeneratedImage, ImageResponseFormat } from "./image-store.js";
export type { CacheSettings, CallOptions, ImageCallOptions } from "./call-options.js";
export { ModelServerError } from "../local-models/model-server.js";
export type { OpenAIHitMarker as HitMarker } from "../openai/types.js";
