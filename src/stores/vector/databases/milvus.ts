import type * as MilvusSdk from "@zilliz/milvus2-sdk-node";
import type { MilvusClient } from "@zilliz/milvus2-sdk-node";
import { StoreError } from "../../../core/errors.js";
import { importOptional } from "../../../core/optional-import.js";
import { RECORD_ID_KEY, type VectorDatabase } from "../database-index.js";
import type { LangChainVectorStoreLike } from "../store-profiles.js";
import { vectorsOnlyEmbeddings } from "../vectors-only-embeddings.js";
import { DatabaseOptions, Held, redactUrl, type DatabaseParams } from "./options.js";

const KIND = "milvus";
const FEATURE = 'The "milvus" vector store';
/** The field names LangChain's Milvus class uses. */
const PRIMARY = "langchain_primaryid";
const TEXT = "langchain_text";
const VECTOR = "langchain_vector";

type MilvusModule = typeof MilvusSdk;
type MilvusStore = LangChainVectorStoreLike & { client: MilvusClient };
type MilvusStoreClass = new (embeddings: unknown, args: Record<string, unknown>) => MilvusStore;

/** Milvus answers most failures with a status instead of throwing. */
function check(what: string, status: { error_code?: string | number; reason?: string } | undefined): void {
  if (status && status.error_code !== "Success" && status.error_code !== 0) {
    throw new Error(`${what}: ${status.reason || JSON.stringify(status)}`);
  }
}

/**
 * Milvus (or Zilliz Cloud) through LangChain's Milvus class: a collection created here with string primary keys
 * (the record UUIDs, so puts upsert), Strong consistency (a put is searchable at once), and an HNSW index with the
 * COSINE metric (scores are cosine similarities).
 *
 * vectorParams: `url` (else SEMCACHE_MILVUS_URL; host:19530), `token` (else SEMCACHE_MILVUS_TOKEN), `username`,
 * `password`, `collection` (default semcache_vectors), `m` (16), `efConstruction` (200), `ef` (search, 128; Milvus
 * refuses a topK above it).
 */
export function milvusDatabase(params: DatabaseParams): VectorDatabase {
  const options = new DatabaseOptions(KIND, params);
  const url = options.url("url", ["SEMCACHE_MILVUS_URL"]);
  const token = options.fromEnv("token", ["SEMCACHE_MILVUS_TOKEN"]);
  const username = options.string("username");
  const password = options.string("password");
  const name = options.name("collection", "semcache_vectors");
  const m = options.integer("m", 16, 2);
  const efConstruction = options.integer("efConstruction", 200, 4);
  const ef = options.integer("ef", 128);
  // timeout: each gRPC call's deadline (ms).
  const clientConfig = { address: url, token, username, password, timeout: options.timeoutMs() };

  let milvus: MilvusModule | undefined;
  const client = new Held<MilvusClient>();

  async function exists(): Promise<boolean> {
    const answer = await client.get().hasCollection({ collection_name: name });
    check("hasCollection", answer.status);
    return answer.value === true;
  }

  async function create(dimension: number): Promise<void> {
    const { DataType } = milvus!;
    const milvusClient = client.get();
    check(
      "createCollection",
      await milvusClient.createCollection({
        collection_name: name,
        consistency_level: "Strong",
        fields: [
          { name: PRIMARY, data_type: DataType.VarChar, is_primary_key: true, autoID: false, max_length: 64 },
          { name: TEXT, data_type: DataType.VarChar, max_length: 16 },
          { name: RECORD_ID_KEY, data_type: DataType.VarChar, max_length: 20 },
          { name: VECTOR, data_type: DataType.FloatVector, dim: dimension },
        ],
      }),
    );
    check(
      "createIndex",
      await milvusClient.createIndex({
        collection_name: name,
        field_name: VECTOR,
        index_type: "HNSW",
        metric_type: "COSINE",
        params: { M: m, efConstruction },
      }),
    );
  }

  return {
    kind: KIND,
    location: `${redactUrl(url.includes("://") ? url : `http://${url}`)}, collection ${name}`,
    score: "cosine-similarity",
    upserts: true,

    async open() {
      milvus = await importOptional<MilvusModule>("@zilliz/milvus2-sdk-node", FEATURE);
      client.set(new milvus.MilvusClient(clientConfig));
      await exists();
    },

    async dimension() {
      if (!(await exists())) return 0;
      const milvusClient = client.get();
      const description = await milvusClient.describeCollection({ collection_name: name });
      check("describeCollection", description.status);
      const vector = description.schema.fields.find((field) => field.name === VECTOR);
      const index = await milvusClient.describeIndex({ collection_name: name, field_name: VECTOR });
      const metric = index.index_descriptions?.[0]?.params.find((param) => param.key === "metric_type")?.value;
      if (vector === undefined || metric !== "COSINE") {
        throw new StoreError(KIND, `collection ${name} at ${redactUrl(url)} has no ${VECTOR} field with a COSINE index (metric ${metric})`);
      }
      const dim = vector.dim ?? vector.type_params.find((param) => param.key === "dim")?.value;
      return Number(dim) || 0;
    },

    async store(dimension) {
      if (!(await exists())) await create(dimension);
      check("loadCollection", await client.get().loadCollectionSync({ collection_name: name }));
      const { Milvus } = await importOptional<{ Milvus: MilvusStoreClass }>("@langchain/community/vectorstores/milvus", FEATURE);
      const store = new Milvus(vectorsOnlyEmbeddings, {
        collectionName: name,
        url,
        clientConfig,
        autoId: false,
        primaryField: PRIMARY,
        textField: TEXT,
        vectorField: VECTOR,
        indexCreateOptions: { index_type: "HNSW", metric_type: "COSINE", params: { M: m, efConstruction }, search_params: { ef } },
      });
      // One connection: the store uses ours instead of the one its constructor opened.
      const own = store.client;
      store.client = client.get();
      await own.closeConnection();
      return store;
    },

    async count() {
      if (!(await exists())) return 0;
      const answer = await client.get().count({ collection_name: name });
      check("count", answer.status);
      return Number(answer.data);
    },

    async clear() {
      // Entities only: the collection, its index and its loaded state stay for the replicas using it.
      if (await exists()) check("delete", (await client.get().delete({ collection_name: name, filter: `${RECORD_ID_KEY} != ""` })).status);
    },

    async close() {
      await client.take()?.closeConnection();
    },
  };
}
