import { createRequire } from "node:module";
import { StoreError } from "../../../core/errors.js";
import { importOptional } from "../../../core/optional-import.js";
import type { VectorDatabase } from "../database-index.js";
import type { LangChainVectorStoreLike } from "../store-profiles.js";
import { vectorsOnlyEmbeddings } from "../vectors-only-embeddings.js";
import { DatabaseOptions, Held, redactUrl, type DatabaseParams } from "./options.js";

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
 * (default "semcache:<index>:"), `m` (16), `efConstruction` (200), `efRuntime` (100).
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

  const client = new Held<RedisClient>();

  /** FT.INFO of the index, or undefined when there is none. */
  async function info(): Promise<Map<string, unknown> | undefined> {
    try {
      return pairs(await client.get().sendCommand(["FT.INFO", indexName]));
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
      const redis = await redisOfLangChain();
      let ready = false;
      const created = redis.createClient({
        url,
        // Fail fast while the cache starts; once connected, reconnect for as long as it takes.
        socket: { reconnectStrategy: (retries: number) => (ready ? Math.min(100 * retries, 3000) : false) },
        // A command sent while disconnected fails at once (the cache fails open) instead of waiting.
        disableOfflineQueue: true,
      });
      created.on("error", () => undefined);
      created.on("ready", () => (ready = true));
      client.set(created);
      await created.connect();
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
        redisClient: client.get(),
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
      if ((await info()) !== undefined) await client.get().sendCommand(["FT.DROPINDEX", indexName, "DD"]);
    },

    async close() {
      const open = client.take();
      await open?.quit().catch(() => open.disconnect());
    },
  };
}
