import { loadGptCacheConfig } from "../../src/config/gptcache-config.js";
import { createEmbedding } from "../../src/config/embedding-factory.js";
import { UniversalSentenceEncoderEmbeddings } from "../../src/embeddings/use.js";
import { ValidationError } from "../../src/core/errors.js";

describe("the offline model's worker pool and the embedding memo in a GPTCache config file", () => {
  it("reads embedding_config.workers into the model's pool size", () => {
    const config = loadGptCacheConfig("embedding: use\nembedding_config: { worker: true, workers: 3 }\n");
    expect(config.embeddingConfig).toMatchObject({ worker: true, workers: 3 });
    const embedding = createEmbedding({ kind: config.embedding, settings: config.embeddingConfig });
    expect(embedding).toBeInstanceOf(UniversalSentenceEncoderEmbeddings);
    expect((embedding as UniversalSentenceEncoderEmbeddings).workers).toBe(3);
  });

  it("reads it for GPTCache's onnx run as the offline model too", () => {
    expect(loadGptCacheConfig("embedding: onnx\nembedding_config: { workers: 2 }\n").embeddingConfig).toMatchObject({ workers: 2 });
  });

  it("refuses workers without a worker thread, and a count that is not a positive integer", () => {
    expect(() => loadGptCacheConfig("embedding: use\nembedding_config: { worker: false, workers: 2 }\n")).toThrow(/workers only with worker: true/);
    expect(() => loadGptCacheConfig("embedding: use\nembedding_config: { workers: 0 }\n")).toThrow(ValidationError);
  });

  it("reads config.embedding_memo_size, 0 turning the memo off", () => {
    expect(loadGptCacheConfig("config: { embedding_memo_size: 0 }\n").config.embeddingMemoSize).toBe(0);
    expect(loadGptCacheConfig("config: { embedding_memo_size: 1024 }\n").config.embeddingMemoSize).toBe(1024);
    expect(() => loadGptCacheConfig("config: { embedding_memo_size: -1 }\n")).toThrow(/embedding_memo_size/);
  });
});
