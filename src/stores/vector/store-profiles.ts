/**
 * What the bridge knows about LangChain's vector stores, each checked against the store's code (and by test where
 * the store runs here: tests/stores/vector-langchain.test.ts, vector-pgvector.test.ts, vector-chroma.test.ts):
 * the unit of its score, whether `delete({ ids })` really deletes single documents, and whether its class can
 * load what `save()` wrote.
 */
import type { ScoreKind } from "./score-mapping.js";

/** The part of a LangChain `VectorStore` the bridge uses (structural, so any copy of @langchain/core fits). */
export interface LangChainVectorStoreLike {
  embeddings: unknown;
  _vectorstoreType(): string;
  addVectors(vectors: number[][], documents: LangChainDocument[], options?: { ids?: string[] }): Promise<unknown>;
  similaritySearchVectorWithScore(query: number[], k: number): Promise<Array<[LangChainDocument, number]>>;
  delete?(params?: Record<string, unknown>): Promise<void>;
  save?(directory: string): Promise<void>;
}

/** LangChain's DocumentInterface. */
export interface LangChainDocument {
  pageContent: string;
  metadata: Record<string, unknown>;
  id?: string;
}

export interface StoreProfile {
  score: ScoreKind;
  deletesById: boolean;
  /** Adding a document id the store already holds fails instead of replacing it (a primary key). */
  rejectsExistingIds?: boolean;
}

/** hnswlib's "cosine" and "ip" spaces both report 1 - dot (of normalised vectors); "l2" reports squared L2. */
function hnswlibProfile(store: LangChainVectorStoreLike): StoreProfile {
  const space = (store as { args?: { space?: string } }).args?.space;
  return { score: space === "l2" ? "l2-squared" : "cosine-distance", deletesById: false };
}

/** Reads a nested setting of a store instance (the LangChain classes keep their constructor options as fields). */
function setting(store: LangChainVectorStoreLike, ...path: string[]): unknown {
  let value: unknown = store;
  for (const key of path) value = (value as Record<string, unknown> | null | undefined)?.[key];
  return value;
}

const database = (score: ScoreKind | undefined, deletesById = true, rejectsExistingIds = false): StoreProfile | undefined =>
  score === undefined ? undefined : { score, deletesById, rejectsExistingIds };

/**
 * LangChain's database stores, as their classes are configured by default or by the settings named here. Each
 * returns undefined for a setting it cannot map (the bridge then asks for `score`).
 */
