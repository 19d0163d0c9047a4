/**
 * GPTCache's server routes: POST /put, /get, /flush; plus /import (many pairs, batch embedded), /clear
 * and /export (admin, the whole store). Each reads and writes the caller's namespace.
 */
import { Readable } from "node:stream";
import type { FastifyInstance } from "fastify";
import type { QuestionAnswer } from "../cache-service.js";
import { PARTITION_PATTERN } from "../../core/keys.js";
import { errorSchema, HttpProblem } from "../errors.js";

const text = { type: "string", minLength: 1 } as const;
const ok = { type: "object", required: ["ok"], properties: { ok: { type: "boolean", const: true } } } as const;
export const errorResponses = { "4xx": errorSchema, "5xx": errorSchema } as const;
export const security = [{ bearer: [] }];

export function cacheRoutes(app: FastifyInstance): void {
  // Read per request: the warm-up answers from a scratch cache's service.
  const state = app.semcache;

  app.post<{ Body: { prompt: string; answer: string } }>(
    "/put",
    {
      config: { access: "write" },
      schema: {
        summary: "Store an answer for a prompt",
        description: "The prompt is the key (embedded for semantic matching). 413 when the prompt or answer is longer than its column.",
        tags: ["cache"],
        security,
        body: { type: "object", required: ["prompt", "answer"], additionalProperties: false, properties: { prompt: text, answer: text } },
        response: { 200: ok, ...errorResponses },
      },
    },
    async (request) => {
      await state.service.put(request.body.prompt, request.body.answer, request.caller.namespace);
      return { ok: true };
    },
  );

  app.post<{ Body: { prompt: string } }>(
    "/get",
    {
      config: { access: "read" },
      schema: {
        summary: "Look up the answer for a prompt",
        description: "Exact key first, then the semantic search. `answer` is null on a miss.",
        tags: ["cache"],
        security,
        body: { type: "object", required: ["prompt"], additionalProperties: false, properties: { prompt: text } },
        response: {
          200: {
            type: "object",
            required: ["prompt", "answer"],
            properties: { prompt: { type: "string" }, answer: { type: "string", nullable: true } },
          },
          ...errorResponses,
        },
      },
    },
    async (request) => {
      const { prompt } = request.body;
      const { namespace } = request.caller;
      const started = performance.now();
      let score: number | undefined;
      const answer = await state.service.get(prompt, namespace, (outcome) => (score = outcome.score));
      const status = answer === null ? "MISS" : "HIT";
      state.namespaceStats.record(namespace, "main", status);
      state.dashboard.lookup(namespace, "main", status, performance.now() - started, score, prompt);
      if (answer !== null) state.dashboard.saved(namespace, prompt.length, answer.length);
      return { prompt, answer };
    },
  );

  app.post(
    "/flush",
    {
      config: { access: "write" },
      schema: {
        summary: "Make every write durable and visible to other replicas",
        description: "Writes buffered hit counts and report rows, purges deleted rows, saves file-backed indexes. It deletes nothing (see /clear).",
        tags: ["cache"],
        security,
        response: { 200: ok, ...errorResponses },
      },
    },
    async () => {
      await state.service.flush();
      return { ok: true };
    },
  );

  app.post(
    "/clear",
    {
      config: { access: "global" },
      schema: {
        summary: "Delete every entry of every namespace (admin)",
        description: "Needs an admin key bound to no namespace. Namespaces are partitions of one store, so a clear cannot be limited to one.",
        tags: ["admin"],
        security,
        response: { 200: ok, ...errorResponses },
      },
    },
    async () => {
      await state.service.clear();
      state.dashboard.forgetQuestions();
      return { ok: true };
    },
  );

  app.post<{ Body: { pairs: QuestionAnswer[] } }>(
    "/import",
    {
      config: { access: "write" },
      schema: {
        summary: "Store many question/answer pairs at once",
        description:
          "Embedded in batches and written in one transaction: a too-long value writes nothing (413). A pair's `partition` (from " +
          "/export) restores it into that partition, which names its own namespace: admin only, without a namespace.",
        tags: ["cache"],
        security,
        body: {
          type: "object",
          required: ["pairs"],
          additionalProperties: false,
          properties: {
            pairs: {
              type: "array",
              minItems: 1,
              items: {
                type: "object",
                required: ["question", "answer"],
                additionalProperties: false,
                properties: { question: text, answer: text, partition: { type: "string", pattern: PARTITION_PATTERN } },
              },
            },
          },
        },
        response: { 200: { type: "object", required: ["imported"], properties: { imported: { type: "integer" } } }, ...errorResponses },
      },
    },
    async (request) => {
      const { pairs } = request.body;
      // A partition names a namespace: restoring one is writing into any namespace.
      if (!request.caller.admin && pairs.some((pair) => pair.partition)) {
        throw new HttpProblem("SEMCACHE_FORBIDDEN", "Restoring exported partitions takes an admin key.");
      }
      return { imported: await state.service.importPairs(pairs, request.caller.namespace) };
    },
  );

  app.get(
    "/export",
    {
      config: { access: "global" },
      schema: {
        summary: "Every live entry as JSON Lines (admin)",
        description: "One `{question, answer, partition?, create_on, hit_count}` object a line, oldest first; `semcache import` reads it back.",
        tags: ["admin"],
        security,
        response: { 200: { description: "application/x-ndjson", type: "string" }, ...errorResponses },
      },
    },
    async (_request, reply) => {
      const lines = Readable.from(
        (async function* () {
          for await (const entry of state.service.entries()) yield `${JSON.stringify(entry)}\n`;
        })(),
      );
      return reply.type("application/x-ndjson").send(lines);
    },
  );
}
