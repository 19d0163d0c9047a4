/**
 * What the bridge knows about LangChain's in-process vector stores, each checked against the store's code and
 * by test (tests/stores/vector-langchain.test.ts): the unit of its score, whether `delete({ ids })` really
 * deletes single documents, and whether its class can load what `save()` wrote.
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
}

/** hnswlib's "cosine" and "ip" spaces both report 1 - dot (of normalised vectors); "l2" reports squared L2. */
function hnswlibProfile(store: LangChainVectorStoreLike): StoreProfile {
  const space = (store as { args?: { space?: string } }).args?.space;
  return { score: space === "l2" ? "l2-squared" : "cosine-distance", deletesById: false };
}

const PROFILES: Record<string, (store: LangChainVectorStoreLike) => StoreProfile> = {
  // HNSWLib.delete({ directory }) removes the saved files, not documents.
  hnswlib: hnswlibProfile,
  // USearch: squared L2 (2 - 2cos for unit vectors); no delete.
  usearch: () => ({ score: "l2-squared", deletesById: false }),
  // MemoryVectorStore: cosine similarity; no delete (VectorStore.delete throws "Not implemented").
  memory: () => ({ score: "cosine-similarity", deletesById: false }),
  // FaissStore: IndexFlatL2 reports squared L2; delete({ ids }) removes those documents.
  faiss: () => ({ score: "l2-squared", deletesById: true }),
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
