/** Locally run models through the cache: Ollama's HTTP API and llama.cpp's server. `langchain-semcache/local-models`. */
export { cachedOllama, DEFAULT_OLLAMA_HOST, type CachedOllama, type CachedOllamaOptions, type OllamaCallOptions } from "./ollama.js";
export { cachedOllamaChat } from "./ollama-chat.js";
export { cachedOllamaGenerate } from "./ollama-generate.js";
export type {
  CachedOllamaChatBody,
  CachedOllamaGenerateBody,
  OllamaChatRequest,
  OllamaChatResponse,
  OllamaChatUpstreamResult,
  OllamaGenerateRequest,
  OllamaGenerateResponse,
  OllamaGenerateUpstreamResult,
  OllamaMessage,
  OllamaMetrics,
  OllamaModelOptions,
} from "./ollama-types.js";
export { cachedLlamaCpp, DEFAULT_LLAMACPP_URL, type CachedLlamaCpp, type CachedLlamaCppOptions, type LlamaCppCallOptions } from "./llamacpp.js";
export {
  cachedLlamaCppCompletion,
  type CachedLlamaCppCompletionBody,
  type LlamaCppCompletionRequest,
  type LlamaCppCompletionResponse,
  type LlamaCppCompletionUpstreamResult,
  type LlamaCppStopType,
} from "./llamacpp-completion.js";
export { ModelServerError } from "./model-server.js";
export type { CachedCall, CacheBodyOptions, Marked, OpenAIHitMarker as HitMarker, UpstreamSettings } from "../openai/types.js";
export type { CacheOutcome, CacheStatus, FlowOptions } from "../../core/pipeline.js";
