/** langchain-semcache/server: the HTTP server (a Fastify app) and its client. */
export { buildServer, type BuildServerOptions } from "./app.js";
export { CacheClient, isWholeCacheStats, type CacheClientOptions, type NamespaceStatsView } from "./client.js";
export { CacheService, type CacheStats, type ExportedEntry, type QuestionAnswer } from "./cache-service.js";
export { openServerCache, readConfigFile, ensureNamespaceKey, NAMESPACE_KEY, MAP_KEY, type ServerCacheOptions } from "./server-cache.js";
export {
  resolveServerSettings,
  readServerSection,
  isLoopback,
  isNamespaceName,
  DEFAULT_HOST,
  DEFAULT_PORT,
  DEFAULT_BODY_LIMIT,
  type ServerSection,
  type ServerSettings,
  type ApiKeyOptions,
  type UpstreamOptions,
  type LimitsOptions,
} from "./server-config.js";
export { SERVER_ERROR_CODES, HttpProblem, type ServerErrorCode, type ErrorBody } from "./errors.js";
export { cacheControlOptions } from "./routes/chat.js";
export { warmUp, type WarmUpRequest } from "./warm-up.js";
export { NAMESPACE_HEADER, type Access, type Caller } from "./auth.js";
export { WINDOW_NAMES, type DashboardData, type LatencySummary, type WindowName } from "./dashboard/dashboard-view.js";
export { type ModelPrice } from "./dashboard/prices.js";
