import { join } from "node:path";
import { HNSWLib } from "@langchain/community/vectorstores/hnswlib";
import { USearch } from "@langchain/community/vectorstores/usearch";
import { MemoryVectorStore } from "@langchain/classic/vectorstores/memory";
import { EmbeddingError, MissingDependencyError, UnknownKindError, ValidationError } from "../../src/core/errors.js";
import { createVectorIndex, isLangChainVectorStore, VECTOR_KINDS } from "../../src/stores/vector/kinds.js";
import { LangChainVectorIndex } from "../../src/stores/vector/langchain-bridge.js";
import { vectorsOnlyEmbeddings } from "../../src/stores/vector/vectors-only-embeddings.js";
import { randomUnitVector, seededRandom, testVectorIndex, vectorAtCosine } from "../../src/testing/vector-index-contract.js";
import { tempDirEachTest } from "../helpers/fixtures.js";

testVectorIndex({
  name: "langchain-hnswlib (HNSWLib, space cosine, ef 128)",
  create: ({ dir, dimension }) => createVectorIndex("langchain-hnswlib", { dimension, path: join(dir, "store") }),
  persistent: true,
});

testVectorIndex({
  name: "langchain-usearch (USearch)",
  create: ({ dimension }) => createVectorIndex("langchain-usearch", { dimension }),
});

testVectorIndex({
  name: "memory (MemoryVectorStore)",
  create: ({ dimension }) => createVectorIndex("memory", { dimension }),
});

testVectorIndex({
  name: "a user's MemoryVectorStore instance",
  create: ({ dimension }) => createVectorIndex(new MemoryVectorStore(vectorsOnlyEmbeddings), { dimension }),
});

