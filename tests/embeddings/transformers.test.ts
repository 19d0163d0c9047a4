/**
 * @jest-environment ./tests/embeddings/onnx-environment.mjs
 */
import { cpSync, rmSync } from "node:fs";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { cached } from "../../src/adapters/function.js";
import { Cache } from "../../src/presets/cache.js";
import { EmbeddingError, ValidationError } from "../../src/core/errors.js";
import { cosineSimilarity } from "../../src/core/vector-math.js";
import { toEmbeddingFunction } from "../../src/core/embedding-source.js";
import { TransformersEmbeddings, type TransformersEmbeddingsParams } from "../../src/embeddings/transformers.js";
import { managerFactory } from "../../src/presets/manager-factory.js";
import { DistanceEvaluation } from "../../src/similarity/distance.js";
import { testEmbeddingFunction } from "../../src/testing/embedding-contract.js";
import { countingModel, tempDir } from "../helpers/fixtures.js";

const MODELS = fileURLToPath(new URL("../fixtures/tiny-models/", import.meta.url));
const tinyBert: TransformersEmbeddingsParams = { model: "tiny-bert", localModelPath: MODELS };
const cosine = (a: number[], b: number[]) => cosineSimilarity(Float32Array.from(a), Float32Array.from(b));

testEmbeddingFunction({
  name: "TransformersEmbeddings (tiny-bert, hub name under localModelPath)",
  create: () => toEmbeddingFunction(new TransformersEmbeddings(tinyBert)),
});

