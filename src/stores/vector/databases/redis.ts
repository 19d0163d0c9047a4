import { createRequire } from "node:module";
import { StoreError } from "../../../core/errors.js";
import { importOptional } from "../../../core/optional-import.js";
import type { VectorDatabase } from "../database-index.js";
import type { LangChainVectorStoreLike } from "../store-profiles.js";
import { vectorsOnlyEmbeddings } from "../vectors-only-embeddings.js";
import { DatabaseOptions, redactUrl, type DatabaseParams } from "./options.js";

const KIND = "redis";
const FEATURE = 'The "redis" vector store';
const VECTOR_FIELD = "content_vector";

/** The part of a node-redis v4 client used here and by RedisVectorStore. */
interface RedisClient {
  connect(): Promise<unknown>;
  quit(): Promise<unknown>;
  disconnect(): Promise<unknown>;
  on(event: "error" | "ready", listener: (...args: unknown[]) => void): unknown;
  sendCommand(args: string[]): Promise<unknown>;
}
interface RedisModule {
  createClient(options: Record<string, unknown>): RedisClient;
}
/** A client and its connect() (settled once it has connected or given up). */
interface Connection {
  client: RedisClient;
  connected: Promise<unknown>;
}
type RedisStoreClass = new (embeddings: unknown, args: Record<string, unknown>) => LangChainVectorStoreLike & {
  createIndex(dimensions: number): Promise<void>;
};

/**
 * The `redis` package as @langchain/redis resolves it: it is written against node-redis v4 and installs its own
 * copy when the application has another major version, and its client must come from that copy.
 */
async function redisOfLangChain(): Promise<RedisModule> {
  await importOptional("@langchain/redis", FEATURE);
  const require = createRequire(import.meta.url);
  return createRequire(require.resolve("@langchain/redis"))("redis") as RedisModule;
}

/** FT.INFO's flat [key, value, ...] reply as a map (node-redis v4 parses it by position, which varies by version). */
function pairs(reply: unknown): Map<string, unknown> {
  const map = new Map<string, unknown>();
  const list = Array.isArray(reply) ? reply : [];
  for (let i = 0; i + 1 < list.length; i += 2) map.set(String(list[i]).toLowerCase(), list[i + 1]);
  return map;
}

/**
 * Redis with vector search (Redis 8, Redis Stack, or the RediSearch 2.4+ module) through LangChain's
 * RedisVectorStore: one HNSW index with the COSINE metric over hashes under a key prefix (scores are cosine
 * distances). A Redis without the search commands is refused at start with a clear error.
 *
 * vectorParams: `url` (else SEMCACHE_REDIS_URL, else REDIS_URL), `collection` (index name, default semcache_vectors), `keyPrefix`
 * (default "semcache:<index>:"), `m` (16), `efConstruction` (200), `efRuntime` (100), `timeoutMs` (5000: also the
 * socket's connect timeout; past it DatabaseVectorIndex calls reset(), which drops the client).
 */
