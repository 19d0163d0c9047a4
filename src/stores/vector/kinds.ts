/**
 * Vector index kinds by name, for factory strings such as "sqlite,hnswlib". Every vector package loads
 * lazily inside init(), so importing this module loads none of them.
 */
import { UnknownKindError, ValidationError } from "../../core/errors.js";
import { importOptional } from "../../core/optional-import.js";
import { integerBetween } from "../../core/validation.js";
import { DatabaseVectorIndex, type VectorDatabase } from "./database-index.js";
import { chromaDatabase } from "./databases/chroma.js";
import { elasticsearchDatabase } from "./databases/elasticsearch.js";
import { lancedbDatabase } from "./databases/lancedb.js";
import { milvusDatabase } from "./databases/milvus.js";
import { mongodbAtlasDatabase } from "./databases/mongodb-atlas.js";
import { opensearchDatabase } from "./databases/opensearch.js";
import { pgvectorDatabase } from "./databases/pgvector.js";
import { qdrantDatabase } from "./databases/qdrant.js";
import { redisDatabase } from "./databases/redis.js";
import { weaviateDatabase } from "./databases/weaviate.js";
import { FlatIndex } from "./flat.js";
import { DEFAULT_HNSW_EF, HnswIndex, type HnswIndexOptions } from "./hnsw.js";
import { LangChainVectorIndex, type LangChainVectorStoreLike } from "./langchain-bridge.js";
import type { ScoreKind } from "./score-mapping.js";
import { UsearchIndex, USEARCH_IDS, type UsearchIndexOptions } from "./usearch-index.js";
import { ThreadedUsearchIndex } from "./threaded-usearch-index.js";
import { ShardedIndex } from "./sharded-index.js";
import { shardFolder } from "./shard-folders.js";
import type { VectorIndex } from "../../core/contracts/vector-index.js";
import { vectorsOnlyEmbeddings } from "./vectors-only-embeddings.js";

/** In-process kinds, then vector databases (shared by replicas; see docs/vector-stores.md). */
export type VectorKind =
  | "hnswlib"
  | "flat"
  | "langchain-hnswlib"
  | "usearch"
  | "langchain-usearch"
  | "memory"
  | "faiss"
  | "pgvector"
  | "lancedb"
  | "chroma"
  | "qdrant"
  | "milvus"
  | "redis"
  | "weaviate"
  | "elasticsearch"
  | "opensearch"
  | "mongodb-atlas";

/**
 * vectorParams of the data manager: HnswIndex's and UsearchIndex's options (ef also tunes langchain-hnswlib; M,
 * efConstruction and ef stand in for usearch's connectivity, expansionAdd and expansionSearch), the bridge's, and
 * each database kind's connection and naming options (url, collection, ...; read and checked by the kind).
 */
export interface VectorIndexParams extends HnswIndexOptions, UsearchIndexOptions {
  /** A user's VectorStore: the unit of its scores, when the bridge cannot detect it. */
  score?: ScoreKind;
  /** A user's VectorStore: its `delete({ ids })` removes single documents. */
  deletesById?: boolean;
  /** Database kinds: the server (else an environment variable per kind, e.g. SEMCACHE_QDRANT_URL). */
  url?: string;
  /** Database kinds: the table, collection, index or class name. */
  collection?: string;
  /** Database kinds: the most one call to the database may take before it fails (the cache fails open), ms; default 5000. */
  timeoutMs?: number;
  /**
   * usearch: run the index in a thread of its own (ThreadedUsearchIndex), so its adds, loads and saves never hold
   * the event loop. Default false.
   */
  thread?: boolean;
  /**
   * usearch: spread the index over this many shards, each in a thread of its own (ShardedIndex), so a bulk add
   * builds on as many cores; a search asks every shard. Default 1 (one index), at most 64. A saved index keeps its count.
   * OpenSearch: the index's shards.
   */
  shards?: number;
  [option: string]: unknown;
}

/** True for a LangChain `VectorStore` (duck-typed, so a store from another copy of @langchain/core counts). */
export function isLangChainVectorStore(value: unknown): value is LangChainVectorStoreLike {
  const store = value as Partial<Record<keyof LangChainVectorStoreLike, unknown>> | null;
  return (
    typeof store === "object" &&
    store !== null &&
    typeof store.addVectors === "function" &&
    typeof store.similaritySearchVectorWithScore === "function" &&
    typeof store._vectorstoreType === "function"
  );
}

