/**
 * Ready means ready: `semcache serve` runs its request path once before it listens, so its first request costs
 * what the next ones do. V8 compiles a function when it is first called, and a request runs hundreds (Fastify's
 * handling, the routes' validators and serialisers, auth, metrics, the cache's flow, the judge), some of which
 * also load data on first use: the first exact hit took ~7 ms where the next ones take ~0.6 ms, a first
 * embedded lookup ~75 ms against ~25 ms (in the server, from request to response).
 *
 * The warm-up sends each hot route a request through `app.inject` while the routes answer from a scratch
 * cache (an in-memory store with the cache's own embedding, judge and config), with scratch metrics, lookup
 * counts and no API keys; it then reads the real store (the exact key, the index search, the candidates' rows)
 * without writing it. Nothing the server stores or reports changes, and only before `listen`: no caller's
 * request can arrive meanwhile.
 */
import { createServer, request as httpRequest } from "node:http";
import type { AddressInfo } from "node:net";
import type { FastifyInstance, InjectOptions } from "fastify";
import { Cache } from "../presets/cache.js";
import { ValidationError } from "../core/errors.js";
import { keyHash, keyText, partitionOf } from "../core/keys.js";
import type { EmbeddingFunction, EmbeddingInput, EmbeddingOutput } from "../core/contracts/embedding.js";
import { DataManager } from "../manager/data-manager.js";
import { MemoryScalarStore } from "../stores/scalar/memory.js";
import { FlatIndex } from "../stores/vector/flat.js";
import { Authenticator } from "./auth.js";
import { CacheService } from "./cache-service.js";
import { DashboardStats } from "./dashboard/dashboard-stats.js";
import { Metrics } from "./metrics.js";
import { NamespaceStats } from "./namespace-stats.js";
import { createMapCache } from "./server-cache.js";
import type { ServerState } from "./state.js";

const QUESTION = "Is the semcache server ready to answer?";
const REWORDED = "Is the semcache server ready to respond?";
const ANSWER = "Yes.";
/** A second entry with another answer, so the reworded lookup judges two candidates, each the other's rival. */
const OTHER = "Is the semcache server about to stop?";

/** One warm-up request and how it was answered. */
export interface WarmUpRequest {
  route: string;
  statusCode: number;
  /** The status a request that ran the whole route gets (a search-only miss is a 404). */
  expected: number;
}

/**
 * Embeds once and answers that vector for every text: the model was warmed when the cache opened, and a
 * remote embedding is called once more, not once a request. A copy each time, as a model returns a new vector.
 */
function embedOnce(embedding: EmbeddingFunction): EmbeddingFunction & { first?: Promise<EmbeddingOutput> } {
  const once: EmbeddingFunction & { first?: Promise<EmbeddingOutput> } = {
    dimension: embedding.dimension,
    maxInputLength: embedding.maxInputLength,
    async embed(data: EmbeddingInput) {
      once.first ??= embedding.embed(data);
      const output = await once.first;
      return typeof output === "string" ? output : output.slice();
    },
  };
  return once;
}

/** A cache like `cache` (embedding, judge, config, key and answer functions) over an empty in-memory store. */
async function scratchCache(cache: Cache, embedding: EmbeddingFunction): Promise<Cache> {
  const vector = cache.dataManager.vector ? new FlatIndex({ dimension: cache.dataManager.vector.dimension }) : undefined;
  return new Cache().init({
    dataManager: new DataManager({ scalar: new MemoryScalarStore({ tableLenConfig: cache.dataManager.tableLen }), vector }),
    embeddingFunc: embedding,
    similarityEvaluation: cache.similarityEvaluation,
    preEmbeddingFunc: cache.preEmbeddingFunc,
    postProcessMessagesFunc: cache.postProcessMessagesFunc,
    config: cache.config,
  });
}