export function redisDatabase(params: DatabaseParams): VectorDatabase {
  const options = new DatabaseOptions(KIND, params);
  const url = options.url("url", ["SEMCACHE_REDIS_URL", "REDIS_URL"]);
  const indexName = options.name("collection", "semcache_vectors", /^[A-Za-z0-9_:-]{1,128}$/);
  const keyPrefix = options.string("keyPrefix", `semcache:${indexName}:`);
  const indexOptions = {
    ALGORITHM: "HNSW",
    DISTANCE_METRIC: "COSINE",
    M: options.integer("m", 16, 2),
    EF_CONSTRUCTION: options.integer("efConstruction", 200, 4),
    EF_RUNTIME: options.integer("efRuntime", 100),
  };

  const timeoutMs = options.timeoutMs();
  /** The client, made on first use and again after reset(). */
  let held: Connection | undefined;
  /** The client close() is quitting: QUIT waits forever on a silent server, so reset() drops it too. */
  let closing: RedisClient | undefined;
  /** After close(), a call still under way must not open a client nothing would quit. */
  let closed = false;

  function connect(redis: RedisModule): Connection {
    let ready = false;
    const created = redis.createClient({
      url,
      socket: {
        connectTimeout: timeoutMs,
        // Fail fast while connecting; once connected, reconnect for as long as it takes.
        reconnectStrategy: (retries: number) => (ready ? Math.min(100 * retries, 3000) : false),
      },
      // A command sent while disconnected fails at once (the cache fails open) instead of waiting.
      disableOfflineQueue: true,
    });
    created.on("error", () => undefined);
    created.on("ready", () => (ready = true));
    return { client: created, connected: created.connect() };
  }

  async function client(): Promise<RedisClient> {
    if (closed) throw new StoreError(KIND, "the store is closed");
    if (held === undefined) {
      const redis = await redisOfLangChain();
      held ??= connect(redis);
    }
    const mine = held;
    try {
      await mine.connected;
    } catch (error) {
      if (held === mine) held = undefined;
      throw error;
    }
    return mine.client;
  }

  /** FT.INFO of the index, or undefined when there is none. */
  async function info(): Promise<Map<string, unknown> | undefined> {
    try {
      return pairs(await (await client()).sendCommand(["FT.INFO", indexName]));
    } catch (error) {
      const message = String((error as Error)?.message);
      if (/unknown command/i.test(message)) {
        throw new StoreError(KIND, `${redactUrl(url)} has no vector search (FT.* commands): use Redis 8, Redis Stack or the RediSearch module`);
      }
      if (/unknown index|no such index/i.test(message)) return undefined;
      throw error;
    }
  }

  return {
    kind: KIND,
    location: `${redactUrl(url)}, index ${indexName}`,
    score: "cosine-distance",
    upserts: true,

    async open() {
      closed = false;
      await client();
    },

    async dimension() {
      const index = await info();
      if (index === undefined) return 0;
      const attributes = (index.get("attributes") as unknown[] | undefined) ?? [];
      const vector = attributes.map(pairs).find((attribute) => attribute.get("identifier") === VECTOR_FIELD);
      const metric = String(vector?.get("distance_metric") ?? "").toUpperCase();
      if (vector !== undefined && metric !== "" && metric !== "COSINE") {
        throw new StoreError(KIND, `index ${indexName} at ${redactUrl(url)} uses the ${metric} metric; the cache needs COSINE`);
      }
      return Number(vector?.get("dim")) || 0;
    },

    async store(dimension) {
      const { RedisVectorStore } = await importOptional<{ RedisVectorStore: RedisStoreClass }>("@langchain/redis", FEATURE);
      const store = new RedisVectorStore(vectorsOnlyEmbeddings, {
        redisClient: await client(),
        indexName,
        keyPrefix,
        vectorKey: VECTOR_FIELD,
        indexOptions,
      });
      await store.createIndex(dimension);
      return store;
    },

    /** RedisVectorStore.addVectors takes whole keys; its delete({ ids }) prefixes them the same way. */
    addOptions(documentIds) {
      return { keys: documentIds.map((id) => `${keyPrefix}${id}`) };
    },

    async count() {
      return Number((await info())?.get("num_docs") ?? 0);
    },

    async clear() {
      // Drops the index with its documents; store() creates it again at once.
      if ((await info()) !== undefined) await (await client()).sendCommand(["FT.DROPINDEX", indexName, "DD"]);
    },

    /** Drops the socket at once (pending commands fail); the next call connects afresh. */
    reset() {
      for (const dropped of [held?.client, closing]) void dropped?.disconnect().catch(() => undefined);
      held = undefined;
      closing = undefined;
    },

    async close() {
      closed = true;
      const open = held;
      held = undefined;
      if (open === undefined) return;
      closing = open.client;
      if (await open.connected.then(() => true, () => false)) {
        await open.client.quit().catch(() => open.client.disconnect().catch(() => undefined));
      }
      if (closing === open.client) closing = undefined;
    },
  };
}
