import type { ServerResponse } from "node:http";
import { FakeHttpError, hashedEmbedding, startFakeServer, writeNdjson, type FakeRequest, type FakeServer } from "./http.js";
import { cutToLimit } from "./tokens.js";

export interface FakeOllamaOptions {
  /** Vector length (a request's `dimensions` overrides it, as in Ollama). Default 64. */
  dimension?: number;
  /** The vector for one text; return anything to test malformed responses, undefined for the default (a hashed bag of words). */
  vector?: (text: string, body: Record<string, unknown>) => unknown;
  /** Return an HTTP status to fail the request with Ollama's `{ error }` body. */
  fail?: (body: Record<string, unknown>, path: string) => number | undefined;
  /** The answer to a chat or generate request. Default: "Echo: " + the last user message (or the prompt). */
  reply?: (body: Record<string, unknown>, path: string) => string;
  /** Milliseconds between stream lines (to test aborts). */
  streamDelayMs?: number;
}

export interface FakeOllamaServer extends FakeServer {
  /** Chat and generate calls received (the "model calls" a cache should save). */
  modelCalls(): number;
}

function lastUserText(body: Record<string, unknown>): string {
  const messages = (body.messages as Array<{ role?: string; content?: unknown }> | undefined) ?? [];
  const last = [...messages].reverse().find((message) => message.role === "user") ?? messages[messages.length - 1];
  return typeof last?.content === "string" ? last.content : "";
}

/** Ollama reads a body as JSON whatever its content type (`fetch` sends a string as text/plain). */
function parseAnyway(body: Buffer): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(body.toString("utf8"));
    return typeof value === "object" && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

const defaultReply = (body: Record<string, unknown>, path: string) => `Echo: ${path === "/api/chat" ? lastUserText(body) : String(body.prompt ?? "")}`;

/**
 * A local server speaking Ollama's wire format, as Ollama 0.12 does and the `ollama` client (behind
 * `@langchain/ollama`) reads it (pass the server's `url` as `host` or `baseUrl`):
 *
 * - `POST /api/embed` with `{ model, input, truncate, dimensions, keep_alive, options }`; the answer is
 *   `{ model, embeddings, total_duration, load_duration, prompt_eval_count }`.
 * - `POST /api/chat` (`{ model, messages, stream, format, options, ... }`) and `POST /api/generate` (`{ model,
 *   prompt, ... }`): an echo of the last user message (or prompt), one answer (`{ model, created_at, message
 *   | response, done: true, done_reason, total_duration, ..., eval_count }`) or, unless `stream: false`, NDJSON
 *   lines a word each ending with a `done: true` line carrying `done_reason` and the counts. `options.num_predict`
 *   cuts the answer to that many words (`done_reason: "length"`); no messages (or prompt) loads the model
 *   (`done_reason: "load"`).
 * - Errors are `{ error }`, with Ollama's statuses (400 for a bad body).
 */
export async function startFakeOllama(options: FakeOllamaOptions = {}): Promise<FakeOllamaServer> {
  const dimension = options.dimension ?? 64;
  const reply = options.reply ?? defaultReply;

  function guard(request: FakeRequest): Record<string, unknown> & { model: string } {
    const body = request.json ?? parseAnyway(request.body);
    if (!body) throw new FakeHttpError(400, { error: "the request body must be JSON" });
    const status = options.fail?.(body, request.path);
    if (status !== undefined) throw new FakeHttpError(status, { error: `fake failure ${status}` });
    if (typeof body.model !== "string" || body.model.length === 0) throw new FakeHttpError(400, { error: "model is required" });
    return body as Record<string, unknown> & { model: string };
  }

  function embed(request: FakeRequest) {
    const body = guard(request);
    const inputs = typeof body.input === "string" ? [body.input] : body.input;
    if (!Array.isArray(inputs) || !inputs.every((text) => typeof text === "string")) {
      throw new FakeHttpError(400, { error: "invalid input type" });
    }
    const size = typeof body.dimensions === "number" ? body.dimensions : dimension;
    return {
      model: body.model,
      embeddings: inputs.map((text: string) => options.vector?.(text, body) ?? hashedEmbedding(text, size)),
      total_duration: 1_000_000,
      load_duration: 100_000,
      prompt_eval_count: inputs.reduce((sum: number, text: string) => sum + Math.ceil(text.length / 4), 0),
    };
  }

  /** Chat and generate: the same answer, in the line shape `wrap` gives a piece of text. */
  async function generation(
    request: FakeRequest,
    response: ServerResponse,
    wrap: (text: string) => Record<string, unknown>,
    asks: (body: Record<string, unknown>) => boolean,
  ) {
    const body = guard(request);
    const created_at = () => new Date().toISOString();
    if (!asks(body)) return { model: body.model, created_at: created_at(), ...wrap(""), done_reason: "load", done: true };
    const { tokens, cut } = cutToLimit(reply(body, request.path), (body.options as { num_predict?: unknown } | undefined)?.num_predict);
    const text = tokens.join("");
    const promptTokens = Math.ceil(JSON.stringify(body.messages ?? body.prompt ?? "").length / 4);
    const final = (content: string) => ({
      model: body.model,
      created_at: created_at(),
      ...wrap(content),
      done_reason: cut ? "length" : "stop",
      done: true,
      ...(request.path === "/api/generate" ? { context: [1, 2, 3] } : {}),
      total_duration: 5_000_000,
      load_duration: 1_000_000,
      prompt_eval_count: promptTokens,
      prompt_eval_duration: 1_000_000,
      eval_count: tokens.length,
      eval_duration: 3_000_000,
    });
    if (body.stream === false) return final(text);
    const lines = [...tokens.map((token) => ({ model: body.model, created_at: created_at(), ...wrap(token), done: false })), final("")];
    await writeNdjson(response, lines, { delayMs: options.streamDelayMs, signal: request.signal });
  }

  const server = await startFakeServer({
    "POST /api/embed": embed,
    "POST /api/chat": (request, response) =>
      generation(request, response, (content) => ({ message: { role: "assistant", content } }), (body) => Array.isArray(body.messages) && body.messages.length > 0),
    "POST /api/generate": (request, response) =>
      generation(request, response, (text) => ({ response: text }), (body) => typeof body.prompt === "string" && body.prompt.length > 0),
  });
  return { ...server, modelCalls: () => server.count("/api/chat") + server.count("/api/generate") };
}
