import { Embeddings } from "@langchain/core/embeddings";
import { OpenAIEmbeddings } from "@langchain/openai";
import { Cache, cached, Config, managerFactory } from "../../src/index.js";
import { EmbeddingError, ValidationError } from "../../src/core/errors.js";
import { cosineSimilarity } from "../../src/core/vector-math.js";
import { toEmbeddingFunction } from "../../src/core/embedding-source.js";
import { EmbeddingDistanceEvaluation } from "../../src/similarity/embedding-distance.js";
import { syntheticEmbedding, testSimilarityEvaluation } from "../../src/testing/evaluation-contract.js";
import { startFakeOpenAI, type FakeOpenAIServer } from "../../src/testing/index.js";
import { BagOfWordsEmbedding, tempDir } from "../helpers/fixtures.js";

/** A real LangChain Embeddings that records every text it embeds. */
class RecordingEmbeddings extends Embeddings {
  readonly texts: string[] = [];
  constructor() {
    super({});
  }
  async embedQuery(text: string): Promise<number[]> {
    this.texts.push(text);
    return [...syntheticEmbedding(text)];
  }
  async embedDocuments(texts: string[]): Promise<number[][]> {
    this.texts.push(...texts);
    return texts.map((text) => [...syntheticEmbedding(text)]);
  }
}

let server: FakeOpenAIServer;
let failEmbeddings = false;
beforeAll(async () => {
  server = await startFakeOpenAI({ fail: (_body, path) => (failEmbeddings && path.endsWith("/embeddings") ? 500 : undefined) });
});
afterAll(() => server.close());

const openAIEmbeddings = () =>
  new OpenAIEmbeddings({ apiKey: "test", model: "text-embedding-3-small", configuration: { baseURL: server.baseURL }, maxRetries: 0 });
const pair = (a: string, b: string) => ({ src: { question: a }, cached: { question: b, answer: "x" } });

testSimilarityEvaluation({
  name: "EmbeddingDistanceEvaluation (OpenAIEmbeddings on a local OpenAI-wire server)",
  create: () => new EmbeddingDistanceEvaluation({ embeddings: openAIEmbeddings() }),
  identical: () => pair("what is the capital of france", "what is the capital of france"),
  different: () => pair("what is the capital of france", "how do i bake bread"),
  pair,
});