type StoreClass = new (embeddings: typeof vectorsOnlyEmbeddings, args: Record<string, unknown>) => LangChainVectorStoreLike;
type SaveableStoreClass = StoreClass & {
  load(directory: string, embeddings: typeof vectorsOnlyEmbeddings): Promise<LangChainVectorStoreLike>;
};

async function hnswlibStoreClass(): Promise<SaveableStoreClass> {
  const feature = 'The "langchain-hnswlib" vector store';
  await importOptional("hnswlib-node", feature);
  return (await importOptional<{ HNSWLib: SaveableStoreClass }>("@langchain/community/vectorstores/hnswlib", feature)).HNSWLib;
}

async function faissStoreClass(): Promise<SaveableStoreClass> {
  const feature = 'The "faiss" vector store';
  await importOptional("faiss-node", feature);
  return (await importOptional<{ FaissStore: SaveableStoreClass }>("@langchain/community/vectorstores/faiss", feature)).FaissStore;
}

function langchainHnswlib(params: VectorIndexParams): VectorIndex {
  const ef = params.ef ?? DEFAULT_HNSW_EF;
  // HNSWLib creates its hnswlib index on the first add, and again when it is empty, with ef = 10.
  const tune = (store: LangChainVectorStoreLike): void => {
    (store as { _index?: { setEf(ef: number): void } })._index?.setEf(ef);
  };
  const create = async (): Promise<LangChainVectorStoreLike> =>
    new (await hnswlibStoreClass())(vectorsOnlyEmbeddings, { space: "cosine", numDimensions: params.dimension || undefined });
  return new LangChainVectorIndex(create, {
    kind: "langchain-hnswlib",
    dimension: params.dimension,
    path: params.path,
    load: async (directory) => (await hnswlibStoreClass()).load(directory, vectorsOnlyEmbeddings),
    tune,
  });
}

/** A kind over a store class that cannot load a saved index: the data manager rebuilds it on start. */
function unsaved(kind: VectorKind, specifier: string, className: string): (params: VectorIndexParams) => VectorIndex {
  const create = async (): Promise<LangChainVectorStoreLike> => {
    const module = await importOptional<Record<string, StoreClass>>(specifier, `The "${kind}" vector store`);
    return new module[className](vectorsOnlyEmbeddings, {});
  };
  return (params) => new LangChainVectorIndex(create, { kind, dimension: params.dimension });
}

function faiss(params: VectorIndexParams): VectorIndex {
  return new LangChainVectorIndex(async () => new (await faissStoreClass())(vectorsOnlyEmbeddings, {}), {
    kind: "faiss",
    dimension: params.dimension,
    path: params.path,
    load: async (directory) => (await faissStoreClass()).load(directory, vectorsOnlyEmbeddings),
  });
}

/** One usearch setting given under its own name and hnswlib's: both, with different values, is refused. */
function sameSetting(own: [string, number | undefined], alias: [string, number | undefined]): number | undefined {
  const [ownName, ownValue] = own;
  const [aliasName, aliasValue] = alias;
  if (ownValue !== undefined && aliasValue !== undefined && ownValue !== aliasValue) {
    throw new ValidationError(`usearch: ${ownName} (${ownValue}) and ${aliasName} (${aliasValue}) name the same setting: give one of them.`);
  }
  return ownValue ?? aliasValue;
}

/** The most shards: a thread each, and every search asks them all. */
const MAX_SHARDS = 64;

/** A usearch index in process, in a thread of its own, or sharded over several threads. */
function usearchIndex(options: UsearchIndexOptions, params: VectorIndexParams): VectorIndex {
  const shards = integerBetween("usearch: shards", params.shards, 1, MAX_SHARDS, 1);
  if (shards === 1) return params.thread === true ? new ThreadedUsearchIndex(options) : new UsearchIndex(options);
  if (params.thread === false) throw new ValidationError("usearch: shards run each in a thread of its own; leave thread out, or give shards: 1.");
  const { path } = options;
  return new ShardedIndex({
    kind: "usearch",
    shards,
    dimension: options.dimension,
    path,
    ids: USEARCH_IDS,
    makeShard: (i) => new ThreadedUsearchIndex({ ...options, path: path === undefined ? undefined : shardFolder(path, i, shards) }),
  });
}