describe("LangChain vector stores through the bridge", () => {
  const random = seededRandom(3);
  const temp = tempDirEachTest("semcache-langchain-");

  /** The raw score each store gives a vector at cosine 0.6 to the query, and what the bridge makes of it. */
  async function scores(store: HNSWLib | USearch | MemoryVectorStore): Promise<{ raw: number; distance: number }> {
    const query = randomUnitVector(16, random);
    const other = vectorAtCosine(query, 0.6, random);
    const index = new LangChainVectorIndex(store, { dimension: 16 });
    await index.init();
    await index.add([{ id: 1, vector: other }]);
    const [[, raw]] = await store.similaritySearchVectorWithScore(Array.from(query), 1);
    const [{ distance }] = await index.search(query, 1);
    return { raw, distance };
  }

  it("maps HNSWLib (space cosine) scores: they are cosine distances", async () => {
    const { raw, distance } = await scores(new HNSWLib(vectorsOnlyEmbeddings, { space: "cosine", numDimensions: 16 }));
    expect(raw).toBeCloseTo(0.4, 4);
    expect(distance).toBeCloseTo(0.4, 4);
  });

  it("maps HNSWLib (space l2) scores: they are squared L2 distances", async () => {
    const { raw, distance } = await scores(new HNSWLib(vectorsOnlyEmbeddings, { space: "l2", numDimensions: 16 }));
    expect(raw).toBeCloseTo(0.8, 4);
    expect(distance).toBeCloseTo(0.4, 4);
  });

  it("maps USearch scores: they are squared L2 distances (2 - 2cos)", async () => {
    const { raw, distance } = await scores(new USearch(vectorsOnlyEmbeddings, {}));
    expect(raw).toBeCloseTo(0.8, 4);
    expect(distance).toBeCloseTo(0.4, 4);
  });

  it("maps MemoryVectorStore scores: they are cosine similarities", async () => {
    const { raw, distance } = await scores(new MemoryVectorStore(vectorsOnlyEmbeddings));
    expect(raw).toBeCloseTo(0.6, 4);
    expect(distance).toBeCloseTo(0.4, 4);
  });

  it("hides deleted entries itself: none of these stores deletes by id", async () => {
    const hnsw = new HNSWLib(vectorsOnlyEmbeddings, { space: "cosine", numDimensions: 4 });
    await hnsw.addVectors([[1, 0, 0, 0]], [{ pageContent: "", metadata: {} }]);
    // HNSWLib.delete takes { directory } and removes the saved files.
    await expect(hnsw.delete({ ids: ["0"] } as unknown as { directory: string })).rejects.toThrow(/hnswlib.index/);
    await expect(new MemoryVectorStore(vectorsOnlyEmbeddings).delete({ ids: ["x"] })).rejects.toThrow(/Not implemented/);
    await expect(new USearch(vectorsOnlyEmbeddings, {}).delete({ ids: ["x"] })).rejects.toThrow(/Not implemented/);
  });

  it("over-fetches past many hidden entries", async () => {
    const index = createVectorIndex("memory", { dimension: 8 });
    await index.init();
    const target = randomUnitVector(8, random);
    const crowd = Array.from({ length: 200 }, (_, i) => ({ id: i + 1, vector: vectorAtCosine(target, 0.99, random) }));
    await index.add([...crowd, { id: 500, vector: vectorAtCosine(target, 0.5, random) }]);
    await index.delete(crowd.map((item) => item.id));
    expect(await index.search(target, 3)).toEqual([{ id: 500, distance: expect.closeTo(0.5, 4) }]);
  });

  it("raises ef of LangChain's HNSWLib to the given value after creation and after load", async () => {
    const path = join(temp.path, "store");
    const index = createVectorIndex("langchain-hnswlib", { dimension: 8, path, ef: 77 }) as LangChainVectorIndex;
    await index.init();
    await index.add([{ id: 1, vector: randomUnitVector(8, random) }]);
    expect((index.vectorStore as HNSWLib).index.getEf()).toBe(77);
    await index.close();
    const reopened = createVectorIndex("langchain-hnswlib", { dimension: 8, path, ef: 77 }) as LangChainVectorIndex;
    await reopened.init();
    expect((reopened.vectorStore as HNSWLib).index.getEf()).toBe(77);
    expect(await reopened.count()).toBe(1);
  });

  it("says USearch and MemoryVectorStore are not persistent, HNSWLib with a path is", async () => {
    const kinds = { "langchain-usearch": false, memory: false, "langchain-hnswlib": true } as const;
    for (const [kind, persistent] of Object.entries(kinds)) {
      const index = createVectorIndex(kind, { dimension: 8, path: join(temp.path, kind) });
      await index.init();
      expect([kind, index.capabilities.persistent]).toEqual([kind, persistent]);
      await index.close();
    }
  });

  it("builds stores whose Embeddings refuse to embed text", async () => {
    const index = createVectorIndex("memory", { dimension: 4 }) as LangChainVectorIndex;
    await index.init();
    const store = index.vectorStore as MemoryVectorStore;
    await expect(store.similaritySearch("hello", 1)).rejects.toThrow(EmbeddingError);
  });

  it("takes a user's VectorStore instance and detects its score unit", async () => {
    const store = new HNSWLib(vectorsOnlyEmbeddings, { space: "cosine", numDimensions: 8 });
    expect(isLangChainVectorStore(store)).toBe(true);
    const index = createVectorIndex(store, { dimension: 8 });
    await index.init();
    expect(index.kind).toBe("langchain-hnswlib");
    const vector = randomUnitVector(8, random);
    await index.add([{ id: 42, vector }]);
    expect(await index.search(vector, 1)).toEqual([{ id: 42, distance: expect.closeTo(0, 4) }]);
  });

  it("asks for the score unit of a store it does not know", async () => {
    const store = new MemoryVectorStore(vectorsOnlyEmbeddings);
    const unknown = Object.assign(Object.create(store) as MemoryVectorStore, { _vectorstoreType: () => "mystery" });
    Object.defineProperty(unknown, "constructor", { value: class Mystery {} });
    await expect(new LangChainVectorIndex(unknown).init()).rejects.toThrow(ValidationError);
    const index = new LangChainVectorIndex(unknown, { score: "cosine-similarity" });
    await index.init();
    const vector = randomUnitVector(8, random);
    await index.add([{ id: 1, vector }]);
    expect((await index.search(vector, 1))[0].distance).toBeCloseTo(0, 4);
  });

  it("is not fooled by things that are not vector stores", () => {
    expect(isLangChainVectorStore(null)).toBe(false);
    expect(isLangChainVectorStore("hnswlib")).toBe(false);
    expect(isLangChainVectorStore({ addVectors() {} })).toBe(false);
  });
});

describe("createVectorIndex", () => {
  it("names the kinds it knows", () => {
    expect(() => createVectorIndex("annoy", { dimension: 8 })).toThrow(UnknownKindError);
    expect(() => createVectorIndex("toString", { dimension: 8 })).toThrow(UnknownKindError);
    try {
      createVectorIndex("annoy", { dimension: 8 });
    } catch (error) {
      expect((error as UnknownKindError).known).toEqual(VECTOR_KINDS);
    }
  });

  it("raises MissingDependencyError naming faiss-node for faiss (not installed here)", async () => {
    const index = createVectorIndex("faiss", { dimension: 8 });
    const error = await index.init().then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(MissingDependencyError.isInstance(error)).toBe(true);
    expect((error as MissingDependencyError).packageName).toBe("faiss-node");
  });
});
