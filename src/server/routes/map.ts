/**
 * The plain map cache: `PUT /?prompt=P` stores the body (any content type, read as UTF-8 text) as the answer,
 * `GET /?prompt=P` answers it as text, or 404. Exact match only, in its own partition of the store.
 */
import type { FastifyInstance } from "fastify";
import { get, put } from "../../core/api.js";
import { ValidationError } from "../../core/errors.js";
import { checkStorableText } from "../cache-service.js";
import { HttpProblem } from "../errors.js";
import { mapFields } from "../server-cache.js";
import { errorResponses, security } from "./cache.js";

const querystring = {
  type: "object",
  required: ["prompt"],
  properties: { prompt: { type: "string", minLength: 1 } },
} as const;

/** Registered as its own plugin: its body parser (every content type as text) applies to these routes only. */
export async function mapRoutes(app: FastifyInstance): Promise<void> {
  const state = app.semcache;
  app.removeAllContentTypeParsers();
  app.addContentTypeParser("*", { parseAs: "string" }, (_request, body, done) => done(null, body));

  app.put<{ Querystring: { prompt: string }; Body: string }>(
    "/",
    {
      config: { access: "write" },
      schema: {
        summary: "Store a text answer in the plain map",
        description: "The body, of any content type, is read as UTF-8 text. Exact match only; never embedded.",
        tags: ["map"],
        security,
        querystring,
        response: { 200: { type: "object", properties: { ok: { type: "boolean" } } }, ...errorResponses },
      },
    },
    async (request) => {
      const { prompt } = request.query;
      const answer = typeof request.body === "string" ? request.body : "";
      if (answer.length === 0) throw new ValidationError("The body (the answer) is empty.");
      state.service.checkPrompt(prompt);
      checkStorableText("The body (the answer)", answer);
      await put(prompt, answer, { cacheObj: state.mapCache, partition: mapFields(request.caller.namespace) });
      return { ok: true };
    },
  );

  app.get<{ Querystring: { prompt: string } }>(
    "/",
    {
      config: { access: "read" },
      schema: {
        summary: "Read a text answer from the plain map",
        description: "200 with the answer as text/plain, 404 when the prompt was never stored.",
        tags: ["map"],
        security,
        querystring,
        response: { 200: { description: "the answer", type: "string" }, ...errorResponses },
      },
    },
    async (request, reply) => {
      const { prompt } = request.query;
      state.service.checkPrompt(prompt);
      const started = performance.now();
      const answer = await get(prompt, { cacheObj: state.mapCache, partition: mapFields(request.caller.namespace) });
      state.namespaceStats.record(request.caller.namespace, "map", answer === null ? "MISS" : "HIT");
      state.dashboard.lookup(request.caller.namespace, "map", answer === null ? "MISS" : "HIT", performance.now() - started);
      if (answer === null) throw new HttpProblem("SEMCACHE_NOT_FOUND", "No answer is stored for this prompt.");
      return reply.type("text/plain; charset=utf-8").send(answer);
    },
  );
}
