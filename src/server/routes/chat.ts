/**
 * POST /v1/chat/completions: an OpenAI-compatible proxy with the cache in front. Any OpenAI client pointed
 * at http://host:port/v1 works. Streams are SSE in the provider's chunk shapes ending `data: [DONE]`, hits
 * included. Cache-Control: no-cache (skip the lookup, still store), no-store, max-age=N; responses carry
 * x-semcache: HIT|MISS|SKIP, x-semcache-score and Age on hits.
 *
 * Who shares an answer: with server API keys, every caller of the namespace. Without them, by default
 * (`proxy_cache_scope: credential`) only callers presenting the same upstream credential: the entry's
 * partition holds an HMAC of the key sent upstream, so a caller the upstream would refuse (a wrong key, or
 * none) only ever meets entries its own credential stored, and a refused call stores nothing.
 *
 * The system messages and earlier turns partition answers too, unless `proxy_share_across_contexts` (or a
 * body's `share_across_contexts`) says answers are shared across contexts.
 */
import { Readable } from "node:stream";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { cachedChatCompletion, type CachedChatBody } from "../../adapters/openai/chat.js";
import type { Cache } from "../../presets/cache.js";
import { Config, type ConfigOptions } from "../../core/config.js";
import { ValidationError } from "../../core/errors.js";
import type { CacheOutcome, FlowOptions } from "../../core/pipeline.js";
import { bearerToken } from "../auth.js";
import { describeError, HttpProblem } from "../errors.js";
import { NAMESPACE_KEY } from "../server-cache.js";
import type { ServerState } from "../state.js";
import { credentialSecret, CredentialDigester, CREDENTIAL_KEY } from "../credential.js";
import { postJson, postStream, UpstreamStatusError, type UpstreamCall } from "../upstream.js";
import { errorResponses, security } from "./cache.js";

/** Headers an OpenAI client may send that the upstream should see too. */
const FORWARDED = ["openai-organization", "openai-project"];

/** Cache-Control request directives as the flow's options: no-cache = skip the lookup, no-store, max-age=N. */
export function cacheControlOptions(header: string | string[] | undefined): FlowOptions {
  const options: FlowOptions = {};
  for (const directive of [header ?? []].flat().join(",").split(",")) {
    const [name, value] = directive.trim().toLowerCase().split("=", 2);
    if (name === "no-cache") options.cacheSkip = true;
    else if (name === "no-store") options.noStore = true;
    else if (name === "max-age") {
      const seconds = Number(value?.replace(/^"|"$/g, ""));
      if (value === undefined || !Number.isInteger(seconds) || seconds < 0) {
        throw new ValidationError(`Cache-Control max-age must be a whole number of seconds, got "${value ?? ""}".`);
      }
      options.maxAgeSeconds = seconds;
    }
  }
  return options;
}

/** The key sent upstream: the configured one replaces the caller's; a caller's own key only when the server has none of its own keys. */
function upstreamKey(state: ServerState, request: FastifyRequest): string | undefined {
  const { upstream } = state.settings;
  if (upstream.replacesCallerKey || request.caller.authenticated) return upstream.apiKey;
  return bearerToken(request.headers.authorization) ?? upstream.apiKey;
}

/**
 * What digests callers' upstream credentials, when they partition the proxy's answers: not with server API
 * keys (callers authenticate to this server, and the namespace partitions), nor in `shared` scope. Adds the
 * digest's field to the cache's partition keys (a key no other request sets changes no other partition).
 */
function credentialDigester(state: ServerState, log: FastifyInstance["log"]): CredentialDigester | undefined {
  if (state.settings.keys.size > 0 || state.settings.proxy.cacheScope !== "credential") return undefined;
  const { secret } = credentialSecret(state.settings.proxy.credentialSecret, state.cache.dataManager.storeInfo(), { warn: (message) => log.warn(message) });
  ensurePartitionKey(state.cache, CREDENTIAL_KEY);
  return new CredentialDigester(secret);
}

function ensurePartitionKey(cache: Cache, key: string): void {
  const keys = cache.config.partitionKeys;
  if (keys.includes(key)) return;
  // A Config's fields are its options (as ensureNamespaceKey does).
  cache.config = new Config({ ...(cache.config as unknown as ConfigOptions), partitionKeys: [...keys, key] });
}

function setOutcomeHeaders(reply: FastifyReply, outcome: CacheOutcome): void {
  void reply.header("x-semcache", outcome.status);
  if (outcome.status !== "HIT") return;
  if (outcome.score !== undefined) void reply.header("x-semcache-score", outcome.score.toFixed(4));
  if (outcome.ageSeconds !== undefined) void reply.header("age", String(Math.floor(outcome.ageSeconds)));
}

/** The text of a message's content (a string, or the text parts of a list); undefined when it has none. */
function contentText(content: unknown): string | undefined {
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return undefined;
  const parts = content.flatMap((part) => (typeof (part as { text?: unknown })?.text === "string" ? [(part as { text: string }).text] : []));
  return parts.length > 0 ? parts.join("\n") : undefined;
}

/** The characters of every message's text: what a hit spared the model reading. */
function promptChars(messages: unknown): number {
  let chars = 0;
  if (Array.isArray(messages)) for (const message of messages) chars += contentText((message as { content?: unknown })?.content)?.length ?? 0;
  return chars;
}

