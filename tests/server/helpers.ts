import type { AddressInfo } from "node:net";
import type { FastifyInstance } from "fastify";
import { Cache, type CacheInitOptions } from "../../src/index.js";
import { buildServer, type BuildServerOptions } from "../../src/server/app.js";

/**
 * Route tests go through `app.inject` (no port, no socket). Tests where a real socket is the point (slow
 * clients, raw HTTP, keep-alive, real HTTP clients, stream aborts) ask for a listening app instead.
 */
export interface Answer {
  statusCode: number;
  headers: Record<string, string>;
  body: string;
  json(): any; // eslint-disable-line @typescript-eslint/no-explicit-any -- tests read whatever the route answers
}

export interface Call {
  method: string;
  url: string;
  /** An object is sent as JSON; a string as is (with no content type unless the headers give one). */
  payload?: unknown;
  headers?: Record<string, string>;
}

export interface Served {
  app: FastifyInstance;
  cache: Cache;
  /** Sends one request through `app.inject`. */
  call(request: Call): Promise<Answer>;
  post(url: string, payload?: unknown, headers?: Record<string, string>): Promise<Answer>;
  close(): Promise<void>;
}

/** A served app that also listens on a loopback port. */
export interface Listening extends Served {
  /** Base URL, e.g. http://127.0.0.1:PORT. */
  url: string;
}

async function inject(app: FastifyInstance, { method, url, payload, headers = {} }: Call): Promise<Answer> {
  const response = await app.inject({ method: method as "GET", url, headers, payload: payload as string | object | undefined });
  // Repeated headers arrive as arrays and numbers as numbers; tests read them as one string, as fetch does.
  const flat = Object.entries(response.headers).map(([name, value]) => [name, Array.isArray(value) ? value.join(", ") : String(value)]);
  return { statusCode: response.statusCode, headers: Object.fromEntries(flat), body: response.body, json: () => response.json() };
}

/** An app over `cache` (closed with the app), answering through `app.inject`. */
export async function serve(cache: Cache, options: Omit<BuildServerOptions, "cache"> = {}): Promise<Served> {
  const app = buildServer({ ...options, cache, closeCache: true });
  await app.ready();
  const call = (request: Call) => inject(app, request);
  return {
    app,
    cache,
    call,
    post: (path, payload = {}, headers) => call({ method: "POST", url: path, payload, headers }),
    close: () => app.close(),
  };
}

/** The same, listening on a free loopback port. */
export async function serveOnPort(cache: Cache, options: Omit<BuildServerOptions, "cache"> = {}): Promise<Listening> {
  const served = await serve(cache, options);
  await served.app.listen({ host: "127.0.0.1", port: 0 });
  return { ...served, url: `http://127.0.0.1:${(served.app.server.address() as AddressInfo).port}` };
}

/** An app over a fresh in-memory exact-match cache (or one with the given init options). */
export async function exactApp(options: Omit<BuildServerOptions, "cache"> = {}, init: CacheInitOptions = {}): Promise<Served> {
  return serve(await new Cache().init(init), options);
}

/** The same, listening on a free loopback port. */
export async function exactServer(options: Omit<BuildServerOptions, "cache"> = {}, init: CacheInitOptions = {}): Promise<Listening> {
  return serveOnPort(await new Cache().init(init), options);
}

/** Every error answer has this shape. */
export function expectErrorBody(body: string, code?: string): void {
  const parsed = JSON.parse(body) as { error: { code: string; message: string } };
  expect(Object.keys(parsed)).toEqual(["error"]);
  expect(parsed.error).toEqual({ code: expect.stringMatching(/^SEMCACHE_[A-Z_]+$/), message: expect.any(String) });
  if (code) expect(parsed.error.code).toBe(code);
}

/** Keys of a server with tenants: an admin, two keys bound to a namespace each, and a reader bound to none. */
export const TENANT_KEYS = ["admin-key", { key: "tenant-a-key", namespace: "tenant-a" }, { key: "tenant-b-key", namespace: "tenant-b" }, { key: "reader-key" }] as const;
