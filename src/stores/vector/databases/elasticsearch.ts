import type { Client } from "@elastic/elasticsearch";
import { StoreError } from "../../../core/errors.js";
import { importOptional } from "../../../core/optional-import.js";
import type { VectorDatabase } from "../database-index.js";
import type { LangChainVectorStoreLike } from "../store-profiles.js";
import { vectorsOnlyEmbeddings } from "../vectors-only-embeddings.js";
import { DatabaseOptions, Held, redactUrl, type DatabaseParams } from "./options.js";

const KIND = "elasticsearch";
const FEATURE = 'The "elasticsearch" vector store';

type ElasticStore = LangChainVectorStoreLike & {
  ensureIndexExists(dimension: number, engine: string, similarity: string, efConstruction: number, m: number): Promise<void>;
};
type ElasticStoreClass = new (embeddings: unknown, args: Record<string, unknown>) => ElasticStore;

/** The `embedding` mapping of an index (LangChain's layout), from a get-mapping answer. */
function embeddingMapping(answer: Awaited<ReturnType<Client["indices"]["getMapping"]>>): { dims?: number; similarity?: string } | undefined {
  return Object.values(answer)[0]?.mappings?.properties?.embedding as { dims?: number; similarity?: string } | undefined;
}

/**
 * Elasticsearch 8 through LangChain's ElasticVectorSearch: one index whose `embedding` field is a dense_vector
 * with the cosine similarity and an HNSW graph (scores are (1 + cosine) / 2); writes refresh the index, so a put
 * is searchable when it returns.
 *
 * vectorParams: `url` (else SEMCACHE_ELASTICSEARCH_URL), `apiKey` (else SEMCACHE_ELASTICSEARCH_API_KEY; or a
 * user and password in the URL), `collection` (index, default semcache_vectors), `m` (16), `efConstruction`
 * (100), `candidates` (num_candidates per search, 200).
 */
export function elasticsearchDatabase(params: DatabaseParams): VectorDatabase {
  const options = new DatabaseOptions(KIND, params);
  const url = options.url("url", ["SEMCACHE_ELASTICSEARCH_URL"]);
  const apiKey = options.fromEnv("apiKey", ["SEMCACHE_ELASTICSEARCH_API_KEY"]);
  const index = options.name("collection", "semcache_vectors", /^[a-z0-9][a-z0-9_-]{0,254}$/);
  const m = options.integer("m", 16, 2);
  const efConstruction = options.integer("efConstruction", 100, 4);
  const candidates = options.integer("candidates", 200);
  const timeoutMs = options.timeoutMs();

  const client = new Held<Client>();

  return {
    kind: KIND,
    location: `${redactUrl(url)}, index ${index}`,
    score: "cosine-similarity-scaled",
    upserts: true,

    async open() {
      const { Client: ElasticClient } = await importOptional<{ Client: typeof Client }>("@elastic/elasticsearch", FEATURE);
      await client.set(new ElasticClient({ node: url, auth: apiKey === undefined ? undefined : { apiKey }, requestTimeout: timeoutMs })).info();
    },

    async dimension() {
      const elastic = client.get();
      if (!(await elastic.indices.exists({ index }))) return 0;
      const mapping = embeddingMapping(await elastic.indices.getMapping({ index }));
      if (mapping?.similarity !== "cosine") {
        throw new StoreError(KIND, `index ${index} at ${redactUrl(url)} has no embedding field with the cosine similarity`);
      }
      return mapping.dims ?? 0;
    },

    async store(dimension) {
      const { ElasticVectorSearch } = await importOptional<{ ElasticVectorSearch: ElasticStoreClass }>(
        "@langchain/community/vectorstores/elasticsearch",
        FEATURE,
      );
      const store = new ElasticVectorSearch(vectorsOnlyEmbeddings, {
        client: client.get(),
        indexName: index,
        vectorSearchOptions: { engine: "hnsw", similarity: "cosine", m, efConstruction, candidates },
      });
      await store.ensureIndexExists(dimension, "hnsw", "cosine", efConstruction, m);
      return store;
    },

    async count() {
      const elastic = client.get();
      if (!(await elastic.indices.exists({ index }))) return 0;
      return (await elastic.count({ index })).count;
    },

    async clear() {
      // Documents only: the index and its mapping stay for the replicas using it.
      const elastic = client.get();
      if (await elastic.indices.exists({ index })) await elastic.deleteByQuery({ index, query: { match_all: {} }, refresh: true });
    },

    async close() {
      await client.take()?.close();
    },
  };
}
