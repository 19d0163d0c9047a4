/**
 * GET /dashboard: a page served by the server itself (its script and styles at /dashboard/app.js and
 * /dashboard/app.css), polling GET /dashboard/data: one namespace's figures over a time window, or every
 * namespace's for a caller who sees them all. The page and its assets hold no data and are public; the data
 * follows the server's keys as /stats does: a tenant's key reads its own namespace only.
 */
import type { FastifyInstance } from "fastify";
import { ValidationError } from "../../core/errors.js";
import { seesEveryNamespace } from "../auth.js";
import { buildView, DEFAULT_WINDOW, WINDOW_NAMES, type WindowName } from "../dashboard/dashboard-view.js";
import { PAGE_CSP, PAGE_CSS, PAGE_HTML } from "../dashboard/page.js";
import { PAGE_SCRIPT } from "../dashboard/page-script.js";
import { HttpProblem } from "../errors.js";
import { errorBudgetOf } from "../metrics.js";
import { isNamespaceName } from "../server-config.js";
import { errorResponses, security } from "./cache.js";
import { errorBudgetSchema } from "./error-budget-schema.js";
import { outcomeCountsProperties } from "./outcome-counts-schema.js";

const counts = { type: "array", items: { type: "number" } } as const;
const latency = { type: "object", properties: { count: { type: "integer" }, p50Ms: { type: "number" }, p90Ms: { type: "number" }, p99Ms: { type: "number" } } } as const;
const text = { type: "string" } as const;

const dataSchema = {
  type: "object",
  properties: {
    namespace: { type: "string", nullable: true, description: "The namespace shown (\"\": the shared default); null: every namespace together." },
    namespaces: { type: "array", items: text, description: "Namespaces with figures, for a caller who sees every namespace only." },
    window: { type: "object", properties: { name: text, seconds: { type: "integer" }, bucketSeconds: { type: "integer" }, endMs: { type: "number" } } },
    totals: {
      type: "object",
      properties: {
        ...outcomeCountsProperties,
        hitRate: { type: "number" },
        mapRequests: { type: "integer" },
        mapHits: { type: "integer" },
        savedOutputTokens: { type: "number", description: "Answer characters / 4 of the hits (as /stats' savedTokens)." },
        savedInputTokens: { type: "number", description: "Prompt characters / 4 of the hits." },
        savedCost: { type: "number", description: "The saved tokens priced by server.prices (0 without a price table)." },
      },
    },
    series: { type: "object", description: "One point per bucket, oldest first.", properties: { startMs: counts, requests: counts, hits: counts, misses: counts, skips: counts } },
    latency: { type: "object", description: "Milliseconds to answer hits and misses, percentiles read from histogram bins.", properties: { hit: latency, miss: latency } },
    scores: {
      type: "object",
      properties: {
        threshold: { type: "number" },
        binWidth: { type: "number" },
        hits: { ...counts, description: "Hits' judge scores, counted per bin." },
        nearestMisses: { ...counts, description: "Each miss's nearest candidate's score, counted per bin (when the cache reports it)." },
        whatIf: { type: "array", items: { type: "object", properties: { threshold: { type: "number" }, hits: { type: "integer" }, hitRate: { type: "number" } } } },
      },
    },
    frequentQuestions: { type: "array", items: { type: "object", properties: { question: text, count: { type: "integer" }, error: { type: "integer" }, namespace: text } } },
    recentMisses: { type: "array", items: { type: "object", properties: { question: text, score: { type: "number" }, at: { type: "number" }, namespace: text } } },
    pricesConfigured: { type: "boolean" },
    uptimeSeconds: { type: "number" },
    generatedAt: { type: "number" },
    errorBudget: errorBudgetSchema,
  },
} as const;

const hidden = { hide: true } as const;

export function dashboardRoutes(app: FastifyInstance): void {
  const state = app.semcache;
  const startedMs = Date.now();

  app.get(
    "/dashboard",
    {
      schema: {
        summary: "The dashboard page",
        description: "An HTML page polling /dashboard/data; served by this server, nothing loaded from elsewhere. With API keys it asks for one.",
        tags: ["ops"],
        response: { 200: { description: "text/html", type: "string" } },
      },
    },
    async (_request, reply) => reply.type("text/html; charset=utf-8").header("content-security-policy", PAGE_CSP).header("cache-control", "no-cache").send(PAGE_HTML),
  );
  app.get("/dashboard/app.js", { schema: hidden }, async (_request, reply) => reply.type("text/javascript; charset=utf-8").header("cache-control", "no-cache").send(PAGE_SCRIPT));
  app.get("/dashboard/app.css", { schema: hidden }, async (_request, reply) => reply.type("text/css; charset=utf-8").header("cache-control", "no-cache").send(PAGE_CSS));

  app.get<{ Querystring: { window?: WindowName; namespace?: string } }>(
    "/dashboard/data",
    {
      config: { access: "read" },
      schema: {
        summary: "The dashboard's figures",
        description:
          "Lookups over a time window (15m, 1h, 24h, 7d): requests, hits, misses and skips per bucket, estimated tokens and cost saved, hit and " +
          "miss latency percentiles, judge-score histograms with the hits other thresholds would give, the most frequent questions and the " +
          "latest misses. A key working in one namespace gets that namespace's; an admin key bound to none (or any caller with no keys) gets " +
          "every namespace's together, or one namespace's with `namespace` (\"\" for the shared default), and the error budget's figures.",
        tags: ["ops"],
        security,
        querystring: {
          type: "object",
          additionalProperties: false,
          properties: {
            window: { type: "string", enum: WINDOW_NAMES, default: DEFAULT_WINDOW },
            namespace: { type: "string", maxLength: 128 },
          },
        },
        response: { 200: dataSchema, ...errorResponses },
      },
    },
    async (request) => {
      const { caller } = request;
      const asked = request.query.namespace;
      const dashboard = state.dashboard;
      const everything = seesEveryNamespace(caller);
      if (asked !== undefined && asked !== "" && !isNamespaceName(asked)) {
        throw new ValidationError("namespace must be a namespace name (letters, digits, _ . : -, at most 128), or empty for the shared default.");
      }
      if (!everything && asked !== undefined && asked !== (caller.namespace ?? "")) {
        throw new HttpProblem("SEMCACHE_FORBIDDEN", "This key sees its own namespace only.");
      }
      const namespace = everything ? asked : (caller.namespace ?? "");
      const own = namespace === undefined ? undefined : dashboard.of(namespace);
      const sources = namespace === undefined ? dashboard.all() : own ? [[namespace, own] as [string, typeof own]] : [];
      const view = buildView(namespace ?? null, sources, {
        window: request.query.window ?? DEFAULT_WINDOW,
        nowMs: dashboard.now(),
        threshold: state.cache.config.similarityThreshold,
        pricesConfigured: dashboard.prices.configured,
        uptimeSeconds: (Date.now() - startedMs) / 1000,
      });
      if (!everything) return view;
      return { ...view, namespaces: dashboard.namespaces(), errorBudget: errorBudgetOf(state.cache) };
    },
  );
}
