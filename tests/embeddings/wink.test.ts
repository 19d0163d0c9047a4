import { Embeddings } from "@langchain/core/embeddings";
import { MissingDependencyError, ValidationError } from "../../src/core/errors.js";
import { cosineSimilarity } from "../../src/core/vector-math.js";
import { toEmbeddingFunction } from "../../src/core/embedding-source.js";
import { WinkEmbeddings, loadWordVectors } from "../../src/embeddings/wink.js";
import { testEmbeddingFunction } from "../../src/testing/embedding-contract.js";

// The 294 MB vectors parse once per test file (a few seconds).
beforeAll(() => new WinkEmbeddings().init(), 60_000);

testEmbeddingFunction({ name: "WinkEmbeddings via toEmbeddingFunction", create: () => toEmbeddingFunction(new WinkEmbeddings()) });

describe("WinkEmbeddings", () => {
  const model = new WinkEmbeddings();
  const similarity = (a: number[], b: number[]) => cosineSimilarity(Float32Array.from(a), Float32Array.from(b));

  it("is a LangChain Embeddings averaging 100-d word vectors, case-insensitive", async () => {
    expect(model).toBeInstanceOf(Embeddings);
    const [upper, lower] = await model.embedDocuments(["The Capital Of France", "the capital of france"]);
    expect(upper).toHaveLength(100);
    expect(upper).toEqual(lower);
  });

  it("puts a paraphrase closer than an unrelated question", async () => {
    const [question, paraphrase, unrelated] = await model.embedDocuments([
      "How can I lose weight quickly?",
      "What is the fastest way to lose weight?",
      "Which programming language should I learn first?",
    ]);
    expect(similarity(question, paraphrase)).toBeGreaterThan(similarity(question, unrelated));
  });

  it("skips unknown words and refuses text with no known word", async () => {
    expect(await model.embedQuery("paris qqzzxxunknownword")).toEqual(await model.embedQuery("paris"));
    await expect(model.embedQuery("qqzzxxunknownword")).rejects.toThrow(ValidationError);
    await expect(model.embedDocuments(["paris", ""])).rejects.toThrow(/texts\[1\] has no word/);
  });

  it("uses vectors it is given", async () => {
    const custom = new WinkEmbeddings({
      vectors: { dimensions: 100, vectors: { cat: new Array(100).fill(1), dog: new Array(100).fill(3) } },
    });
    expect(await custom.embedQuery("Cat and dog")).toEqual(new Array(100).fill(2));
    const wrong = new WinkEmbeddings({ vectors: { dimensions: 50, vectors: {} } });
    await expect(wrong.embedQuery("cat")).rejects.toThrow(ValidationError);
  });

  it("names the package to install when the vectors are missing", async () => {
    await expect(loadWordVectors("wink-embeddings-not-installed")).rejects.toThrow(MissingDependencyError);
    await expect(loadWordVectors("wink-embeddings-not-installed")).rejects.toThrow(/npm install wink-embeddings-not-installed/);
  });
});