/** The hot routes' requests: a store, an exact hit, a reworded lookup, the plain map, a search-only proxy lookup. */
async function injectRequests(app: FastifyInstance): Promise<WarmUpRequest[]> {
  const map = `/?prompt=${encodeURIComponent(QUESTION)}`;
  const requests: Array<{ route: string; expected: number; send: InjectOptions }> = [
    { route: "GET /healthz", expected: 200, send: { method: "GET", url: "/healthz" } },
    { route: "POST /put", expected: 200, send: { method: "POST", url: "/put", payload: { prompt: QUESTION, answer: ANSWER } } },
    { route: "POST /put", expected: 200, send: { method: "POST", url: "/put", payload: { prompt: OTHER, answer: "No." } } },
    { route: "POST /get (exact)", expected: 200, send: { method: "POST", url: "/get", payload: { prompt: QUESTION } } },
    { route: "POST /get (reworded)", expected: 200, send: { method: "POST", url: "/get", payload: { prompt: REWORDED } } },
    { route: "PUT /?prompt=", expected: 200, send: { method: "PUT", url: map, payload: ANSWER, headers: { "content-type": "text/plain" } } },
    { route: "GET /?prompt=", expected: 200, send: { method: "GET", url: map } },
    {
      route: "POST /v1/chat/completions (search only)",
      expected: 404,
      send: { method: "POST", url: "/v1/chat/completions", payload: { model: "semcache-warm-up", messages: [{ role: "user", content: QUESTION }], search_only: true } },
    },
  ];
  const answered: WarmUpRequest[] = [];
  for (const { route, expected, send } of requests) {
    const response = await app.inject(send);
    answered.push({ route, statusCode: response.statusCode, expected });
  }
  return answered;
}

/**
 * Reads the real store as a lookup does (exact key, index search, candidates' rows), writing nothing. The exact
 * read asks for a stored entry's own key when there is one, so the store's found-row path runs too.
 */
async function readStore(cache: Cache, vector: EmbeddingOutput | undefined): Promise<void> {
  const { dataManager, config } = cache;
  for await (const stored of dataManager.entries(1)) {
    await dataManager.findExact(stored.keyHash);
    break;
  }
  await dataManager.findExact(keyHash(partitionOf({}, config.partitionKeys), keyText(QUESTION)));
  if (!dataManager.vector || vector === undefined || typeof vector === "string") return;
  for (const hit of await dataManager.search(vector, config.topK)) await dataManager.getScalarData(hit.id);
}

/**
 * Node's own HTTP server and client code, on a loopback round trip to a throwaway server (the app's own server
 * is not listening yet, and a request to it would be a caller's). A host with no IPv4 loopback skips it.
 */
async function warmNodeHttp(): Promise<void> {
  const server = createServer((request, response) => {
    request.resume();
    request.on("end", () => response.setHeader("content-type", "application/json").end("{}"));
  });
  try {
    await new Promise<void>((resolve, reject) => server.once("error", reject).listen(0, "127.0.0.1", resolve));
    const { port } = server.address() as AddressInfo;
    await new Promise<void>((resolve, reject) => {
      const sent = httpRequest({ host: "127.0.0.1", port, method: "POST", path: "/", agent: false, headers: { "content-type": "application/json" } }, (response) => {
        response.resume();
        response.on("end", resolve).on("error", reject);
      });
      sent.on("error", reject);
      sent.end("{}");
    });
  } catch {
    // Only a warm-up: the first request pays for what it did not compile.
  } finally {
    await new Promise((resolve) => server.close(resolve));
  }
}

/**
 * Runs the app's request path once (see above) before it listens; resolves with each warm-up request's status
 * (one that is not the expected status is also logged as a warning). Nothing it does is counted or stored.
 */
export async function warmUp(app: FastifyInstance): Promise<WarmUpRequest[]> {
  if (app.server.listening) throw new ValidationError("warmUp runs before the app listens: a caller's request could be answered from the warm-up's cache.");
  await app.ready();
  const state = app.semcache;
  const { cache, service, mapCache, metrics, namespaceStats, dashboard, auth } = state;
  const real: Partial<ServerState> = { cache, service, mapCache, metrics, namespaceStats, dashboard, auth };
  const embedding = embedOnce(cache.embeddingFunc);
  const scratch = await scratchCache(cache, embedding);
  let answered: WarmUpRequest[];
  try {
    Object.assign(state, {
      cache: scratch,
      service: new CacheService(scratch),
      mapCache: await createMapCache(scratch),
      metrics: new Metrics(),
      namespaceStats: new NamespaceStats([]),
      dashboard: new DashboardStats(),
      // Every warm-up request is a caller who may do anything, keys or not.
      auth: new Authenticator({ ...state.settings, keys: new Map(), namespaces: undefined }),
    });
    answered = await injectRequests(app);
  } finally {
    Object.assign(state, real);
    await scratch.close();
  }
  for (const { route, statusCode, expected } of answered) {
    if (statusCode !== expected) app.log.warn(`warm-up: ${route} answered ${statusCode}, not ${expected}, so its first request may be slower`);
  }
  try {
    await readStore(cache, await embedding.first?.catch(() => undefined));
  } catch (error) {
    // A store that fails a read now fails open on requests as well: no reason to refuse to start.
    app.log.warn({ err: error }, "warm-up: reading the store failed, so the first request may be slower");
  }
  await warmNodeHttp();
  return answered;
}
