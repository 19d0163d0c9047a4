/**
 * The HTTP server as a Fastify app: `buildServer(options)` returns it, never listening (`semcache serve`
 * calls `listen`; `app.inject` works as on any Fastify app). Every route has a schema (validation,
 * serialisation and the OpenAPI page at /docs at once); every failure answers `{ error: { code, message } }`.
 */
import swagger from "@fastify/swagger";
import swaggerUi from "@fastify/swagger-ui";
import Fastify, { LogController, type FastifyInstance, type FastifyServerOptions } from "fastify";
import type { Cache } from "../presets/cache.js";
import { NotInitError, ValidationError } from "../core/errors.js";
import { packageVersion } from "../core/package-version.js";
import { Authenticator, type Caller } from "./auth.js";
import { handleClientError, handleError } from "./errors.js";
import { installHooks } from "./hooks.js";
import { installJsonParser } from "./json-body.js";
import { installHostGuard } from "./loopback-host.js";
import { Metrics } from "./metrics.js";
import { NamespaceStats } from "./namespace-stats.js";
import { cacheRoutes } from "./routes/cache.js";
import { chatRoutes } from "./routes/chat.js";
import { mapRoutes } from "./routes/map.js";
import { opsRoutes } from "./routes/ops.js";
import { CacheService } from "./cache-service.js";
import { dashboardFile, persistDashboard } from "./dashboard/dashboard-file.js";
import { DashboardStats } from "./dashboard/dashboard-stats.js";
import { dashboardRoutes } from "./routes/dashboard.js";
import { createMapCache } from "./server-cache.js";
import { resolveServerSettings, type ServerSection, type ServerSettings } from "./server-config.js";
import type { ServerState } from "./state.js";

export interface BuildServerOptions {
  /** The cache to serve, initialised (e.g. `initSimilarCache({ cache: new Cache() })`). */
  cache: Cache;
  /** The `server` section: keys, namespaces, upstream, limits (host and port are the caller's business). */
  settings?: ServerSection;
  /** Environment for `key_env`, `api_key_env`, OPENAI_API_KEY and OPENAI_BASE_URL. Default process.env. */
  env?: NodeJS.ProcessEnv;
  /** Fastify's logger option. Default off. */
  logger?: FastifyServerOptions["logger"];
  /** Log every request (Fastify's request logging). Default false. */
  logRequests?: boolean;
  /** Flush and close the cache when the app closes. Default false (the cache is the caller's). */
  closeCache?: boolean;
  /**
   * Serve the API page at /docs (and the OpenAPI JSON at /docs/json). Default true. The OpenAPI object is
   * available either way as `app.swagger()`.
   */
  docs?: boolean;
  /** The dashboard's clock, milliseconds since the epoch (tests pass their own). Default Date.now. */
  now?: () => number;
}

/** The namespaces the settings name (keys' and server.namespaces): their lookups are always counted. */
function configuredNamespaces(settings: ServerSettings): string[] {
  const bound = [...settings.keys.values()].flatMap((key) => (key.namespace === undefined ? [] : [key.namespace]));
  return [...bound, ...(settings.namespaces ?? [])];
}

/** The package's version, for the OpenAPI description. */
const VERSION = packageVersion();

/** Node's HTTP server settings for the limits: slow clients are cut off after requestTimeoutMs. */
function httpOptions(settings: ServerSettings) {
  const { requestTimeoutMs } = settings.limits;
  return {
    headersTimeout: Math.min(60_000, requestTimeoutMs),
    // How often Node checks for timed-out requests (its default, 30 s, would double a short timeout).
    connectionsCheckingInterval: Math.max(50, Math.min(30_000, Math.floor(requestTimeoutMs / 4))),
  };
}

export function buildServer(options: BuildServerOptions): FastifyInstance {
  const { cache } = options ?? {};
  if (!cache || typeof cache !== "object") throw new ValidationError("buildServer needs an initialised `cache`.");
  if (!cache.initialized) throw new NotInitError("buildServer needs an initialised `cache`: call `await cache.init(...)` (or initSimilarCache) first.");
  const settings = resolveServerSettings(options.settings, options.env);

  const app = Fastify({
    logger: options.logger ?? false,
    logController: new LogController({ disableRequestLogging: !options.logRequests }),
    bodyLimit: settings.limits.bodyLimit,
    requestTimeout: settings.limits.requestTimeoutMs,
    keepAliveTimeout: settings.limits.keepAliveTimeoutMs,
    http: httpOptions(settings),
    return503OnClosing: false,
    clientErrorHandler: handleClientError,
    // A URL Fastify cannot decode never reaches the error handler otherwise.
    frameworkErrors: handleError,
    // Wrong types are refused, not coerced; unknown fields are refused, not dropped.
    ajv: { customOptions: { coerceTypes: false, removeAdditional: false, allErrors: false } },
  });

  const state: ServerState = {
    cache,
    service: new CacheService(cache),
    mapCache: undefined as unknown as Cache,
    settings,
    auth: new Authenticator(settings),
    metrics: new Metrics(),
    namespaceStats: new NamespaceStats(configuredNamespaces(settings)),
    dashboard: new DashboardStats({ namespaces: configuredNamespaces(settings), prices: settings.prices, now: options.now }),
    closing: false,
  };
  app.decorate("semcache", state);
  app.decorateRequest("caller", null as unknown as Caller);

  app.setErrorHandler(handleError);
  installHostGuard(app, settings);
  installJsonParser(app);
  installHooks(app, state);
  const savedDashboard = dashboardFile(cache.dataManager.storeInfo());
  if (savedDashboard !== undefined) persistDashboard(app, state.dashboard, savedDashboard);
  if (options.closeCache) app.addHook("onClose", async () => cache.close());

  void app.register(swagger, {
    openapi: {
      info: {
        title: "langchain-semcache server",
        version: VERSION,
        description: "A semantic cache for LLM calls over HTTP: GPTCache's routes, a plain map, and an OpenAI-compatible proxy.",
      },
      components: { securitySchemes: { bearer: { type: "http", scheme: "bearer" } } },
    },
  });
  if (options.docs !== false) void app.register(swaggerUi, { routePrefix: "/docs" });
  void app.register(async (routes) => {
    state.mapCache = await createMapCache(cache);
    cacheRoutes(routes);
    opsRoutes(routes);
    dashboardRoutes(routes);
    chatRoutes(routes);
    await routes.register(mapRoutes);
  });
  return app;
}
