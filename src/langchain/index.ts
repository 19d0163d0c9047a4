/** LangChain surfaces: `langchain-semcache/langchain`. */
export { SemanticCache, llmKeyPartition, type SemanticCacheOptions, type CacheHitMarker } from "./semantic-cache.js";
export { lastHumanTurn, fullPrompt } from "./prompt-key.js";
export { sanitizeLlmKey, withoutSecrets, parseLlmKey } from "./secrets.js";
export { CachedChatModel, type CachedChatModelCallOptions, type CachedChatModelFields } from "./cached-chat-model.js";
export { CachedLLM, type CachedLLMCallOptions, type CachedLLMFields } from "./cached-llm.js";
export type { CacheCallOptions } from "./call-options.js";
export type { SemcacheMarker } from "./messages.js";
export type { WarmPair } from "./warm.js";
