/** LangChain v1 agents (`langchain`'s createAgent): `langchain-semcache/agents`. */
export { semanticCacheMiddleware, type SemanticCacheMiddleware, type SemanticCacheMiddlewareOptions, type AgentShape } from "./semantic-cache-middleware.js";
