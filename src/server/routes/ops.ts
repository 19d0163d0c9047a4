/**
 * Operations: GET /healthz (liveness and readiness), /stats (the caches' reports as JSON), /metrics
 * (Prometheus). The caches' reports and the store's count add up every namespace, so only a caller who sees
 * every namespace reads them; a key working in one namespace reads that namespace's lookups.
 */
import type { FastifyInstance } from "fastify";
import { seesEveryNamespace } from "../auth.js";
import { renderNamespace } from "../metrics.js";
import { errorResponses, security } from "./cache.js";
import { errorBudgetSchema } from "./error-budget-schema.js";
import { outcomeCountsProperties } from "./outcome-counts-schema.js";

const stageSchema = { type: "object", properties: { count: { type: "integer" }, totalMs: { type: "number" }, averageMs: { type: "number" } } } as const;
const reportSchema = {
  type: "object",
  properties: {
    ...outcomeCountsProperties,
    errors: { type: "integer" },
    savesSkipped: { type: "integer" },
    savedTokens: { type: "integer" },
    stages: { type: "object", additionalProperties: stageSchema },
    errorBudget: errorBudgetSchema,
  },
} as const;

export function opsRoutes(app: FastifyInstance): void {
  const state = app.semcache;
  const started = Date.now();

  app.get(
    "/healthz",
    {
      schema: {
        summary: "Liveness and readiness",
        description: "200 once the cache is loaded (the server only listens then); 503 while shutting down.",
        tags: ["ops"],
        response: { 200: { type: "object", properties: { status: { type: "string" } } }, ...errorResponses },
      },
    },
    async () => ({ status: "ok" }),
  );

  app.get(
    "/stats",
    {
      config: { access: "read" },
      schema: {
        summary: "The caches' reports",
        description:
          "Counters and per-stage timings of the main cache (/put, /get, the proxy) and of the plain map, plus the live entries; " +
          "with an error budget in use, its figures under `cache.errorBudget`. " +
          "A key working in one namespace (bound to it, or not an admin) gets that namespace's lookups only: `namespace`, `cache` and `map` counts.",
        tags: ["ops"],
        security,
        response: {
          200: {
            type: "object",
            properties: {
              namespace: { type: "string" },
              entries: { type: "integer" },
              recordedHits: { type: "integer" },
              uptimeSeconds: { type: "number" },
              cache: reportSchema,
              map: reportSchema,
            },
          },
          ...errorResponses,
        },
      },
    },
    async (request) => {
      const uptimeSeconds = (Date.now() - started) / 1000;
      const { caller } = request;
      if (!seesEveryNamespace(caller)) {
        const counts = state.namespaceStats.of(caller.namespace);
        return { namespace: caller.namespace ?? "", uptimeSeconds, cache: counts.main, map: counts.map };
      }
      return { ...(await state.service.stats()), uptimeSeconds, map: state.mapCache.report.toJSON() };
    },
  );

  app.get(
    "/metrics",
    {
      config: { access: "read" },
      schema: {
        summary: "Prometheus metrics",
        description:
          "Text exposition format 0.0.4: requests, hits, misses, latency per stage and per route, entries, and the error budget's figures when one is in use. " +
          "A key working in one namespace gets that namespace's lookup counters only.",
        tags: ["ops"],
        security,
        response: { 200: { description: "text/plain; version=0.0.4", type: "string" }, ...errorResponses },
      },
    },
    async (request, reply) => {
      const { caller } = request;
      const text = seesEveryNamespace(caller)
        ? state.metrics.render({ main: state.cache, map: state.mapCache }, await state.cache.dataManager.count())
        : renderNamespace(caller.namespace, state.namespaceStats.of(caller.namespace));
      return reply.type("text/plain; version=0.0.4; charset=utf-8").send(text);
    },
  );
}