describe("TransformersEmbeddings", () => {
  it("learns the dimension on init and returns unit vectors; the same text gives the same vector", async () => {
    const embeddings = new TransformersEmbeddings(tinyBert);
    expect(embeddings.dimension).toBe(0);
    await embeddings.init();
    expect(embeddings.dimension).toBe(16);
    const first = await embeddings.embedQuery("What is the capital of France?");
    expect(first).toHaveLength(16);
    expect(Math.hypot(...first)).toBeCloseTo(1, 6);
    expect(await embeddings.embedQuery("What is the capital of France?")).toEqual(first);
  });

  it("puts texts sharing words closer than texts sharing none", async () => {
    const [a, b, c] = await new TransformersEmbeddings(tinyBert).embedDocuments([
      "what is the capital of france",
      "tell me the capital city of france",
      "how do i bake sourdough bread",
    ]);
    expect(cosine(a, b)).toBeGreaterThan(cosine(a, c) + 0.2);
  });

  it("embeds a padded batch as one text at a time, across batch boundaries", async () => {
    const texts = ["capital of france", "how do I bake sourdough bread at home today?", "sort a list", "python"];
    const batched = await new TransformersEmbeddings({ ...tinyBert, batchSize: 3 }).embedDocuments(texts);
    const single = new TransformersEmbeddings(tinyBert);
    for (const [i, text] of texts.entries()) {
      const vector = await single.embedQuery(text);
      batched[i].forEach((value, d) => expect(value).toBeCloseTo(vector[d], 6));
    }
    expect(await single.embedDocuments([])).toEqual([]);
  });

  it("loads a model folder by absolute or ./relative path, with the same vectors as the hub name", async () => {
    const expected = await new TransformersEmbeddings(tinyBert).embedQuery("capital of france");
    const folder = join(MODELS, "tiny-bert");
    expect(await new TransformersEmbeddings({ model: folder }).embedQuery("capital of france")).toEqual(expected);
    const relativeFolder = `./${relative(process.cwd(), folder)}`;
    expect(await new TransformersEmbeddings({ model: relativeFolder, dtype: "fp32" }).embedQuery("capital of france")).toEqual(expected);
  });

  it("leaves transformers.js's global env as it was", async () => {
    const { env } = await import("@huggingface/transformers");
    const before = { localModelPath: env.localModelPath, allowRemoteModels: env.allowRemoteModels, allowLocalModels: env.allowLocalModels };
    await new TransformersEmbeddings(tinyBert).init();
    await new TransformersEmbeddings({ model: "elsewhere/none", localModelPath: MODELS }).init().catch(() => undefined);
    expect({ localModelPath: env.localModelPath, allowRemoteModels: env.allowRemoteModels, allowLocalModels: env.allowLocalModels }).toEqual(before);
  });

  it("honours pooling and normalize", async () => {
    const raw = await new TransformersEmbeddings({ ...tinyBert, normalize: false }).embedQuery("capital of france");
    expect(Math.hypot(...raw)).not.toBeCloseTo(1, 3);
    const cls = await new TransformersEmbeddings({ ...tinyBert, pooling: "cls", normalize: false }).embedQuery("capital of france");
    // The tiny model's [CLS] row is zero: CLS pooling takes it, mean pooling does not.
    expect(cls.every((value) => value === 0)).toBe(true);
  });

  describe("typed errors", () => {
    let dir: ReturnType<typeof tempDir>;
    beforeEach(() => (dir = tempDir()));
    afterEach(() => dir.cleanup());

    it("a hub name missing from localModelPath is an EmbeddingError saying to download it, and a later call retries", async () => {
      const embeddings = new TransformersEmbeddings({ model: "tiny-bert", localModelPath: dir.path });
      await expect(embeddings.init()).rejects.toThrow(EmbeddingError);
      await expect(embeddings.embedQuery("x")).rejects.toThrow(/"tiny-bert" is not available locally: .*config\.json does not exist\. Download it into `localModelPath` first/);
      cpSync(join(MODELS, "tiny-bert"), join(dir.path, "tiny-bert"), { recursive: true });
      expect(await embeddings.embedQuery("capital")).toHaveLength(16);
    });

    it("a folder without the weights is an EmbeddingError carrying transformers.js's ModelFileNotFoundError", async () => {
      cpSync(join(MODELS, "tiny-bert"), join(dir.path, "tiny-bert"), { recursive: true });
      rmSync(join(dir.path, "tiny-bert", "onnx"), { recursive: true });
      const error = await new TransformersEmbeddings({ model: join(dir.path, "tiny-bert") }).init().catch((e: unknown) => e);
      expect(error).toBeInstanceOf(EmbeddingError);
      expect((error as Error).message).toMatch(/cannot load the model .*Download the model's files into the folder first/);
      expect(((error as Error).cause as Error).name).toBe("ModelFileNotFoundError");
    });

    it("a text the model cannot pool is an EmbeddingError, not a NaN vector", async () => {
      // The tiny model gives [CLS] and [SEP] zero rows, so the empty text has nothing to normalise.
      await expect(new TransformersEmbeddings(tinyBert).embedQuery("")).rejects.toThrow(/input 0 a non-finite vector/);
    });

    it("bad options and inputs are ValidationErrors", async () => {
      expect(() => new TransformersEmbeddings({ model: "" })).toThrow(ValidationError);
      expect(() => new TransformersEmbeddings({ ...tinyBert, localModelPath: "" })).toThrow(ValidationError);
      expect(() => new TransformersEmbeddings({ ...tinyBert, pooling: "none" as "mean" })).toThrow(ValidationError);
      expect(() => new TransformersEmbeddings({ ...tinyBert, batchSize: 0 })).toThrow(ValidationError);
      await expect(new TransformersEmbeddings(tinyBert).embedDocuments([1 as unknown as string])).rejects.toThrow(ValidationError);
    });
  });
});

describe("TransformersEmbeddings as the cache's embedding (sqlite + hnswlib, cosine distance)", () => {
  let dir: ReturnType<typeof tempDir>;
  let cache: Cache;
  beforeEach(() => (dir = tempDir()));
  afterEach(async () => {
    await cache.close();
    dir.cleanup();
  });

  it("answers a reworded question from imported entries and asks the model for an unrelated one", async () => {
    cache = await new Cache().init({
      embeddingFunc: new TransformersEmbeddings(tinyBert),
      dataManager: managerFactory("sqlite,hnswlib", { dataDir: dir.path }),
      similarityEvaluation: new DistanceEvaluation(),
    });
    await cache.importData(
      ["what is the capital of france", "how do i bake sourdough bread at home", "how do i sort a list in python"],
      ["Paris.", "Feed a starter, knead, bake hot.", "Use sorted()."],
    );
    const model = countingModel((prompt) => `model answer to ${prompt}`, 0);
    const ask = cached(async (prompt: string) => ({ answer: await model.call(prompt), fromCache: false }), {
      requestOptions: { cacheObj: cache },
      answerOf: (reply) => reply.answer,
      fromCache: (hit) => ({ answer: hit.answer, fromCache: true }),
    });

    expect(await ask("what is the capital city of france")).toEqual({ answer: "Paris.", fromCache: true });
    expect(await ask("buy cheap coffee online")).toEqual({ answer: "model answer to buy cheap coffee online", fromCache: false });
    expect(model.calls).toBe(1);
    expect(cache.report.errors).toBe(0);
    expect(cache.embeddingFunc.dimension).toBe(16);
  });
});
