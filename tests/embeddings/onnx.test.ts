/**
 * @jest-environment ./tests/embeddings/onnx-environment.mjs
 */
import { copyFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { EmbeddingError, ValidationError } from "../../src/core/errors.js";
import { cosineSimilarity } from "../../src/core/vector-math.js";
import { OnnxEmbeddings } from "../../src/embeddings/onnx.js";
import { toEmbeddingFunction } from "../../src/core/embedding-source.js";
import { testEmbeddingFunction } from "../../src/testing/embedding-contract.js";
import { tempDir } from "../helpers/fixtures.js";

const MODELS = fileURLToPath(new URL("../fixtures/tiny-models/", import.meta.url));
const files = { modelPath: join(MODELS, "embedder.onnx"), tokenizerPath: join(MODELS, "tokenizer.json") };
const cosine = (a: number[], b: number[]) => cosineSimilarity(Float32Array.from(a), Float32Array.from(b));

testEmbeddingFunction({
  name: "OnnxEmbeddings (tiny embedding-table model)",
  create: () => toEmbeddingFunction(new OnnxEmbeddings(files)),
});

describe("OnnxEmbeddings", () => {
  it("reads the dimension from the model's declared output shape on init", async () => {
    const embeddings = new OnnxEmbeddings(files);
    expect(embeddings.dimension).toBe(0);
    await embeddings.init();
    expect(embeddings.dimension).toBe(16);
  });

  it("returns unit vectors; the same text gives the same vector", async () => {
    const embeddings = new OnnxEmbeddings(files);
    const first = await embeddings.embedQuery("What is the capital of France?");
    expect(first).toHaveLength(16);
    expect(Math.hypot(...first)).toBeCloseTo(1, 6);
    expect(await embeddings.embedQuery("What is the capital of France?")).toEqual(first);
  });

  it("puts texts sharing words closer than texts sharing none", async () => {
    const embeddings = new OnnxEmbeddings(files);
    const [a, b, c] = await embeddings.embedDocuments([
      "what is the capital of france",
      "tell me the capital city of france",
      "how do i bake sourdough bread",
    ]);
    expect(cosine(a, b)).toBeGreaterThan(cosine(a, c) + 0.2);
  });

  it("embeds a padded batch exactly as one text at a time, across batch boundaries", async () => {
    const texts = ["capital of france", "how do I bake sourdough bread at home today?", "sort a list", "python"];
    const batched = await new OnnxEmbeddings({ ...files, batchSize: 3 }).embedDocuments(texts);
    const single = new OnnxEmbeddings(files);
    for (const [i, text] of texts.entries()) {
      const [vector] = await single.embedDocuments([text]);
      expect(batched[i].map((x) => Math.fround(x))).toEqual(vector.map((x) => Math.fround(x)));
    }
  });

  it("tokenises unknown words, accents and case the BERT way", async () => {
    const embeddings = new OnnxEmbeddings(files);
    expect(await embeddings.embedQuery("CAPITAL of Fráncé")).toEqual(await embeddings.embedQuery("capital of france"));
    expect(await embeddings.embedQuery("playing")).not.toEqual(await embeddings.embedQuery("play"));
  });

  it("truncates to maxLength tokens", async () => {
    const embeddings = new OnnxEmbeddings({ ...files, maxLength: 4 });
    expect(await embeddings.embedQuery("capital of france")).toEqual(await embeddings.embedQuery("capital of spain"));
  });

  describe("typed errors", () => {
    let dir: ReturnType<typeof tempDir>;
    beforeEach(() => (dir = tempDir()));
    afterEach(() => dir.cleanup());

    it("a missing model or tokenizer file is an EmbeddingError naming it, and a later call retries", async () => {
      const modelPath = join(dir.path, "model.onnx");
      const embeddings = new OnnxEmbeddings({ ...files, modelPath });
      await expect(embeddings.embedQuery("x")).rejects.toThrow(EmbeddingError);
      await expect(embeddings.embedQuery("x")).rejects.toThrow(/model\.onnx does not exist/);
      copyFileSync(files.modelPath, modelPath);
      expect(await embeddings.embedQuery("capital")).toHaveLength(16);
      await expect(new OnnxEmbeddings({ ...files, tokenizerPath: join(dir.path, "none.json") }).init()).rejects.toThrow(/none\.json/);
    });

    it("a file that is not an ONNX model, or a model of the wrong shape, is an EmbeddingError", async () => {
      const junk = join(dir.path, "junk.onnx");
      writeFileSync(junk, "not a model");
      await expect(new OnnxEmbeddings({ ...files, modelPath: junk }).init()).rejects.toThrow(EmbeddingError);
      const classifier = new OnnxEmbeddings({ ...files, modelPath: join(MODELS, "cross-encoder.onnx") });
      await expect(classifier.embedQuery("capital")).rejects.toThrow(/\[batch, 1\]; token vectors/);
    });

    it("a tokenizer that is not WordPiece is a ValidationError; bad options are ValidationErrors", async () => {
      const bpe = join(dir.path, "bpe.json");
      writeFileSync(bpe, JSON.stringify({ model: { type: "BPE", vocab: {}, merges: [] } }));
      await expect(new OnnxEmbeddings({ ...files, tokenizerPath: bpe }).init()).rejects.toThrow(ValidationError);
      expect(() => new OnnxEmbeddings({ ...files, pooling: "cls" as "mean" })).toThrow(ValidationError);
      expect(() => new OnnxEmbeddings({ ...files, batchSize: 0 })).toThrow(ValidationError);
    });
  });
});
