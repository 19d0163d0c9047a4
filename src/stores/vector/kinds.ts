/**
 * Vector index kinds by name, for factory strings such as "sqlite,hnswlib". Every vector package loads
 * lazily inside init(), so importing this module loads none of them.
 */
import { UnknownKindError, importOptional } from "../../core/errors.js";
import { DEFAULT_HNSW_EF, HnswIndex, type HnswIndexOptions } from "./hnsw.js";
import { LangChainVectorIndex, type LangChainVectorStoreLike } from "./langchain-bridge.js";
import type { ScoreKind } from "./score-mapping.js";
import type { VectorIndex } from "./types.js";
import { vectorsOnlyEmbeddings } from "./vectors-only-embeddings.js";

export type VectorKind = "hnswlib" | "langchain-hnswlib" | "usearch" | "memory" | "faiss";

/** vectorParams of the data manager: HnswIndex's options (ef also tunes langchain-hnswlib) and the bridge's. */
export interface VectorIndexParams extends HnswIndexOptions {
  /** A user's VectorStore: the unit of its scores, when the bridge cannot detect it. */
  score?: ScoreKind;
  /** A user's VectorStore: its `delete({ ids })` removes single documents. */
  deletesById?: boolean;
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
  "langchain-hnswlib": langchainHnswlib,
  usearch: unsaved("usearch", "@langchain/community/vectorstores/usearch", "USearch"),
  memory: unsaved("memory", "@langchain/classic/vectorstores/memory", "MemoryVectorStore"),
  faiss,
};

/** The kind names createVectorIndex accepts. */
export const VECTOR_KINDS: readonly string[] = Object.freeze(Object.keys(FACTORIES));

/**
 * A vector index by kind name, or over a user's LangChain VectorStore instance. Call `init()` on the result:
 * that is where packages load (a missing one raises MissingDependencyError naming it).
 */
export function createVectorIndex(kind: string | LangChainVectorStoreLike, params: VectorIndexParams): VectorIndex {
  if (isLangChainVectorStore(kind)) {
    return new LangChainVectorIndex(kind, {
      dimension: params.dimension,
      path: params.path,
      score: params.score,
      deletesById: params.deletesById,
    });
  }
  const factory = Object.prototype.hasOwnProperty.call(FACTORIES, kind) ? FACTORIES[kind as VectorKind] : undefined;
  if (factory === undefined) throw new UnknownKindError("vector store", String(kind), VECTOR_KINDS);
  return factory(params);
}
