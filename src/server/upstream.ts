/**
 * The proxy's call to the OpenAI-compatible upstream, over fetch: the body as JSON, the answer as JSON or,
 * for `stream: true`, its Server-Sent Events parsed into chunk objects (the provider's own shapes, untouched).
 */
import { HttpProblem } from "./errors.js";

export interface UpstreamCall {
  /** e.g. https://api.openai.com/v1 */
  baseURL: string;
  /** Sent as `Authorization: Bearer KEY`; none when undefined (local servers). */
  apiKey?: string;
  /** Extra headers to forward (OpenAI-Organization, OpenAI-Project). */
  headers?: Record<string, string>;
  /** Milliseconds to wait for the answer's headers. */
  timeoutMs: number;
  /** Aborts the call (the client went away). */
  signal?: AbortSignal;
}

/** An upstream answer with a 4xx status: the proxy hands it to its client as is, so SDKs raise their usual errors. */
export class UpstreamStatusError extends Error {
  constructor(
    readonly status: number,
    readonly body: string,
    readonly headers: Record<string, string>,
  ) {
    super(`The upstream answered ${status}.`);
    this.name = "UpstreamStatusError";
  }
}

/** Headers of an upstream error worth passing on. */
const PASSED_HEADERS = ["content-type", "retry-after", "x-request-id"];

/** POSTs `body` to `path` under the base URL; resolves once the answer's headers are in. */
async function send(path: string, body: unknown, call: UpstreamCall): Promise<Response> {
  const controller = new AbortController();
  const abort = () => controller.abort(call.signal?.reason);
  if (call.signal?.aborted) abort();
  call.signal?.addEventListener("abort", abort, { once: true });
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    controller.abort();
  }, call.timeoutMs);
  const headers: Record<string, string> = { ...call.headers, "content-type": "application/json", accept: "application/json, text/event-stream" };
  if (call.apiKey) headers.authorization = `Bearer ${call.apiKey}`;
  let response: Response;
  try {
    response = await fetch(`${call.baseURL}${path}`, { method: "POST", headers, body: JSON.stringify(body), signal: controller.signal });
  } catch (error) {
    call.signal?.removeEventListener("abort", abort);
    if (timedOut) throw new HttpProblem("SEMCACHE_UPSTREAM_TIMEOUT", `The upstream did not answer within ${call.timeoutMs} ms.`);
    if (call.signal?.aborted) throw error;
    throw new HttpProblem("SEMCACHE_UPSTREAM", `Cannot reach the upstream at ${call.baseURL}: ${(error as Error).cause ?? (error as Error).message}`);
  } finally {
    clearTimeout(timer);
  }
  // The client's abort keeps reaching the body (a stream) until it is read out.
  if (response.status >= 400) {
    const text = await response.text().catch(() => "");
    call.signal?.removeEventListener("abort", abort);
    if (response.status < 500) {
      const passed = Object.fromEntries(PASSED_HEADERS.flatMap((name) => (response.headers.has(name) ? [[name, response.headers.get(name) as string]] : [])));
      throw new UpstreamStatusError(response.status, text, passed);
    }
    throw new HttpProblem("SEMCACHE_UPSTREAM", `The upstream answered ${response.status}: ${text.slice(0, 300)}`);
  }
  return response;
}

/** A JSON answer. */
export async function postJson(path: string, body: unknown, call: UpstreamCall): Promise<unknown> {
  const response = await send(path, body, call);
  const text = await response.text();
  try {
    return JSON.parse(text);
  } catch {
    throw new HttpProblem("SEMCACHE_UPSTREAM", `The upstream's answer is not JSON: ${text.slice(0, 200)}`);
  }
}

/** A Server-Sent Events answer, as the JSON value of each `data:` event until `data: [DONE]`. */
export async function postStream(path: string, body: unknown, call: UpstreamCall): Promise<AsyncIterable<unknown>> {
  const response = await send(path, body, call);
  if (!response.body) throw new HttpProblem("SEMCACHE_UPSTREAM", "The upstream's stream has no body.");
  return sseEvents(response.body);
}

async function* sseEvents(body: ReadableStream<Uint8Array>): AsyncGenerator<unknown> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let buffer = "";
  try {
    for (;;) {
      const { done, value } = await reader.read().catch((error: Error) => {
        throw new HttpProblem("SEMCACHE_UPSTREAM", `The upstream's stream broke off: ${error.message}`);
      });
      buffer += done ? decoder.decode() : decoder.decode(value, { stream: true });
      const events = buffer.split(/\r?\n\r?\n/);
      buffer = done ? "" : (events.pop() ?? "");
      for (const event of events) {
        const data = event
          .split(/\r?\n/)
          .filter((line) => line.startsWith("data:"))
          .map((line) => line.slice(5).replace(/^ /, ""))
          .join("\n");
        if (data === "") continue;
        if (data === "[DONE]") return;
        yield parseEvent(data);
      }
      if (done) return;
    }
  } finally {
    // Reading stopped early (the client went away, or an error): let the upstream connection go.
    await reader.cancel().catch(() => undefined);
  }
}

function parseEvent(data: string): unknown {
  let value: unknown;
  try {
    value = JSON.parse(data);
  } catch {
    throw new HttpProblem("SEMCACHE_UPSTREAM", `The upstream sent an event that is not JSON: ${data.slice(0, 200)}`);
  }
  const error = (value as { error?: { message?: unknown } } | null)?.error;
  if (error) throw new HttpProblem("SEMCACHE_UPSTREAM", `The upstream's stream failed: ${String(error.message ?? JSON.stringify(error))}`);
  return value;
}
