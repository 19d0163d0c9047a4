import type { ServerResponse } from "node:http";
import { FakeHttpError, startFakeServer, writeSse, type FakeRequest, type FakeServer } from "./http.js";
import { cutToLimit } from "./tokens.js";

export interface FakeLlamaCppOptions {
  /** The answer. Default: "Echo: " + the prompt (or the last user message on /v1/chat/completions). */
  reply?: (body: Record<string, unknown>, path: string) => string;
  /** Return an HTTP status to fail the request with llama.cpp's `{ error: { code, message, type } }` body. */
  fail?: (body: Record<string, unknown>, path: string) => number | undefined;
  /** Milliseconds between stream events (to test aborts). */
  streamDelayMs?: number;
  /** The model name the server reports (its `--alias`). Default "fake-model.gguf". */
  alias?: string;
}

export interface FakeLlamaCppServer extends FakeServer {
  /** Base URL for OpenAI SDK clients: http://127.0.0.1:PORT/v1 */
  readonly baseURL: string;
  /** Completion and chat calls received (the "model calls" a cache should save). */
  modelCalls(): number;
}

const COMPLETION_PATHS = ["/completion", "/completions"];
const CHAT_PATH = "/v1/chat/completions";

function lastUserText(body: Record<string, unknown>): string {
  const messages = (body.messages as Array<{ role?: string; content?: unknown }> | undefined) ?? [];
  const last = [...messages].reverse().find((message) => message.role === "user") ?? messages[messages.length - 1];
  return typeof last?.content === "string" ? last.content : "";
}

const defaultReply = (body: Record<string, unknown>, path: string) => `Echo: ${path === CHAT_PATH ? lastUserText(body) : String(body.prompt)}`;

function error(status: number, message: string): FakeHttpError {
  return new FakeHttpError(status, { error: { code: status, message, type: status === 400 ? "invalid_request_error" : "server_error" } });
}

function timings(promptTokens: number, predicted: number) {
  return {
    prompt_n: promptTokens,
    prompt_ms: 1,
    prompt_per_token_ms: 1 / Math.max(1, promptTokens),
    prompt_per_second: 1000 * promptTokens,
    predicted_n: predicted,
    predicted_ms: 2,
    predicted_per_token_ms: 2 / Math.max(1, predicted),
    predicted_per_second: 500 * predicted,
  };
}

/** The answer as the model would stop it: at the first `stop` word (not included), else cut by the token limit. */
function generate(text: string, stop: unknown, limit: unknown) {
  const words = Array.isArray(stop) ? stop.filter((word): word is string => typeof word === "string" && word.length > 0) : [];
  const found = words.map((word) => ({ word, at: text.indexOf(word) })).filter(({ at }) => at >= 0).sort((a, b) => a.at - b.at)[0];
  const { tokens, cut } = cutToLimit(found ? text.slice(0, found.at) : text, limit);
  const stopType = cut ? "limit" : found ? "word" : "eos";
  return { tokens, text: tokens.join(""), stopType, stoppingWord: !cut && found ? found.word : "" };
}

/**
 * A local server speaking llama.cpp's server (`llama-server`) wire formats, as its b6000 builds do:
 *
 * - `POST /completion` (and `/completions`): `{ prompt, n_predict, stream, stop, temperature, seed, top_k, ... }`
 *   answered `{ index, content, tokens, id_slot, stop: true, model, tokens_predicted, tokens_evaluated,
 *   generation_settings, prompt, has_new_line, truncated, stop_type, stopping_word, tokens_cached, timings }`;
 *   with `stream: true`, Server-Sent Events `data: {...}` a word each, the last with `stop: true`, an empty
 *   `content` and the fields above, and no `[DONE]`. `n_predict` cuts the answer (`stop_type: "limit"`); a
 *   `stop` word ends it before the word (`stop_type: "word"`).
 * - `POST /v1/chat/completions`: the OpenAI chat format (streamed as SSE ending `data: [DONE]`), with llama.cpp's
 *   own `timings` field, so the `openai` SDK (and `wrapOpenAI`) runs against `baseURL`.
 * - Errors are `{ error: { code, message, type } }`.
 */