/** A database kind: the driver reads and checks its options now, loads its packages in init(). */
function database(driver: (params: VectorIndexParams) => VectorDatabase): (params: VectorIndexParams) => VectorIndex {
  return (params) => new DatabaseVectorIndex(driver(params), params.dimension, { timeoutMs: params.timeoutMs });
}

const FACTORIES: Record<VectorKind, (params: VectorIndexParams) => VectorIndex> = {
  hnswlib: (params) =>
    new HnswIndex({
      dimension: params.dimension,
      path: params.path,
      M: params.M,
      efConstruction: params.efConstruction,
      ef: params.ef,
      initialCapacity: params.initialCapacity,
    }),
  flat: (params) => new FlatIndex({ dimension: params.dimension }),
  "langchain-hnswlib": langchainHnswlib,
  // The native index (saved, deletes by id, compact vectors); LangChain's USearch store stays reachable.
  // hnswlib's names stand in for usearch's own, so a config written for the hnswlib default keeps its settings.
  usearch: (params) => {
    const options: UsearchIndexOptions = {
      dimension: params.dimension,
      path: params.path,
      quantization: params.quantization,
      connectivity: sameSetting(["connectivity", params.connectivity], ["M", params.M]),
      expansionAdd: sameSetting(["expansionAdd", params.expansionAdd], ["efConstruction", params.efConstruction]),
      expansionSearch: sameSetting(["expansionSearch", params.expansionSearch], ["ef", params.ef]),
      view: params.view,
    };
    return usearchIndex(options, params);
  },
  "langchain-usearch": unsaved("langchain-usearch", "@langchain/community/vectorstores/usearch", "USearch"),
  memory: unsaved("memory", "@langchain/classic/vectorstores/memory", "MemoryVectorStore"),
  faiss,
  pgvector: database(pgvectorDatabase),
  lancedb: database(lancedbDatabase),
  chroma: database(chromaDatabase),
  qdrant: database(qdrantDatabase),
  milvus: database(milvusDatabase),
  redis: database(redisDatabase),
  weaviate: database(weaviateDatabase),
  elasticsearch: database(elasticsearchDatabase),
  opensearch: database(opensearchDatabase),
  "mongodb-atlas": database(mongodbAtlasDatabase),
};

/** usearch's own options: another kind would not read them, so given to one they are refused, not ignored. */
const USEARCH_ONLY = ["quantization", "connectivity", "expansionAdd", "expansionSearch", "view", "thread", "shards"] as const;

function refuseUsearchOptions(kind: string, params: VectorIndexParams): void {
  // OpenSearch has shards of its own.
  const given = USEARCH_ONLY.filter((key) => params[key] !== undefined && !(key === "shards" && kind === "opensearch"));
  if (given.length === 0) return;
  const what = given.length === 1 ? `${given[0]} is a usearch option` : `${given.join(", ")} are usearch options`;
  throw new ValidationError(`${what}: the ${kind} vector store does not read ${given.length === 1 ? "it" : "them"}. Leave ${given.length === 1 ? "it" : "them"} out, or use "usearch".`);
}

/** The kind names createVectorIndex accepts. */
export const VECTOR_KINDS: readonly string[] = Object.freeze(Object.keys(FACTORIES));

/**
 * A vector index by kind name, or over a user's LangChain VectorStore instance. Call `init()` on the result:
 * that is where packages load (a missing one raises MissingDependencyError naming it).
 */
export function createVectorIndex(kind: string | LangChainVectorStoreLike, params: VectorIndexParams): VectorIndex {
  if (isLangChainVectorStore(kind)) {
    refuseUsearchOptions("LangChain VectorStore", params);
    return new LangChainVectorIndex(kind, {
      dimension: params.dimension,
      path: params.path,
      score: params.score,
      deletesById: params.deletesById,
    });
  }
  const factory = Object.prototype.hasOwnProperty.call(FACTORIES, kind) ? FACTORIES[kind as VectorKind] : undefined;
  if (factory === undefined) throw new UnknownKindError("vector store", String(kind), VECTOR_KINDS);
  if (kind !== "usearch") refuseUsearchOptions(kind, params);
  return factory(params);
}
