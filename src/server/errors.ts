/**
 * The server's error bodies: every failure answers `{ error: { code, message } }` with a status that depends
 * on the code. Cache errors keep their own codes (src/core/errors.ts); faults of the HTTP exchange itself
 * (routes, auth, body size, slow clients, the upstream model) have the codes below, listed in docs/server.md.
 */
import { STATUS_CODES } from "node:http";
import type { Socket } from "node:net";
import type { FastifyError, FastifyReply, FastifyRequest } from "fastify";
import { ERROR_CODES, SemcacheError } from "../core/errors.js";

export const SERVER_ERROR_CODES = {
  SEMCACHE_BAD_REQUEST: { statusCode: 400, description: "The request is malformed at the HTTP level (a header, the URL, the body's length)." },
  SEMCACHE_UNAUTHORIZED: { statusCode: 401, description: "The bearer API key is missing or unknown." },
  SEMCACHE_FORBIDDEN: { statusCode: 403, description: "The key may not do this: an admin-only operation, or another namespace; or, with no API keys, the Host is not a loopback name." },
  SEMCACHE_NOT_FOUND: { statusCode: 404, description: "No route has this path, or (GET /?prompt=) no answer is stored for the prompt." },
  SEMCACHE_METHOD_NOT_ALLOWED: { statusCode: 405, description: "The path exists, but not with this method (the Allow header lists the methods)." },
  SEMCACHE_TIMEOUT: { statusCode: 408, description: "The client did not send the whole request in time (limits.request_timeout_ms)." },
  SEMCACHE_BODY_TOO_LARGE: { statusCode: 413, description: "The body is longer than limits.body_limit (1 MiB by default)." },
  SEMCACHE_UNSUPPORTED_MEDIA_TYPE: { statusCode: 415, description: "The route does not read bodies of this content type (JSON routes want application/json)." },
  SEMCACHE_HEADERS_TOO_LARGE: { statusCode: 431, description: "The request headers are too large." },
  SEMCACHE_INTERNAL: { statusCode: 500, description: "An unexpected fault (a bug); the server log has the details." },
  SEMCACHE_UPSTREAM: { statusCode: 502, description: "The upstream model API could not be reached, or broke off its answer." },
  SEMCACHE_UNAVAILABLE: { statusCode: 503, description: "The server is shutting down." },
  SEMCACHE_UPSTREAM_TIMEOUT: { statusCode: 504, description: "The upstream model API did not answer within upstream.timeout_ms." },
} as const;

export type ServerErrorCode = keyof typeof SERVER_ERROR_CODES;

/** The body of every error answer. */
export interface ErrorBody {
  error: { code: string; message: string };
}

/** An error a route or hook throws to answer with one of the server's codes. */
export class HttpProblem extends Error {
  readonly statusCode: number;

  constructor(
    readonly code: ServerErrorCode,
    message: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
    this.name = "HttpProblem";
    this.statusCode = SERVER_ERROR_CODES[code].statusCode;
  }
}

/** Fastify's own error codes for faults in what the client sent, as the server's codes. */
const FASTIFY_CODES: Record<string, { code: string; message?: string }> = {
  FST_ERR_CTP_BODY_TOO_LARGE: { code: "SEMCACHE_BODY_TOO_LARGE" },
  FST_ERR_CTP_INVALID_MEDIA_TYPE: { code: "SEMCACHE_UNSUPPORTED_MEDIA_TYPE" },
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: { code: "SEMCACHE_BAD_REQUEST" },
  FST_ERR_CTP_EMPTY_JSON_BODY: { code: "SEMCACHE_VALIDATION", message: "The body is empty; this route wants a JSON object." },
  FST_ERR_CTP_INVALID_JSON_BODY: { code: "SEMCACHE_VALIDATION", message: "The body is not valid JSON." },
  FST_ERR_BAD_URL: { code: "SEMCACHE_BAD_REQUEST" },
};

/** `scheme://user:password@` in a message: a connection string's credentials. */
const URL_CREDENTIALS = /\b([a-z][a-z0-9+.-]*:\/\/)[^\s/@]*@/gi;

