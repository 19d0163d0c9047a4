import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

/** A request as a fake route sees it. */
export interface FakeRequest {
  method: string;
  path: string;
  headers: IncomingMessage["headers"];
  /** The raw body. */
  body: Buffer;
  /** The body parsed as JSON (undefined when it is not JSON). */
  json?: Record<string, unknown>;
  /** Aborts when the client goes away (for slow streams). */
  signal: AbortSignal;
}

/** A route answers with a JSON value, or writes the response itself (streams). */
export type FakeRoute = (request: FakeRequest, response: ServerResponse) => unknown | Promise<unknown>;

/** A local HTTP server on a free loopback port, for tests and examples. */
export interface FakeServer {
  /** http://127.0.0.1:PORT */
  readonly url: string;
  /** Every request received, in order. */
  readonly requests: FakeRequest[];
  /** Requests received per path. */
  count(path: string): number;
  close(): Promise<void>;
}

/** An error a route throws to answer with a status and a JSON body. */
export class FakeHttpError extends Error {
  constructor(
    readonly status: number,
    readonly body: unknown,
  ) {
    super(`HTTP ${status}`);
  }
}

function readBody(request: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => resolve(Buffer.concat(chunks)));
    request.on("error", reject);
  });
}

/** Starts a server whose routes are keyed "METHOD /path" (a trailing "*" matches any rest of the path). */
export async function startFakeServer(routes: Record<string, FakeRoute>): Promise<FakeServer> {
  const requests: FakeRequest[] = [];
  const server: Server = createServer(async (req, res) => {
    const body = await readBody(req);
    const path = new URL(req.url ?? "/", "http://localhost").pathname;
    const controller = new AbortController();
    res.on("close", () => controller.abort());
    let json: Record<string, unknown> | undefined;
    try {
      json = body.length > 0 && String(req.headers["content-type"]).includes("json") ? JSON.parse(body.toString("utf8")) : undefined;
    } catch {
      json = undefined;
    }
    const request: FakeRequest = { method: req.method ?? "GET", path, headers: req.headers, body, json, signal: controller.signal };
    requests.push(request);
    const key = `${request.method} ${path}`;
    const route =
      routes[key] ??
      Object.entries(routes).find(([pattern]) => pattern.endsWith("*") && key.startsWith(pattern.slice(0, -1)))?.[1];
    try {
      if (!route) throw new FakeHttpError(404, { error: { message: `no route ${key}`, type: "invalid_request_error" } });
      const result = await route(request, res);
      if (!res.headersSent && !res.writableEnded) {
        res.writeHead(200, { "content-type": "application/json" });
        res.end(JSON.stringify(result));
      }
    } catch (error) {
      if (res.headersSent) {
        res.destroy();
        return;
      }
      const status = error instanceof FakeHttpError ? error.status : 500;
      const payload = error instanceof FakeHttpError ? error.body : { error: { message: String(error), type: "server_error" } };
      res.writeHead(status, { "content-type": "application/json" });
      res.end(JSON.stringify(payload));
    }
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    count: (path) => requests.filter((r) => r.path === path).length,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** How a fake stream is written: a pause between its parts, and the client's abort. */
export interface FakeStreamOptions {
  delayMs?: number;
  signal?: AbortSignal;
}

/** Writes each value with `format`, pausing between them; false when the client went away. */
async function writeEach(response: ServerResponse, events: Iterable<unknown>, format: (event: unknown) => string, options: FakeStreamOptions): Promise<boolean> {
  for (const event of events) {
    if (options.signal?.aborted) return false;
    response.write(format(event));
    if (options.delayMs) await new Promise((resolve) => setTimeout(resolve, options.delayMs));
  }
  return true;
}

/**
 * Writes Server-Sent Events: each value as `data: JSON`, then `data: [DONE]` (the OpenAI stream format; `done:
 * false` leaves it out, as llama.cpp's native `/completion` stream does).
 */
export async function writeSse(
  response: ServerResponse,
  events: Iterable<unknown>,
  options: FakeStreamOptions & { done?: boolean } = {},
): Promise<void> {
  response.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache", connection: "keep-alive" });
  if (!(await writeEach(response, events, (event) => `data: ${JSON.stringify(event)}\n\n`, options))) return;
  response.end(options.done === false ? undefined : "data: [DONE]\n\n");
}

/** Writes newline-delimited JSON, one value a line (Ollama's stream format). */
export async function writeNdjson(response: ServerResponse, lines: Iterable<unknown>, options: FakeStreamOptions = {}): Promise<void> {
  response.writeHead(200, { "content-type": "application/x-ndjson" });
  if (await writeEach(response, lines, (line) => `${JSON.stringify(line)}\n`, options)) response.end();
}

/** A deterministic hashed bag-of-words embedding, so fake embedding endpoints give related texts close vectors. */
export function hashedEmbedding(text: string, dimension: number): number[] {
  const vector = new Array<number>(dimension).fill(0);
  for (const word of text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []) {
    let h = 2166136261;
    for (let i = 0; i < word.length; i++) h = Math.imul(h ^ word.charCodeAt(i), 16777619);
    vector[(h >>> 0) % dimension] += 1;
    vector[(h >>> 8) % dimension] += 0.5;
  }
  const norm = Math.sqrt(vector.reduce((sum, x) => sum + x * x, 0)) || 1;
  return vector.map((x) => x / norm);
}
