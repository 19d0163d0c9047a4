/** LangChain surfaces: `langchain-semcache/langchain` (also re-exported from the package root). */
export { SemanticCache, llmKeyPartition, type SemanticCacheOptions, type CacheHitMarker } from "./semantic-cache.js";
export { lastHumanTurn, fullPrompt } from "./prompt-key.js";
export { sanitizeLlmKey, withoutSecrets, parseLlmKey } from "./secrets.js";
