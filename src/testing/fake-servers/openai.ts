import { createHash } from "node:crypto";
import type { ServerResponse } from "node:http";
import { FakeHttpError, hashedEmbedding, startFakeServer, writeSse, type FakeRequest, type FakeServer } from "./http.js";
import { mediaRoutes, type FakeMediaOptions } from "./openai-media.js";

/** What the fake model answers: text, or tool calls (OpenAI's `tool_calls` shape). */
export type FakeReply = string | { toolCalls: Array<{ id: string; name: string; arguments: string }> };

export interface FakeOpenAIOptions extends FakeMediaOptions {
  /** The answer to a chat or completion request. Default: "Echo: " + the last user message (or prompt). */
  reply?: (body: Record<string, unknown>) => FakeReply;
  /** Return an HTTP status to fail the request with an OpenAI error body. */
  fail?: (body: Record<string, unknown>, path: string) => number | undefined;
  /** Milliseconds between stream chunks (to test aborts). */
  streamDelayMs?: number;
  /** Length of the fake embeddings. Default 64. */
  embeddingDimension?: number;
}

export interface FakeOpenAIServer extends FakeServer {
  /** Base URL for SDK clients: http://127.0.0.1:PORT/v1 */
  readonly baseURL: string;
  /** Chat and completion calls received (the "model calls" a cache should save). */
  modelCalls(): number;
  /** Image generation, audio (transcription and translation) and moderation calls received. */
  mediaCalls(): number;
}

/** A content part as the fake reads it: text as is, an image as a short tag naming its content (vision answers differ per image). */
function partText(part: { type?: string; text?: string; image_url?: { url?: string } }): string {
  if (part.type !== "image_url") return part.text ?? "";
  return `[image ${createHash("sha256").update(String(part.image_url?.url)).digest("hex").slice(0, 8)}]`;
}

function lastUserText(body: Record<string, unknown>): string {
  const messages = (body.messages as Array<{ role: string; content: unknown }> | undefined) ?? [];
  const last = [...messages].reverse().find((m) => m.role === "user") ?? messages[messages.length - 1];
  const content = last?.content;
  if (typeof content === "string") return content;
  if (Array.isArray(content)) return content.map(partText).join(" ");
  return typeof body.prompt === "string" ? body.prompt : JSON.stringify(body.prompt ?? "");
}

const defaultReply = (body: Record<string, unknown>): FakeReply => `Echo: ${lastUserText(body)}`;

function words(text: string): string[] {
  return text.match(/\s*\S+\s*/g) ?? [text];
}

function usageOf(body: Record<string, unknown>, text: string) {
  const prompt = Math.ceil(JSON.stringify(body.messages ?? body.prompt ?? "").length / 4);
  const completion = Math.ceil(text.length / 4);
  return { prompt_tokens: prompt, completion_tokens: completion, total_tokens: prompt + completion };
}

/**
 * A local server speaking the OpenAI wire format (chat completions, completions and embeddings, streamed as
 * SSE ending `data: [DONE]`; image generation as url or b64_json, audio transcriptions and translations as
 * multipart uploads, moderations), so the real `openai` SDK and `@langchain/openai` run against it with no key.
 * Vision questions are answered per image: an image part reads as `[image <hash>]`.
 */