/** The text a chunk or a completion carries (its first choice's). */
function answerText(result: unknown): string {
  const choice = (result as { choices?: Array<{ message?: { content?: unknown }; delta?: { content?: unknown } }> })?.choices?.[0];
  const content = choice?.message?.content ?? choice?.delta?.content;
  return typeof content === "string" ? content : "";
}

/**
 * Chunks as SSE; a failure mid-stream becomes an `error` event (OpenAI's SDK raises it), and no [DONE].
 * `onText`, when given, hears the characters of the text the stream carried once it ends normally.
 */
async function* sse(chunks: AsyncIterable<unknown>, request: FastifyRequest, onText?: (chars: number) => void): AsyncGenerator<string> {
  let chars = 0;
  try {
    for await (const chunk of chunks) {
      if (onText) chars += answerText(chunk).length;
      yield `data: ${JSON.stringify(chunk)}\n\n`;
    }
    onText?.(chars);
  } catch (error) {
    const { status, body } = describeError(error);
    if (status >= 500) request.log.error({ err: error }, "the proxied stream failed");
    yield `data: ${JSON.stringify({ error: { ...body.error, type: "server_error" } })}\n\n`;
    return;
  }
  yield "data: [DONE]\n\n";
}

export function chatRoutes(app: FastifyInstance): void {
  const state = app.semcache;
  const digester = credentialDigester(state, app.log);

  app.post<{ Body: Record<string, unknown> }>(
    "/v1/chat/completions",
    {
      config: { access: "read" },
      schema: {
        summary: "OpenAI-compatible chat completions, cached",
        description:
          "The OpenAI chat completions API with the cache in front. Cache-Control: no-cache (skip the lookup, still store), no-store, max-age=N; " +
          "x-semcache-namespace picks a namespace. Without server API keys, answers are shared only by callers sending the same upstream key " +
          "(server.proxy_cache_scope). The answer carries x-semcache: HIT|MISS|SKIP, and on hits x-semcache-score and Age.",
        tags: ["proxy"],
        security,
        body: {
          type: "object",
          required: ["model", "messages"],
          properties: {
            model: { type: "string", minLength: 1 },
            messages: { type: "array", minItems: 1, items: { type: "object", required: ["role"], properties: { role: { type: "string" } } } },
            stream: { type: "boolean" },
          },
        },
        response: errorResponses,
      },
    },
    async (request, reply) => {
      const controller = new AbortController();
      // The client went away before the answer was complete: stop the upstream call (and do not store).
      reply.raw.on("close", () => {
        if (!reply.raw.writableFinished) controller.abort();
      });
      const call: UpstreamCall = {
        baseURL: state.settings.upstream.baseURL,
        apiKey: upstreamKey(state, request),
        headers: Object.fromEntries(FORWARDED.flatMap((name) => (typeof request.headers[name] === "string" ? [[name, request.headers[name] as string]] : []))),
        timeoutMs: state.settings.upstream.timeoutMs,
        signal: controller.signal,
      };
      // The namespace (and, unless the caller authenticated to us, the upstream credential's digest) partition
      // the entry; the caller can set neither through the body.
      const credential = digester && !request.caller.authenticated ? digester.digest(call) : undefined;
      const body = { ...request.body, [NAMESPACE_KEY]: request.caller.namespace, [CREDENTIAL_KEY]: credential } as unknown as CachedChatBody;
      let answer: Awaited<ReturnType<typeof cachedChatCompletion>>;
      const started = performance.now();
      try {
        answer = await cachedChatCompletion(state.cache, body, {
          upstream: (sent, signal) => {
            const { [NAMESPACE_KEY]: _namespace, [CREDENTIAL_KEY]: _credential, ...upstreamBody } = sent as unknown as Record<string, unknown>;
            const callWith = { ...call, signal: signal ?? call.signal };
            return (upstreamBody.stream === true ? postStream("/chat/completions", upstreamBody, callWith) : postJson("/chat/completions", upstreamBody, callWith)) as never;
          },
          signal: controller.signal,
          cacheOptions: cacheControlOptions(request.headers["cache-control"]),
          shareAcrossContexts: state.settings.proxy.shareAcrossContexts,
        });
      } catch (error) {
        if (!(error instanceof UpstreamStatusError)) throw error;
        return reply.code(error.status).headers(error.headers).send(error.body);
      }
      const { result, outcome } = answer;
      const { namespace } = request.caller;
      const { messages, model } = request.body;
      state.metrics.observeProxy(outcome.status);
      state.namespaceStats.record(namespace, "main", outcome.status);
      const dashboard = state.dashboard;
      dashboard.lookup(namespace, "main", outcome.status, performance.now() - started, outcome.score, Array.isArray(messages) ? contentText(messages.at(-1)?.content) : undefined);
      setOutcomeHeaders(reply, outcome);
      if (result === null) throw new HttpProblem("SEMCACHE_NOT_FOUND", "search_only: no cached answer for this request.");
      // A hit's savings: the prompt it spared the model, and the answer (a stream's once it has ended).
      const saved =
        outcome.status === "HIT" ? (chars: number) => dashboard.saved(namespace, promptChars(messages), chars, typeof model === "string" ? model : undefined) : undefined;
      if (typeof (result as AsyncIterable<unknown>)[Symbol.asyncIterator] !== "function") {
        saved?.(answerText(result).length);
        return reply.type("application/json").send(result);
      }
      void reply.type("text/event-stream").header("cache-control", "no-cache");
      return reply.send(Readable.from(sse(result as AsyncIterable<unknown>, request, saved)));
    },
  );
}