/**
 * What a client is told of a cache error. A fault of the server's own parts (a store outage, a missing
 * package: 5xx) is described by its code alone, since its message may name the database, its host or its
 * user; the log has the message. A 4xx message is about the request, and credentials are cut from it anyway.
 */
function clientMessage(error: SemcacheError): string {
  if (error.statusCode >= 500 && error.code in ERROR_CODES) {
    return `${ERROR_CODES[error.code].description} The server log has the details.`;
  }
  return error.message.replace(URL_CREDENTIALS, "$1***@");
}

/** Status and body for any error a request ran into. Unknown errors are 500s: bugs, logged by the caller. */
export function describeError(error: unknown): { status: number; body: ErrorBody; headers?: Record<string, string> } {
  const body = (code: string, message: string) => ({ error: { code, message } });
  if (error instanceof HttpProblem) return { status: error.statusCode, body: body(error.code, error.message), headers: error.headers };
  if (SemcacheError.isInstance(error)) return { status: error.statusCode, body: body(error.code, clientMessage(error)) };
  const e = error as Partial<FastifyError> & { validation?: unknown };
  if (e.validation) {
    // Fastify's message names the field: "body/prompt must be string", "querystring must have required property 'prompt'".
    return { status: 400, body: body("SEMCACHE_VALIDATION", e.message ?? "The request is invalid.") };
  }
  if (error instanceof SyntaxError && e.statusCode === 400) return { status: 400, body: body("SEMCACHE_VALIDATION", `The body is not valid JSON: ${e.message}`) };
  const mapped = e.code === undefined ? undefined : FASTIFY_CODES[e.code];
  if (mapped) {
    const status = mapped.code === "SEMCACHE_VALIDATION" ? 400 : SERVER_ERROR_CODES[mapped.code as ServerErrorCode].statusCode;
    return { status, body: body(mapped.code, mapped.message ?? e.message ?? "Bad request") };
  }
  if (typeof e.statusCode === "number" && e.statusCode >= 400 && e.statusCode < 500) {
    return { status: 400, body: body("SEMCACHE_BAD_REQUEST", e.message ?? "Bad request") };
  }
  return { status: 500, body: body("SEMCACHE_INTERNAL", "Internal error; the server log has the details.") };
}

/** Fastify's error handler: every error becomes an error body; 5xx are logged with their stack. */
export function handleError(error: unknown, request: FastifyRequest, reply: FastifyReply): void {
  const { status, body, headers } = describeError(error);
  if (status >= 500) request.log.error({ err: error }, body.error.message);
  if (headers) void reply.headers(headers);
  void reply.code(status).type("application/json").send(body);
}

/**
 * Faults Node's HTTP parser reports before there is a request (a slow client, oversized headers, garbage):
 * answered on the raw socket with the same body shape, then the socket is closed.
 */
export function handleClientError(error: Error & { code?: string }, socket: Socket): void {
  if (error.code === "ECONNRESET" || socket.destroyed) return;
  const code: ServerErrorCode =
    error.code === "ERR_HTTP_REQUEST_TIMEOUT" ? "SEMCACHE_TIMEOUT" : error.code === "HPE_HEADER_OVERFLOW" ? "SEMCACHE_HEADERS_TOO_LARGE" : "SEMCACHE_BAD_REQUEST";
  const status = SERVER_ERROR_CODES[code].statusCode;
  const message = code === "SEMCACHE_TIMEOUT" ? "The request was not received in time." : code === "SEMCACHE_HEADERS_TOO_LARGE" ? "The request headers are too large." : "The request could not be parsed.";
  const payload = JSON.stringify({ error: { code, message } });
  if (socket.writable) {
    socket.write(
      `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(payload)}\r\nConnection: close\r\n\r\n${payload}`,
    );
  }
  socket.destroy();
}

/** The JSON schema of an error body (documented on every route). */
export const errorSchema = {
  type: "object",
  required: ["error"],
  properties: {
    error: {
      type: "object",
      required: ["code", "message"],
      properties: { code: { type: "string" }, message: { type: "string" } },
    },
  },
} as const;
