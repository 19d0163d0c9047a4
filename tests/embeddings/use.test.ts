import { Embeddings } from "@langchain/core/embeddings";
import { ValidationError } from "../../src/core/errors.js";
import { cosineSimilarity } from "../../src/core/vector-math.js";
import { toEmbeddingFunction } from "../../src/embeddings/resolve.js";
import { UniversalSentenceEncoderEmbeddings } from "../../src/embeddings/use.js";
import { testEmbeddingFunction } from "../../src/testing/embedding-contract.js";

testEmbeddingFunction({
  name: "UniversalSentenceEncoderEmbeddings via toEmbeddingFunction",
  create: () => toEmbeddingFunction(new UniversalSentenceEncoderEmbeddings()),
});

describe("UniversalSentenceEncoderEmbeddings", () => {
  const model = new UniversalSentenceEncoderEmbeddings();

  it("is a LangChain Embeddings with 512-d unit vectors", async () => {
    expect(model).toBeInstanceOf(Embeddings);
    const vector = await model.embedQuery("How do I reset my password?");
    expect(vector).toHaveLength(512);
    expect(Math.hypot(...vector)).toBeCloseTo(1, 4);
  });

  it("puts a paraphrase closer than an unrelated question", async () => {
    const [question, paraphrase, unrelated] = await model.embedDocuments([
      "How can I lose weight quickly?",
      "What is the fastest way to lose weight?",
      "Which programming language should I learn first?",
    ]);
    const near = cosineSimilarity(Float32Array.from(question), Float32Array.from(paraphrase));
    const far = cosineSimilarity(Float32Array.from(question), Float32Array.from(unrelated));
    expect(near).toBeGreaterThan(far + 0.3);
  });

  it("coalesces concurrent embedQuery calls into one model call", async () => {
    const fresh = new UniversalSentenceEncoderEmbeddings();
    const texts = ["one question", "another question", "a third question", "a fourth one"];
    const vectors = await Promise.all(texts.map((text) => fresh.embedQuery(text)));
    expect(vectors).toHaveLength(4);
    expect(fresh.stats).toEqual({ batches: 1, texts: 4 });
  });

  it("splits large inputs into batches of batchSize, in order", async () => {
    const fresh = new UniversalSentenceEncoderEmbeddings({ batchSize: 2 });
    const texts = ["alpha question", "beta question", "gamma question", "delta question", "epsilon question"];
    const vectors = await fresh.embedDocuments(texts);
    expect(fresh.stats).toEqual({ batches: 3, texts: 5 });
    const alone = await model.embedQuery(texts[4]);
    expect(cosineSimilarity(Float32Array.from(vectors[4]), Float32Array.from(alone))).toBeGreaterThan(0.9999);
  });

  it("refuses text without words, without failing its batch mates", async () => {
    const fresh = new UniversalSentenceEncoderEmbeddings();
    const [good, blank] = await Promise.allSettled([fresh.embedQuery("a real question"), fresh.embedQuery("")]);
    expect(good.status).toBe("fulfilled");
    expect(blank.status).toBe("rejected");
    expect(ValidationError.isInstance((blank as PromiseRejectedResult).reason)).toBe(true);
    await expect(fresh.embedDocuments(["fine", ""])).rejects.toThrow(/texts\[1\] has no words/);
  });

  it("refuses a bad batchSize", () => {
    expect(() => new UniversalSentenceEncoderEmbeddings({ batchSize: 0 })).toThrow(ValidationError);
  });
});