describe("EmbeddingDistanceEvaluation", () => {
  it("scores the cosine similarity of the two questions' embeddings, clamped to [0, 1]", async () => {
    const embeddings = openAIEmbeddings();
    const evaluation = new EmbeddingDistanceEvaluation({ embeddings });
    const [a, b] = await embeddings.embedDocuments(["what is the capital of france", "capital city of france"]);
    const score = await evaluation.evaluation(pair("what is the capital of france", "capital city of france").src, pair("", "capital city of france").cached);
    expect(score).toBeCloseTo(cosineSimilarity(a, b), 5);
    expect(score).toBeGreaterThan(0.3);
    expect(score).toBeLessThan(1);

    const opposite = new EmbeddingDistanceEvaluation({ embeddings: (text: string | Uint8Array) => (text === "up" ? [1, 0] : [-1, 0]) });
    expect(await opposite.evaluation({ question: "up" }, { question: "down", answer: "x" })).toBe(0);
  });

  it("embeds each question once: the request against several candidates, concurrently, and again later", async () => {
    const embeddings = new RecordingEmbeddings();
    const evaluation = new EmbeddingDistanceEvaluation({ embeddings });
    const candidates = ["capital of france", "bake bread", "sort a list"].map((question) => ({ question, answer: "x" }));
    const first = await Promise.all(candidates.map((c) => evaluation.evaluation({ question: "what is the capital of france" }, c)));
    expect(embeddings.texts.sort()).toEqual(["bake bread", "capital of france", "sort a list", "what is the capital of france"]);
    expect(await Promise.all(candidates.map((c) => evaluation.evaluation({ question: "what is the capital of france" }, c)))).toEqual(first);
    expect(embeddings.texts).toHaveLength(4);
  });

  it("forgets a text after cacheSize newer ones", async () => {
    const embeddings = new RecordingEmbeddings();
    const evaluation = new EmbeddingDistanceEvaluation({ embeddings, cacheSize: 2 });
    await evaluation.evaluation({ question: "a" }, { question: "b", answer: "x" });
    await evaluation.evaluation({ question: "c" }, { question: "d", answer: "x" });
    await evaluation.evaluation({ question: "a" }, { question: "d", answer: "x" });
    expect(embeddings.texts).toEqual(["a", "b", "c", "d", "a"]);
  });

  it("reuses the cache's vectors when the cache embeds with the same embeddings, and embeds otherwise", async () => {
    const embeddings = new RecordingEmbeddings();
    const evaluation = new EmbeddingDistanceEvaluation({ embeddings });
    const src = { question: "q", embedding: Float32Array.of(1, 0) };
    const candidate = { question: "c", answer: "x", embedding: Float32Array.of(1, 1) };
    // The cache wraps the same LangChain Embeddings in its own adapter: still the same embedding.
    const same = { embeddingFunc: toEmbeddingFunction(embeddings) };
    expect(await evaluation.evaluation(src, candidate, same)).toBeCloseTo(Math.SQRT1_2, 6);
    expect(await evaluation.evaluation(src, candidate, { embeddingFunc: evaluation.embedding })).toBeCloseTo(Math.SQRT1_2, 6);
    expect(embeddings.texts).toEqual([]);

    // A candidate without a vector: only its question is embedded.
    await evaluation.evaluation({ ...src, embedding: syntheticEmbedding("q") }, { question: "c", answer: "x" }, same);
    expect(embeddings.texts).toEqual(["c"]);

    // Another embedding's vectors are never compared with this one's.
    const other = { embeddingFunc: toEmbeddingFunction(new RecordingEmbeddings()) };
    const score = await evaluation.evaluation({ question: "q z", embedding: Float32Array.of(1, 0) }, { ...candidate, question: "q y" }, other);
    expect(score).toBeCloseTo(cosineSimilarity(syntheticEmbedding("q z"), syntheticEmbedding("q y")), 6);
    expect(embeddings.texts).toEqual(["c", "q z", "q y"]);
  });

  it("scores the same question 1 and an empty question 0 without embedding", async () => {
    const embeddings = new RecordingEmbeddings();
    const evaluation = new EmbeddingDistanceEvaluation({ embeddings });
    expect(await evaluation.evaluation({ question: "same" }, { question: "same", answer: "x" })).toBe(1);
    expect(await evaluation.evaluation({ question: "" }, { question: "text", answer: "x" })).toBe(0);
    expect(embeddings.texts).toEqual([]);
  });

  it("fails with an EmbeddingError when the embeddings fail, and tries again on the next call", async () => {
    const evaluation = new EmbeddingDistanceEvaluation({ embeddings: openAIEmbeddings() });
    failEmbeddings = true;
    try {
      await expect(evaluation.evaluation({ question: "alpha" }, { question: "beta", answer: "x" })).rejects.toBeInstanceOf(EmbeddingError);
    } finally {
      failEmbeddings = false;
    }
    expect(await evaluation.evaluation({ question: "alpha" }, { question: "alpha beta", answer: "x" })).toBeGreaterThan(0);
  });

  it("needs embeddings and a valid cacheSize", () => {
    expect(() => new EmbeddingDistanceEvaluation({} as never)).toThrow(ValidationError);
    expect(() => new EmbeddingDistanceEvaluation({ embeddings: 42 as never })).toThrow(ValidationError);
    expect(() => new EmbeddingDistanceEvaluation({ embeddings: new RecordingEmbeddings(), cacheSize: -1 })).toThrow(ValidationError);
  });

  it("judges a cache's candidates with its own embeddings: a cheap search embedding, a better judge", async () => {
    const dir = tempDir();
    const cache = await new Cache().init({
      embeddingFunc: new BagOfWordsEmbedding(),
      dataManager: managerFactory("sqlite,hnswlib", { dataDir: dir.path }),
      similarityEvaluation: new EmbeddingDistanceEvaluation({ embeddings: openAIEmbeddings() }),
      config: new Config({ similarityThreshold: 0.75 }),
    });
    try {
      let calls = 0;
      const ask = cached(async (_prompt: string) => `answer ${++calls}`, { requestOptions: { cacheObj: cache } });
      expect(await ask("what is the capital of france")).toBe("answer 1");
      expect(await ask("what is the capital of france?")).toBe("answer 1");
      expect(await ask("how do i bake bread")).toBe("answer 2");
      expect(cache.report.hits).toBe(1);
    } finally {
      await cache.close();
      dir.cleanup();
    }
  });
});
