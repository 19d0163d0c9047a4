import type { QdrantClient } from "@qdrant/js-client-rest";
import { StoreError } from "../../../core/errors.js";
import { importOptional } from "../../../core/optional-import.js";
import type { VectorDatabase } from "../database-index.js";
import type { LangChainVectorStoreLike } from "../store-profiles.js";
import { vectorsOnlyEmbeddings } from "../vectors-only-embeddings.js";
import { DatabaseOptions, Held, redactUrl, type DatabaseParams } from "./options.js";

const KIND = "qdrant";
const FEATURE = 'The "qdrant" vector store';

type QdrantStoreClass = new (embeddings: unknown, args: Record<string, unknown>) => LangChainVectorStoreLike;

/** The size and distance of a collection's unnamed vector (named vectors are not the cache's layout). */
function vectorParamsOf(info: Awaited<ReturnType<QdrantClient["getCollection"]>>): { size?: number; distance?: string } {
  const vectors = info.config?.params?.vectors as { size?: number; distance?: string } | undefined;
  return { size: vectors?.size, distance: vectors?.distance };
}

/**
 * Qdrant through LangChain's QdrantVectorStore: one collection with the Cosine distance (scores are cosine
 * similarities), points upserted under the record's UUID.
 *
 * vectorParams: `url` (else SEMCACHE_QDRANT_URL), `apiKey` (else SEMCACHE_QDRANT_API_KEY), `collection` (default
 * semcache_vectors), `m` (16), `efConstruction` (100).
 */
export function qdrantDatabase(params: DatabaseParams): VectorDatabase {
  const options = new DatabaseOptions(KIND, params);
  const url = options.url("url", ["SEMCACHE_QDRANT_URL"]);
  const apiKey = options.fromEnv("apiKey", ["SEMCACHE_QDRANT_API_KEY"]);
  const name = options.name("collection", "semcache_vectors", /^[A-Za-z0-9_-]{1,255}$/);
  const hnswConfig = { m: options.integer("m", 16, 2), ef_construct: options.integer("efConstruction", 100, 4) };

  const client = new Held<QdrantClient>();

  return {
    kind: KIND,
    location: `${redactUrl(url)}, collection ${name}`,
    score: "cosine-similarity",
    upserts: true,

    async open() {
      const { QdrantClient: Client } = await importOptional<{ QdrantClient: typeof QdrantClient }>("@qdrant/js-client-rest", FEATURE);
      // timeout (ms): each request is aborted then too, so an abandoned one frees its connection.
      await client.set(new Client({ url, apiKey, checkCompatibility: false, timeout: options.timeoutMs() })).getCollections();
    },

    async dimension() {
      const qdrant = client.get();
      if (!(await qdrant.collectionExists(name)).exists) return 0;
      const { size, distance } = vectorParamsOf(await qdrant.getCollection(name));
      if (distance !== "Cosine") {
        throw new StoreError(KIND, `collection ${name} at ${redactUrl(url)} uses the ${distance ?? "named-vector"} layout; the cache needs one Cosine vector`);
      }
      return size ?? 0;
    },

    async store(dimension) {
      const qdrant = client.get();
      const vectors = { size: dimension, distance: "Cosine" as const };
      if (!(await qdrant.collectionExists(name)).exists) await qdrant.createCollection(name, { vectors, hnsw_config: hnswConfig });
      const { QdrantVectorStore } = await importOptional<{ QdrantVectorStore: QdrantStoreClass }>("@langchain/qdrant", FEATURE);
      return new QdrantVectorStore(vectorsOnlyEmbeddings, { client: qdrant, collectionName: name, collectionConfig: { vectors } });
    },

    async count() {
      const qdrant = client.get();
      if (!(await qdrant.collectionExists(name)).exists) return 0;
      return (await qdrant.count(name, { exact: true })).count;
    },

    async clear() {
      const qdrant = client.get();
      // Points only (an empty filter matches all: qdrant/qdrant#3298): the collection stays for the replicas using it.
      if ((await qdrant.collectionExists(name)).exists) await qdrant.delete(name, { wait: true, filter: {} });
    },

    async close() {
      client.take();
    },
  };
}
