/**
 * Calls to a model server over HTTP (Ollama, llama.cpp's server): a JSON request, a JSON answer or a stream of
 * NDJSON lines or Server-Sent Events. The server's errors are thrown as `ModelServerError` with its status and
 * body, unchanged; a stream its reader leaves early stops the request.
 */
import { Cache } from "../../presets/cache.js";
import { ValidationError } from "../../core/errors.js";
import type { FlowOptions } from "../../core/pipeline.js";

const MARKER = Symbol.for("langchain-semcache.model-server-error");

/** An error answered by the model server: an HTTP status with its body, or an error line inside a stream. */
export class ModelServerError extends Error {
  readonly [MARKER] = true;
  override readonly name = "ModelServerError";

  constructor(
    message: string,
    /** The HTTP status answered; undefined for an error sent inside a stream that had started. */
    readonly status: number | undefined,
    /** The answer's body: parsed JSON, or the text when it is not JSON. */
    readonly body: unknown,
  ) {
    super(message);
  }

  /** True for this class, even thrown by another copy of the package. */
  static isInstance(error: unknown): error is ModelServerError {
    return typeof error === "object" && error !== null && (error as Record<symbol, unknown>)[MARKER] === true;
  }
}

/** How a client reaches its server: base URL, extra headers (auth), and the `fetch` to use. */
export interface ModelServerConnection {
  baseUrl: string;
  headers?: Record<string, string>;
  fetch?: typeof fetch;
}

/** Per call: an abort signal, and cache options over the body's own (`{ noStore: true }`, `{ maxAgeSeconds: 60 }`). */
export interface ModelCallOptions {
  signal?: AbortSignal;
  cacheOptions?: FlowOptions;
}

/** Checks the options every client takes. */
export function checkClientOptions(name: string, options: { cache?: unknown; cacheOptions?: unknown; headers?: unknown; fetch?: unknown }): void {
  if (typeof options !== "object" || options === null) throw new ValidationError(`${name} options must be an object.`);
  if (options.cache !== undefined && !(options.cache instanceof Cache)) throw new ValidationError(`${name}: \`cache\` must be a Cache.`);
  for (const field of ["cacheOptions", "headers"] as const) {
    const value = options[field];
    if (value !== undefined && (typeof value !== "object" || value === null)) throw new ValidationError(`${name}: \`${field}\` must be an object.`);
  }
  if (options.fetch !== undefined && typeof options.fetch !== "function") throw new ValidationError(`${name}: \`fetch\` must be a function.`);
}

/** A base URL as servers are often written ("localhost:11434", "http://host:8080/"): a scheme, no trailing slash. */
export function normalizeBaseUrl(url: string): string {
  const withScheme = /^[a-z][a-z0-9+.-]*:\/\//i.test(url) ? url : `http://${url}`;
  return withScheme.replace(/\/+$/, "");
}

/** The error's text: Ollama's `{ error: "..." }`, llama.cpp's `{ error: { message } }`, or the body itself. */
function messageOf(body: unknown, fallback: string): string {
  const error = (body as { error?: unknown } | null)?.error;
  if (typeof error === "string") return error;
  const message = (error as { message?: unknown } | null)?.message;
  if (typeof message === "string") return message;
  return typeof body === "string" && body.length > 0 ? body : fallback;
}

function parseOrText(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/** POSTs a JSON body; a status other than 2xx is thrown as a ModelServerError carrying the server's body. */
export async function postJson(connection: ModelServerConnection, path: string, body: unknown, signal?: AbortSignal): Promise<Response> {
  const send = connection.fetch ?? fetch;
  const response = await send(`${connection.baseUrl}${path}`, {
    method: "POST",
    headers: { "content-type": "application/json", accept: "application/json", ...connection.headers },
    body: JSON.stringify(body),
    signal,
  });
  if (!response.ok) {
    const answer = parseOrText(await response.text().catch(() => ""));
    throw new ModelServerError(messageOf(answer, `${response.status} ${response.statusText}`), response.status, answer);
  }
  return response;
}

/** The lines of a response body as they arrive (UTF-8, split on "\n", a trailing "\r" removed). */
async function* linesOf(response: Response): AsyncGenerator<string> {
  if (!response.body) return;
  const reader = response.body.getReader();
  const decoder = new TextDecoder();
  let buffered = "";
  try {
    for (;;) {
      const { done, value } = await reader.read();
      buffered += done ? decoder.decode() : decoder.decode(value, { stream: true });
      let end: number;
      while ((end = buffered.indexOf("\n")) >= 0) {
        yield buffered.slice(0, end).replace(/\r$/, "");
        buffered = buffered.slice(end + 1);
      }
      if (done) break;
    }
    if (buffered.length > 0) yield buffered;
  } finally {
    // Left early (or failed): stop reading, so the connection is released and the server stops generating.
    await reader.cancel().catch(() => undefined);
  }
}

/** An error object inside a stream (Ollama's `{ error }` line, llama.cpp's `error:` event) ends it with a ModelServerError. */
function failIfError(value: unknown): void {
  if (typeof value === "object" && value !== null && "error" in value && (value as { error?: unknown }).error) {
    throw new ModelServerError(messageOf(value, "the model server reported an error"), undefined, value);
  }
}

/** Ollama's streams: one JSON object a line (application/x-ndjson). */
export async function* readNdjson<T>(response: Response): AsyncGenerator<T> {
  for await (const line of linesOf(response)) {
    if (line.trim() === "") continue;
    const value: unknown = JSON.parse(line);
    failIfError(value);
    yield value as T;
  }
}

/** llama.cpp's streams: `data: {...}` events (an `error: {...}` event fails the stream; `data: [DONE]` ends it). */
export async function* readSse<T>(response: Response): AsyncGenerator<T> {
  for await (const line of linesOf(response)) {
    const field = /^(data|error):\s?(.*)$/.exec(line);
    if (!field) continue;
    const [, name, payload] = field;
    if (name === "data" && payload.trim() === "[DONE]") return;
    const value = parseOrText(payload);
    if (name === "error") throw new ModelServerError(messageOf(value, "the model server reported an error"), undefined, value);
    failIfError(value);
    yield value as T;
  }
}

/**
 * A cached call's stream, handed to the caller: when it ends (read to the end, left early, or failed) the
 * controller aborts, which stops an upstream request still running.
 */
export async function* endingWith<T>(stream: AsyncIterable<T>, controller: AbortController): AsyncGenerator<T> {
  try {
    yield* stream;
  } finally {
    controller.abort();
  }
}

/** A call's signal: the caller's, joined (for streams) with one the call aborts itself when its reader stops. */
export function callSignal(stream: boolean, callerSignal: AbortSignal | undefined): { signal?: AbortSignal; controller?: AbortController } {
  if (!stream) return { signal: callerSignal };
  const controller = new AbortController();
  return { controller, signal: callerSignal ? AbortSignal.any([controller.signal, callerSignal]) : controller.signal };
}
