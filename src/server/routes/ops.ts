/** Operations: GET /healthz (liveness and readiness), /stats (the caches' reports as JSON), /metrics (Prometheus). */
import type { FastifyInstance } from "fastify";
import { errorResponses, security } from "./cache.js";

const stageSchema = { type: "object", properties: { count: { type: "integer" }, totalMs: { type: "number" }, averageMs: { type: "number" } } } as const;
const reportSchema = {
  type: "object",
  properties: {
    requests: { type: "integer" },
    hits: { type: "integer" },
    misses: { type: "integer" },
    skips: { type: "integer" },
    errors: { type: "integer" },
    savesSkipped: { type: "integer" },
    savedTokens: { type: "integer" },
    stages: { type: "object", additionalProperties: stageSchema },
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
        description: "Counters and per-stage timings of the main cache (/put, /get, the proxy) and of the plain map, plus the live entries.",
        tags: ["ops"],
        security,
        response: {
          200: {
            type: "object",
            properties: { entries: { type: "integer" }, recordedHits: { type: "integer" }, uptimeSeconds: { type: "number" }, cache: reportSchema, map: reportSchema },
          },
          ...errorResponses,
        },
      },
    },
    async () => ({ ...(await state.service.stats()), uptimeSeconds: (Date.now() - started) / 1000, map: state.mapCache.report.toJSON() }),
  );

  app.get(
    "/metrics",
    {
      config: { access: "read" },
      schema: {
        summary: "Prometheus metrics",
        description: "Text exposition format 0.0.4: requests, hits, misses, latency per stage and per route, entries.",
        tags: ["ops"],
        security,
        response: { 200: { description: "text/plain; version=0.0.4", type: "string" }, ...errorResponses },
      },
    },
    async (_request, reply) => {
      const entries = await state.cache.dataManager.count();
      const text = state.metrics.render({ main: state.cache, map: state.mapCache }, entries);
      return reply.type("text/plain; version=0.0.4; charset=utf-8").send(text);
    },
  );
}
