/**
 * `CacheClient`: GPTCache's Client. With a uri it talks to a semcache server over HTTP (keep-alive
 * connections, a timeout per call, typed errors); without one it runs the same operations in process on a
 * cache (the global one by default).
 */
import { Agent as HttpAgent, request as httpRequest, type IncomingMessage } from "node:http";
import { Agent as HttpsAgent, request as httpsRequest } from "node:https";
import { createInterface } from "node:readline";
import { cache as globalCache, type Cache } from "../presets/cache.js";
import { ERROR_CODES, HttpError, NotInitError, SemcacheError, ValidationError, type SemcacheErrorCode } from "../core/errors.js";
import { isPositiveNumber } from "../core/validation.js";
import { NAMESPACE_HEADER } from "./auth.js";
import { CacheService, type CacheStats, type ExportedEntry, type QuestionAnswer } from "./cache-service.js";
import type { DashboardData, WindowName } from "./dashboard/dashboard-view.js";
import type { LookupCounts } from "./namespace-stats.js";

/** What /stats gives a key that works in one namespace: that namespace's lookups, counted since the server started. */
export interface NamespaceStatsView {
  namespace: string;
  uptimeSeconds: number;
  cache: LookupCounts;
  map: LookupCounts;
}

/** True for the whole cache's figures (an admin's view, or in process). */
export function isWholeCacheStats(stats: CacheStats | NamespaceStatsView): stats is CacheStats {
  return typeof (stats as Partial<CacheStats>).entries === "number";
}
import { isNamespaceName } from "./server-config.js";

export interface CacheClientOptions {
  /** The server, e.g. "http://127.0.0.1:8000". Without it the client works in process on `cache`. */
  uri?: string;
  /** Sent as `Authorization: Bearer KEY`. */
  apiKey?: string;
  /** The namespace to read and write (sent as x-semcache-namespace; in process, the same partition). */
  namespace?: string;
  /** Milliseconds a call may take before it fails with HttpError. Default 30000. */
  timeoutMs?: number;
  /** In-process mode only: the cache to use. Default the global `cache`. */
  cache?: Cache;
}

interface Transport {
  call<T>(method: string, path: string, body?: unknown): Promise<T>;
  lines(path: string): AsyncIterable<string>;
}

/** Rebuilds the server's error: a code this package knows keeps its class's `isInstance`; others are HttpError. */
function answeredError(status: number, text: string, where: string): SemcacheError {
  let code: string | undefined;
  let message = text.slice(0, 500);
  try {
    const body = JSON.parse(text) as { error?: { code?: unknown; message?: unknown } };
    if (typeof body.error?.code === "string") code = body.error.code;
    if (typeof body.error?.message === "string") message = body.error.message;
  } catch {
    // Not our body shape (a proxy in between?): the raw text is the message.
  }
  if (code !== undefined && code in ERROR_CODES) return new SemcacheError(code as SemcacheErrorCode, message);
  return new HttpError(`${where} answered ${status}${code ? ` ${code}` : ""}: ${message}`, status, code);
}

class HttpTransport implements Transport {
  private readonly base: URL;
  private readonly agent: HttpAgent;
  private readonly headers: Record<string, string>;

  constructor(
    uri: string,
    private readonly options: CacheClientOptions,
  ) {
    try {
      this.base = new URL(uri);
    } catch {
      throw new ValidationError(`CacheClient: "${uri}" is not a URL.`);
    }
    if (this.base.protocol !== "http:" && this.base.protocol !== "https:") throw new ValidationError(`CacheClient: "${uri}" is not an http(s) URL.`);
    this.agent = this.base.protocol === "https:" ? new HttpsAgent({ keepAlive: true }) : new HttpAgent({ keepAlive: true });
    this.headers = {};
    if (options.apiKey) this.headers.authorization = `Bearer ${options.apiKey}`;
    if (options.namespace) this.headers[NAMESPACE_HEADER] = options.namespace;
  }

