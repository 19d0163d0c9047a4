import type { Collection, Document, MongoClient } from "mongodb";
import { StoreError } from "../../../core/errors.js";
import { importOptional } from "../../../core/optional-import.js";
import type { VectorDatabase } from "../database-index.js";
import type { LangChainVectorStoreLike } from "../store-profiles.js";
import { vectorsOnlyEmbeddings } from "../vectors-only-embeddings.js";
import { DatabaseOptions, Held, redactUrl, type DatabaseParams } from "./options.js";

const KIND = "mongodb-atlas";
const FEATURE = 'The "mongodb-atlas" vector store';
const EMBEDDING = "embedding";
const NAMESPACE_EXISTS = 48;

type AtlasStoreClass = new (embeddings: unknown, args: Record<string, unknown>) => LangChainVectorStoreLike;

interface VectorField {
  type?: string;
  path?: string;
  numDimensions?: number;
  similarity?: string;
}

/** The vector field of a search index definition, if it has one on our path. */
function vectorFieldOf(index: Document | undefined): VectorField | undefined {
  const fields = ((index?.latestDefinition ?? index?.definition) as { fields?: VectorField[] } | undefined)?.fields ?? [];
  return fields.find((field) => field.type === "vector" && field.path === EMBEDDING);
}

/**
 * MongoDB Atlas Vector Search (Atlas, or a local Atlas deployment) through LangChain's MongoDBAtlasVectorSearch:
 * one collection (documents keyed by the record UUID, upserted) and a vectorSearch index with the cosine
 * similarity (scores are (1 + cosine) / 2). A plain MongoDB server has no $vectorSearch and is refused at start.
 * Atlas updates search indexes asynchronously: a put becomes searchable about a second later.
 *
 * vectorParams: `url` (else SEMCACHE_MONGODB_ATLAS_URL, SEMCACHE_MONGODB_URL or MONGODB_URI), `database` (default semcache),
 * `collection` (default semcache_vectors), `indexName` (default semcache_vector_index), `readyTimeoutMs` (how long
 * to wait for a new index to become queryable, 120000), `connectTimeoutMs` (10000).
 */
export function mongodbAtlasDatabase(params: DatabaseParams): VectorDatabase {
  const options = new DatabaseOptions(KIND, params);
  const url = options.url("url", ["SEMCACHE_MONGODB_ATLAS_URL", "SEMCACHE_MONGODB_URL", "MONGODB_URI"]);
  const databaseName = options.name("database", "semcache", /^[A-Za-z0-9_-]{1,63}$/);
  const name = options.name("collection", "semcache_vectors", /^[A-Za-z0-9_.-]{1,120}$/);
  const indexName = options.name("indexName", "semcache_vector_index", /^[A-Za-z0-9_-]{1,64}$/);
  const readyTimeoutMs = options.integer("readyTimeoutMs", 120_000);
  const connectTimeoutMs = options.integer("connectTimeoutMs", 10_000);
  const timeoutMs = options.timeoutMs();

  const client = new Held<MongoClient>();

  function collection(): Collection {
    return client.get().db(databaseName).collection(name);
  }

  async function searchIndex(): Promise<Document | undefined> {
    return (await collection().listSearchIndexes(indexName).toArray())[0];
  }

  /** Waits until Atlas has built the index (searches fail or find nothing before). */
  async function queryable(): Promise<void> {
    const deadline = Date.now() + readyTimeoutMs;
    while ((await searchIndex())?.queryable !== true) {
      if (Date.now() > deadline) throw new StoreError(KIND, `search index ${indexName} did not become queryable within ${readyTimeoutMs} ms`);
      await new Promise((resolve) => setTimeout(resolve, 1000));
    }
  }

  return {
    kind: KIND,
    location: `${redactUrl(url)}, ${databaseName}.${name}, index ${indexName}`,
    score: "cosine-similarity-scaled",
    upserts: true,
    // A new search index is polled (each request bounded) until queryable.
    slowStepsMs: { store: readyTimeoutMs },

    async open() {
      const { MongoClient: Client } = await importOptional<{ MongoClient: typeof MongoClient }>("mongodb", FEATURE);
      // The driver closes a connection whose operation ran past socketTimeoutMS: a silent one is not reused.
      await client.set(new Client(url, { serverSelectionTimeoutMS: connectTimeoutMs, socketTimeoutMS: timeoutMs, waitQueueTimeoutMS: timeoutMs })).connect();
    },

    async dimension() {
      let index: Document | undefined;
      try {
        index = await searchIndex();
      } catch (error) {
        throw new StoreError(KIND, `${redactUrl(url)} has no Atlas Search (listSearchIndexes failed: ${(error as Error).message})`, { cause: error });
      }
      if (index === undefined) return 0;
      const field = vectorFieldOf(index);
      if (field?.similarity !== "cosine") {
        throw new StoreError(KIND, `search index ${indexName} has no cosine vector field on "${EMBEDDING}"`);
      }
      return field.numDimensions ?? 0;
    },

    async store(dimension) {
      const target = collection();
      if ((await searchIndex()) === undefined) {
        await client
          .get()
          .db(databaseName)
          .createCollection(name)
          .catch((error: { code?: number }) => {
            if (error?.code !== NAMESPACE_EXISTS) throw error;
          });
        await target.createSearchIndex({
          name: indexName,
          type: "vectorSearch",
          definition: { fields: [{ type: "vector", path: EMBEDDING, numDimensions: dimension, similarity: "cosine" }] },
        });
      }
      await queryable();
      const { MongoDBAtlasVectorSearch } = await importOptional<{ MongoDBAtlasVectorSearch: AtlasStoreClass }>("@langchain/mongodb", FEATURE);
      return new MongoDBAtlasVectorSearch(vectorsOnlyEmbeddings, { collection: target, indexName, textKey: "text", embeddingKey: EMBEDDING });
    },

    async count() {
      return collection().countDocuments();
    },

    async clear() {
      await collection().deleteMany({});
    },

    async close() {
      await client.take()?.close();
    },
  };
}
