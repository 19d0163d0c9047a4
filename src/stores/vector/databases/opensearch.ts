import type { Client } from "@opensearch-project/opensearch";
import { StoreError } from "../../../core/errors.js";
import { importOptional } from "../../../core/optional-import.js";
import type { VectorDatabase } from "../database-index.js";
import type { LangChainVectorStoreLike } from "../store-profiles.js";
import { vectorsOnlyEmbeddings } from "../vectors-only-embeddings.js";
import { DatabaseOptions, Held, redactUrl, type DatabaseParams } from "./options.js";

const KIND = "opensearch";
const FEATURE = 'The "opensearch" vector store';
const ENGINE = "lucene";
const SPACE = "cosinesimil";

type OpenSearchStore = LangChainVectorStoreLike & {
  ensureIndexExists(
    dimension: number,
    engine: string,
    spaceType: string,
    efSearch: number,
    efConstruction: number,
    numberOfShards: number,
    numberOfReplicas: number,
    m: number,
  ): Promise<void>;
};
type OpenSearchStoreClass = new (embeddings: unknown, args: Record<string, unknown>) => OpenSearchStore;

/**
 * OpenSearch through LangChain's OpenSearchVectorStore: one k-NN index whose `embedding` field uses the Lucene
 * engine's HNSW in the cosinesimil space (scores are (1 + cosine) / 2; nmslib, LangChain's default, is deprecated).
 * The class cannot delete, so deletes are bulk requests here; writes refresh the index.
 *
 * vectorParams: `url` (else SEMCACHE_OPENSEARCH_URL; a user and password may be in the URL), `collection` (index,
 * default semcache_vectors), `m` (16), `efConstruction` (128), `shards` (1), `replicas` (0).
 */
export function opensearchDatabase(params: DatabaseParams): VectorDatabase {
  const options = new DatabaseOptions(KIND, params);
  const url = options.url("url", ["SEMCACHE_OPENSEARCH_URL"]);
  const index = options.name("collection", "semcache_vectors", /^[a-z0-9][a-z0-9_-]{0,254}$/);
  const m = options.integer("m", 16, 2);
  const efConstruction = options.integer("efConstruction", 128, 4);
  const shards = options.integer("shards", 1);
  const replicas = options.integer("replicas", 0, 0);
  const timeoutMs = options.timeoutMs();

  const client = new Held<Client>();

  async function exists(): Promise<boolean> {
    return (await client.get().indices.exists({ index })).body === true;
  }

  return {
    kind: KIND,
    location: `${redactUrl(url)}, index ${index}`,
    score: "cosine-similarity-scaled",
    upserts: true,

    async open() {
      const { Client: OpenSearchClient } = await importOptional<{ Client: typeof Client }>("@opensearch-project/opensearch", FEATURE);
      await client.set(new OpenSearchClient({ node: url, requestTimeout: timeoutMs })).info();
    },

    async dimension() {
      if (!(await exists())) return 0;
      const answer = (await client.get().indices.getMapping({ index })).body as Record<
        string,
        { mappings?: { properties?: Record<string, { dimension?: number; method?: { engine?: string; space_type?: string } }> } }
      >;
      const field = Object.values(answer)[0]?.mappings?.properties?.embedding;
      if (field?.method?.engine !== ENGINE || field.method.space_type !== SPACE) {
        throw new StoreError(KIND, `index ${index} at ${redactUrl(url)} has no embedding field in the ${ENGINE} ${SPACE} space`);
      }
      return field.dimension ?? 0;
    },

    async store(dimension) {
      const { OpenSearchVectorStore } = await importOptional<{ OpenSearchVectorStore: OpenSearchStoreClass }>(
        "@langchain/community/vectorstores/opensearch",
        FEATURE,
      );
      const store = new OpenSearchVectorStore(vectorsOnlyEmbeddings, {
        client: client.get(),
        indexName: index,
        vectorSearchOptions: { engine: ENGINE, spaceType: SPACE, m, efConstruction, numberOfShards: shards, numberOfReplicas: replicas },
      });
      await store.ensureIndexExists(dimension, ENGINE, SPACE, 100, efConstruction, shards, replicas, m);
      return store;
    },

    async delete(documentIds) {
      await client.get().bulk({ body: documentIds.map((id) => ({ delete: { _index: index, _id: id } })), refresh: true });
    },

    async count() {
      if (!(await exists())) return 0;
      return Number((await client.get().count({ index })).body.count);
    },

    async clear() {
      // Documents only: the index and its mapping stay for the replicas using it.
      if (await exists()) await client.get().deleteByQuery({ index, body: { query: { match_all: {} } }, refresh: true });
    },

    async close() {
      await client.take()?.close();
    },
  };
}