  /** Sends a request; resolves with the response once its headers arrive (bodies are read by the caller). */
  private send(method: string, path: string, body?: unknown): Promise<{ response: IncomingMessage; done: () => void }> {
    const url = new URL(path.replace(/^\//, ""), this.base.href.endsWith("/") ? this.base : `${this.base.href}/`);
    const where = `${method} ${url.href}`;
    const timeoutMs = this.options.timeoutMs ?? 30_000;
    const payload = body === undefined ? undefined : JSON.stringify(body);
    const headers: Record<string, string> = { ...this.headers, accept: "application/json" };
    if (payload !== undefined) headers["content-type"] = "application/json";
    const send = url.protocol === "https:" ? httpsRequest : httpRequest;
    return new Promise((resolve, reject) => {
      const request = send(url, { method, headers, agent: this.agent });
      const timer = setTimeout(() => request.destroy(new HttpError(`${where} did not answer within ${timeoutMs} ms.`)), timeoutMs);
      request.on("error", (error) => {
        clearTimeout(timer);
        reject(HttpError.isInstance(error) ? error : new HttpError(`${where} failed: ${error.message}`, undefined, undefined, { cause: error }));
      });
      request.on("response", (response) => resolve({ response, done: () => clearTimeout(timer) }));
      request.end(payload);
    });
  }

  private static async text(response: IncomingMessage): Promise<string> {
    const chunks: Buffer[] = [];
    for await (const chunk of response) chunks.push(chunk as Buffer);
    return Buffer.concat(chunks).toString("utf8");
  }

  async call<T>(method: string, path: string, body?: unknown): Promise<T> {
    const { response, done } = await this.send(method, path, body);
    try {
      const text = await HttpTransport.text(response).catch((error: Error) => {
        throw HttpError.isInstance(error) ? error : new HttpError(`${method} ${path}: the answer broke off: ${error.message}`, undefined, undefined, { cause: error });
      });
      const status = response.statusCode ?? 0;
      if (status >= 400) throw answeredError(status, text, `${method} ${path}`);
      return JSON.parse(text) as T;
    } finally {
      done();
    }
  }

  async *lines(path: string): AsyncIterable<string> {
    const { response, done } = await this.send("GET", path);
    try {
      const status = response.statusCode ?? 0;
      if (status >= 400) throw answeredError(status, await HttpTransport.text(response), `GET ${path}`);
      done(); // a long export is not a slow answer
      for await (const line of createInterface({ input: response, crlfDelay: Infinity })) if (line) yield line;
    } finally {
      done();
    }
  }

  close(): void {
    this.agent.destroy();
  }
}

export class CacheClient {
  private readonly http?: HttpTransport;
  private readonly options: CacheClientOptions;
  private localService?: CacheService;

  /** `new CacheClient("http://127.0.0.1:8000")`, `new CacheClient({ uri, apiKey, namespace })`, or `new CacheClient()` (in process). */
  constructor(uri?: string | CacheClientOptions, options: Omit<CacheClientOptions, "uri"> = {}) {
    this.options = typeof uri === "string" || uri === undefined ? { ...options, uri } : { ...uri };
    const { timeoutMs } = this.options;
    if (timeoutMs !== undefined && !isPositiveNumber(timeoutMs)) throw new ValidationError("CacheClient: timeoutMs must be a positive number.");
    const { namespace } = this.options;
    if (namespace !== undefined && !isNamespaceName(namespace)) throw new ValidationError("CacheClient: namespace must be a namespace name (letters, digits, _ . : -, at most 128).");
    if (this.options.uri !== undefined) this.http = new HttpTransport(this.options.uri, this.options);
  }

  /** The in-process service; its cache must be initialised first (checked on every call: it may be later). */
  private get local(): CacheService {
    const cache = this.options.cache ?? globalCache;
    if (!cache.initialized) {
      throw new NotInitError("CacheClient works in process on a cache that is not initialised: call `await cache.init(...)` (or initSimilarCache) first, or give `uri`.");
    }
    this.localService ??= new CacheService(cache);
    return this.localService;
  }

  /** Stores an answer; resolves with 200 (GPTCache's client returns the status code). */
  async put(prompt: string, answer: string): Promise<number> {
    if (this.http) await this.http.call("POST", "/put", { prompt, answer });
    else await this.local.put(prompt, answer, this.options.namespace);
    return 200;
  }

  /** The cached answer, or null on a miss. */
  async get(prompt: string): Promise<string | null> {
    if (!this.http) return this.local.get(prompt, this.options.namespace);
    const body = await this.http.call<{ answer: string | null }>("POST", "/get", { prompt });
    return body.answer;
  }

  /** Makes every write durable and visible to other replicas; deletes nothing. */
  async flush(): Promise<void> {
    if (this.http) await this.http.call("POST", "/flush");
    else await this.local.flush();
  }

  /** Deletes every entry (an admin key with no namespace over HTTP). */
  async clear(): Promise<void> {
    if (this.http) await this.http.call("POST", "/clear");
    else await this.local.clear();
  }

  /** Stores pairs in one go (batch embedded, one transaction); returns how many. */
  async importPairs(pairs: readonly QuestionAnswer[]): Promise<number> {
    if (!this.http) return this.local.importPairs(pairs, this.options.namespace);
    const body = await this.http.call<{ imported: number }>("POST", "/import", { pairs });
    return body.imported;
  }

  /** Every live entry, oldest first. */
  async *entries(): AsyncIterable<ExportedEntry> {
    if (!this.http) {
      yield* this.local.entries();
      return;
    }
    for await (const line of this.http.lines("/export")) yield JSON.parse(line) as ExportedEntry;
  }

  /** The cache's report and entry count (the server's /stats). */
  /**
   * The cache's figures. A key that works in one namespace (bound to it, or not an admin) gets that namespace's
   * lookups only (`NamespaceStatsView`); an admin key, or a server with no keys, the whole cache's.
   */
  async stats(): Promise<CacheStats | NamespaceStatsView> {
    return this.http ? this.http.call<CacheStats | NamespaceStatsView>("GET", "/stats") : this.local.stats();
  }

  /**
   * The dashboard's figures over a window (the server's /dashboard/data): a tenant's key gets its namespace's, an
   * admin key bound to none every namespace's. Over HTTP only: the time series live in the server.
   */
  async dashboard(window: WindowName = "1h"): Promise<DashboardData> {
    if (!this.http) throw new ValidationError("CacheClient.dashboard() reads a running server's /dashboard/data: give `uri`.");
    return this.http.call<DashboardData>("GET", `/dashboard/data?window=${encodeURIComponent(window)}`);
  }

  /** Closes kept-alive connections (HTTP); in process, nothing to do (the cache is the caller's). */
  close(): void {
    this.http?.close();
  }
}