export async function startFakeLlamaCpp(options: FakeLlamaCppOptions = {}): Promise<FakeLlamaCppServer> {
  const reply = options.reply ?? defaultReply;
  const alias = options.alias ?? "fake-model.gguf";
  const stream = { delayMs: options.streamDelayMs };
  let sequence = 0;

  function guard(request: FakeRequest): Record<string, unknown> {
    const body = request.json;
    if (!body) throw error(400, "the request body must be JSON");
    const status = options.fail?.(body, request.path);
    if (status !== undefined) throw error(status, `fake failure ${status}`);
    return body;
  }

  async function completion(request: FakeRequest, response: ServerResponse) {
    const body = guard(request);
    if (typeof body.prompt !== "string") throw error(400, '"prompt" must be a string');
    const answer = generate(reply(body, request.path), body.stop, body.n_predict);
    const promptTokens = Math.ceil(body.prompt.length / 4);
    const final = (content: string) => ({
      index: 0,
      content,
      tokens: [],
      id_slot: 0,
      stop: true,
      model: typeof body.model === "string" ? body.model : alias,
      tokens_predicted: answer.tokens.length,
      tokens_evaluated: promptTokens,
      generation_settings: { n_predict: body.n_predict ?? -1, temperature: body.temperature ?? 0.8, seed: body.seed ?? -1 },
      prompt: body.prompt,
      has_new_line: answer.text.includes("\n"),
      truncated: false,
      stop_type: answer.stopType,
      stopping_word: answer.stoppingWord,
      tokens_cached: promptTokens + answer.tokens.length,
      timings: timings(promptTokens, answer.tokens.length),
    });
    if (body.stream !== true) return final(answer.text);
    const events = answer.tokens.map((token, i) => ({
      index: 0,
      content: token,
      tokens: [i + 1],
      stop: false,
      id_slot: 0,
      tokens_predicted: i + 1,
      tokens_evaluated: promptTokens,
    }));
    await writeSse(response, [...events, final("")], { ...stream, signal: request.signal, done: false });
  }

  async function chat(request: FakeRequest, response: ServerResponse) {
    const body = guard(request);
    if (!Array.isArray(body.messages)) throw error(400, "'messages' is required");
    const answer = generate(reply(body, request.path), body.stop, body.max_tokens ?? body.n_predict);
    const finish = answer.stopType === "limit" ? "length" : "stop";
    const promptTokens = Math.ceil(JSON.stringify(body.messages).length / 4);
    const base = { created: Math.floor(Date.now() / 1000), id: `chatcmpl-llama-${++sequence}`, model: typeof body.model === "string" ? body.model : alias, system_fingerprint: "b6000-fake" };
    const usage = { completion_tokens: answer.tokens.length, prompt_tokens: promptTokens, total_tokens: promptTokens + answer.tokens.length };
    if (body.stream !== true) {
      return {
        choices: [{ finish_reason: finish, index: 0, message: { role: "assistant", content: answer.text } }],
        ...base,
        object: "chat.completion",
        usage,
        timings: timings(promptTokens, answer.tokens.length),
      };
    }
    const chunk = (delta: object, finish_reason: string | null) => ({ choices: [{ finish_reason, index: 0, delta }], ...base, object: "chat.completion.chunk" });
    const events = [chunk({ role: "assistant", content: null }, null), ...answer.tokens.map((token) => chunk({ content: token }, null)), chunk({}, finish)];
    await writeSse(response, events, { ...stream, signal: request.signal });
  }

  const server = await startFakeServer({
    "POST /completion": completion,
    "POST /completions": completion,
    [`POST ${CHAT_PATH}`]: chat,
  });
  return {
    ...server,
    baseURL: `${server.url}/v1`,
    modelCalls: () => [...COMPLETION_PATHS, CHAT_PATH].reduce((sum, path) => sum + server.count(path), 0),
  };
}