export async function startFakeOpenAI(options: FakeOpenAIOptions = {}): Promise<FakeOpenAIServer> {
  const reply = options.reply ?? defaultReply;
  const dimension = options.embeddingDimension ?? 64;
  let sequence = 0;

  function failIf(body: Record<string, unknown>, path: string): void {
    const status = options.fail?.(body, path);
    if (status !== undefined) {
      throw new FakeHttpError(status, { error: { message: `fake failure ${status}`, type: "server_error", code: String(status) } });
    }
  }

  function guard(request: FakeRequest): Record<string, unknown> {
    const body = request.json;
    if (!body) throw new FakeHttpError(400, { error: { message: "body must be JSON", type: "invalid_request_error" } });
    failIf(body, request.path);
    return body;
  }

  async function chat(request: FakeRequest, response: ServerResponse) {
    const body = guard(request);
    const answer = reply(body);
    const id = `chatcmpl-fake-${++sequence}`;
    const created = Math.floor(Date.now() / 1000);
    const model = String(body.model ?? "fake-model");
    const text = typeof answer === "string" ? answer : "";
    const toolCalls =
      typeof answer === "string"
        ? undefined
        : answer.toolCalls.map((call, index) => ({ index, id: call.id, type: "function", function: { name: call.name, arguments: call.arguments } }));
    const finish = toolCalls ? "tool_calls" : "stop";
    if (!body.stream) {
      return {
        id,
        object: "chat.completion",
        created,
        model,
        system_fingerprint: "fake",
        choices: [{ index: 0, message: { role: "assistant", content: toolCalls ? null : text, refusal: null, tool_calls: toolCalls }, logprobs: null, finish_reason: finish }],
        usage: usageOf(body, text),
      };
    }
    const chunk = (delta: object, finish_reason: string | null) => ({
      id,
      object: "chat.completion.chunk",
      created,
      model,
      system_fingerprint: "fake",
      choices: [{ index: 0, delta, logprobs: null, finish_reason }],
    });
    const events: object[] = [chunk({ role: "assistant", content: "" }, null)];
    if (toolCalls) events.push(chunk({ tool_calls: toolCalls }, null));
    for (const piece of words(text)) if (piece) events.push(chunk({ content: piece }, null));
    events.push(chunk({}, finish));
    if ((body.stream_options as { include_usage?: boolean } | undefined)?.include_usage) {
      events.push({ id, object: "chat.completion.chunk", created, model, choices: [], usage: usageOf(body, text) });
    }
    await writeSse(response, events, { delayMs: options.streamDelayMs, signal: request.signal });
  }

  async function completion(request: FakeRequest, response: ServerResponse) {
    const body = guard(request);
    const answer = reply(body);
    const text = typeof answer === "string" ? answer : "";
    const id = `cmpl-fake-${++sequence}`;
    const created = Math.floor(Date.now() / 1000);
    const model = String(body.model ?? "fake-model");
    const choice = (piece: string, finish: string | null) => ({ text: piece, index: 0, logprobs: null, finish_reason: finish });
    if (!body.stream) return { id, object: "text_completion", created, model, choices: [choice(text, "stop")], usage: usageOf(body, text) };
    const events = words(text).map((piece) => ({ id, object: "text_completion", created, model, choices: [choice(piece, null)] }));
    events.push({ id, object: "text_completion", created, model, choices: [choice("", "stop")] });
    await writeSse(response, events, { delayMs: options.streamDelayMs, signal: request.signal });
  }

  function embeddings(request: FakeRequest) {
    const body = guard(request);
    const inputs = Array.isArray(body.input) ? body.input : [body.input];
    const size = typeof body.dimensions === "number" ? body.dimensions : dimension;
    const data = inputs.map((input, index) => {
      const vector = hashedEmbedding(String(input), size);
      const embedding = body.encoding_format === "base64" ? Buffer.from(new Float32Array(vector).buffer).toString("base64") : vector;
      return { object: "embedding", index, embedding };
    });
    const tokens = inputs.reduce((sum: number, input) => sum + Math.ceil(String(input).length / 4), 0);
    return { object: "list", data, model: String(body.model ?? "fake-embedding"), usage: { prompt_tokens: tokens, total_tokens: tokens } };
  }

  let url = "";
  const server = await startFakeServer({
    "POST /v1/chat/completions": chat,
    "POST /v1/completions": completion,
    "POST /v1/embeddings": embeddings,
    ...mediaRoutes(options, { guard, failIf, baseUrl: () => url }),
  });
  url = server.url;
  const count = (...paths: string[]) => paths.reduce((sum, path) => sum + server.count(path), 0);
  return {
    ...server,
    baseURL: `${server.url}/v1`,
    modelCalls: () => count("/v1/chat/completions", "/v1/completions"),
    mediaCalls: () => count("/v1/images/generations", "/v1/audio/transcriptions", "/v1/audio/translations", "/v1/moderations"),
  };
}