const DATABASE_PROFILES: Record<string, (store: LangChainVectorStoreLike) => StoreProfile | undefined> = {
  // PGVectorStore: <=> (cosine distance), <-> (L2) or <#> (-dot), unless scoreNormalization turns it into a similarity.
  // Its ids are a primary key: re-adding one fails.
  pgvector: (store) => {
    if (setting(store, "scoreNormalization") === "similarity") return undefined;
    const unit = { cosine: "cosine-distance", euclidean: "l2", innerProduct: "negative-inner-product" } as const;
    return database(unit[setting(store, "distanceStrategy") as keyof typeof unit], true, true);
  },
  // Chroma: the collection's hnsw space, "l2" (squared) unless the collection says otherwise.
  chroma: (store) => {
    const space =
      setting(store, "collection", "configuration", "hnsw", "space") ??
      setting(store, "collection", "metadata", "hnsw:space") ??
      setting(store, "collectionMetadata", "hnsw:space") ??
      "l2";
    const unit = { cosine: "cosine-distance", l2: "l2-squared", ip: "cosine-distance" } as const;
    return database(unit[space as keyof typeof unit]);
  },
  // Qdrant: the collection's distance, Cosine unless collectionConfig says otherwise.
  qdrant: (store) => {
    const distance = setting(store, "collectionConfig", "vectors", "distance") ?? "Cosine";
    const unit = { Cosine: "cosine-similarity", Dot: "inner-product", Euclid: "l2" } as const;
    return database(unit[distance as keyof typeof unit]);
  },
  // RedisVectorStore: RediSearch distances. Its delete({ ids }) prefixes keys that addVectors did not use.
  redis: (store) => {
    const metric = String(setting(store, "indexOptions", "DISTANCE_METRIC") ?? "COSINE").toUpperCase();
    const unit = { COSINE: "cosine-distance", IP: "cosine-distance", L2: "l2-squared" } as const;
    return database(unit[metric as keyof typeof unit], false);
  },
  // WeaviateStore: metadata.distance of the class's metric, cosine by default (its own schema decides; assumed).
  weaviate: () => database("cosine-distance"),
  // ElasticVectorSearch: _score of the dense_vector similarity, l2_norm by default.
  elasticsearch: (store) => {
    const similarity = setting(store, "similarity") ?? "l2_norm";
    const unit = { cosine: "cosine-similarity-scaled", dot_product: "cosine-similarity-scaled", l2_norm: "inverse-l2-squared" } as const;
    return database(unit[similarity as keyof typeof unit]);
  },
  // OpenSearchVectorStore: _score of the k-NN space (nmslib and l2 by default); it has no delete.
  opensearch: (store) => {
    const space = setting(store, "spaceType") ?? "l2";
    const lucene = setting(store, "engine") === "lucene";
    if (space === "l2") return database("inverse-l2-squared", false);
    if (space === "cosinesimil") return database(lucene ? "cosine-similarity-scaled" : "inverse-cosine-distance", false);
    return undefined;
  },
  // Milvus: the index metric (L2 by default, squared); ids are kept only when autoId is off.
  milvus: (store) => {
    const metric = setting(store, "indexCreateParams", "metric_type") ?? "L2";
    const unit = { L2: "l2-squared", IP: "inner-product", COSINE: "cosine-similarity" } as const;
    return database(unit[metric as keyof typeof unit], setting(store, "autoId") === false);
  },
  // MongoDBAtlasVectorSearch: vectorSearchScore, whose unit depends on the search index (not visible here).
  mongodb_atlas: () => undefined,
};

const PROFILES: Record<string, (store: LangChainVectorStoreLike) => StoreProfile | undefined> = {
  // HNSWLib.delete({ directory }) removes the saved files, not documents.
  hnswlib: hnswlibProfile,
  // USearch: squared L2 (2 - 2cos for unit vectors); no delete.
  usearch: () => ({ score: "l2-squared", deletesById: false }),
  // MemoryVectorStore: cosine similarity; no delete (VectorStore.delete throws "Not implemented").
  memory: () => ({ score: "cosine-similarity", deletesById: false }),
  // FaissStore: IndexFlatL2 reports squared L2; delete({ ids }) removes those documents.
  faiss: () => ({ score: "l2-squared", deletesById: true }),
  ...DATABASE_PROFILES,
};

const CLASS_NAMES: Record<string, string> = {
  HNSWLib: "hnswlib",
  USearch: "usearch",
  MemoryVectorStore: "memory",
  FaissStore: "faiss",
};

/** The known profile of a store, by its `_vectorstoreType()` or class name; undefined for other stores. */
export function profileOf(store: LangChainVectorStoreLike): StoreProfile | undefined {
  const type = store._vectorstoreType();
  const known = PROFILES[type] ?? PROFILES[CLASS_NAMES[store.constructor.name] ?? ""];
  return known?.(store);
}

type Loader = (directory: string) => Promise<LangChainVectorStoreLike>;

/**
 * The store class's own static `load(directory, embeddings)`, when it has one. LangChain's base
 * `SaveableVectorStore.load` only throws, and USearch inherits it, so a saved USearch index cannot be loaded.
 */
export function staticLoaderOf(store: LangChainVectorStoreLike): Loader | undefined {
  for (let ctor = store.constructor; ctor && ctor !== Function.prototype; ctor = Object.getPrototypeOf(ctor)) {
    if (ctor.name === "SaveableVectorStore" || ctor.name === "VectorStore") return undefined;
    if (Object.prototype.hasOwnProperty.call(ctor, "load")) {
      const load = (ctor as unknown as { load: (directory: string, embeddings: unknown) => Promise<LangChainVectorStoreLike> }).load;
      if (typeof load !== "function") return undefined;
      return (directory) => load.call(ctor, directory, store.embeddings);
    }
  }
  return undefined;
}
