/** What every route shares: the caches, the settings, who is calling, the metrics. */
import type { Cache } from "../presets/cache.js";
import type { Access, Authenticator, Caller } from "./auth.js";
import type { CacheService } from "./cache-service.js";
import type { DashboardStats } from "./dashboard/dashboard-stats.js";
import type { Metrics } from "./metrics.js";
import type { NamespaceStats } from "./namespace-stats.js";
import type { ServerSettings } from "./server-config.js";

export interface ServerState {
  /** The cache /put, /get and the proxy answer from. */
  cache: Cache;
  /** The cache operations of the JSON routes, over `cache`. */
  service: CacheService;
  /** The exact-match cache of `PUT/GET /?prompt=` (same store, own partition); set once the app is ready. */
  mapCache: Cache;
  settings: ServerSettings;
  auth: Authenticator;
  metrics: Metrics;
  /** Lookups per namespace: what a key working in one namespace reads from /stats and /metrics. */
  namespaceStats: NamespaceStats;
  /** Lookups over time per namespace, for /dashboard (bounded rings). */
  dashboard: DashboardStats;
  /** True once the app is closing: new requests get 503. */
  closing: boolean;
}

declare module "fastify" {
  interface FastifyInstance {
    semcache: ServerState;
  }
  interface FastifyRequest {
    /** Set by the auth hook on every routed request. */
    caller: Caller;
  }
  interface FastifyContextConfig {
    /** Who may call the route (see Access); unset = public. */
    access?: Access;
  }
}
