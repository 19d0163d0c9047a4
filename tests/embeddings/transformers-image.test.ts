/**
 * @jest-environment ./tests/embeddings/onnx-environment.mjs
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { RawImage } from "@huggingface/transformers";
import { cached } from "../../src/adapters/function.js";
import { Cache } from "../../src/presets/cache.js";
import { EmbeddingError, ValidationError } from "../../src/core/errors.js";
import { cosineSimilarity } from "../../src/core/vector-math.js";
import { TransformersImageEmbeddings, type TransformersImageEmbeddingsParams } from "../../src/embeddings/transformers-image.js";
import type { EmbeddingInput } from "../../src/core/contracts/embedding.js";
import { testEmbeddingFunction } from "../../src/testing/embedding-contract.js";
import { managerFactory } from "../../src/presets/manager-factory.js";
import { DistanceEvaluation } from "../../src/similarity/distance.js";
import { countingModel, tempDir } from "../helpers/fixtures.js";

const MODELS = fileURLToPath(new URL("../fixtures/tiny-models/", import.meta.url));
const tinyClip: TransformersImageEmbeddingsParams = { model: "tiny-clip-vision", localModelPath: MODELS };

/** An 8x8 RGB image whose pixels follow `shade`. */
const image = (shade: (i: number) => number) => new RawImage(Uint8ClampedArray.from({ length: 8 * 8 * 3 }, (_, i) => shade(i) % 256), 8, 8, 3);
const gradient = image((i) => i * 4);
const nearGradient = image((i) => i * 4 + (i % 7 === 0 ? 3 : 0));
const stripes = image((i) => (Math.floor(i / 24) % 2 === 0 ? 250 : 10));

/** A `preprocess` that draws any input as an image (its bytes as pixels), so text keys work too. */
const draw = (data: EmbeddingInput) => {
  const bytes = typeof data === "string" ? new TextEncoder().encode(data) : data;
  return image((i) => bytes[i % Math.max(bytes.length, 1)] ?? 0);
};

testEmbeddingFunction({
  name: "TransformersImageEmbeddings (tiny CLIP-style vision model, inputs drawn by preprocess)",
  create: () => new TransformersImageEmbeddings({ ...tinyClip, preprocess: draw }),
});

describe("TransformersImageEmbeddings", () => {
  let dir: ReturnType<typeof tempDir>;
  beforeEach(() => (dir = tempDir()));
  afterEach(() => dir.cleanup());

  /** The image encoded as PNG bytes (by sharp, through RawImage.save). */
  let written = 0;
  async function png(raw: RawImage): Promise<Uint8Array> {
    const file = join(dir.path, `image-${written++}.png`);
    await raw.save(file);
    return readFileSync(file);
  }

  it("embeds PNG bytes as the decoded pixels, learning the dimension on init", async () => {
    const embeddings = new TransformersImageEmbeddings({ ...tinyClip, preprocess: (data) => (typeof data === "string" ? gradient : data) });
    expect(embeddings.dimension).toBe(0);
    await embeddings.init();
    expect(embeddings.dimension).toBe(8);
    const fromBytes = await embeddings.embed(await png(gradient));
    expect(fromBytes).toHaveLength(8);
    expect(Math.hypot(...fromBytes)).toBeCloseTo(1, 5);
    expect(await embeddings.embed("the gradient")).toEqual(fromBytes);
  });

  it("puts a slightly changed image closer than a different one; a batch equals one at a time", async () => {
    const embeddings = new TransformersImageEmbeddings({ ...tinyClip, batchSize: 2 });
    const [a, b, c] = await embeddings.embedBatch(await Promise.all([gradient, nearGradient, stripes].map(png)));
    expect(cosineSimilarity(a, b)).toBeGreaterThan(0.99);
    expect(cosineSimilarity(a, c)).toBeLessThan(cosineSimilarity(a, b) - 0.1);
    expect(await embeddings.embed(await png(stripes))).toEqual(c);
  });

  it("as the cache's embedding, keyed by image file names read by preprocess: a near-identical image hits", async () => {
    const files: Record<string, string> = {};
    for (const [name, raw] of Object.entries({ gradient, nearGradient, stripes })) {
      files[name] = join(dir.path, `${name}.png`);
      await raw.save(files[name]);
    }
    const cache = await new Cache().init({
      embeddingFunc: new TransformersImageEmbeddings({ ...tinyClip, preprocess: (path) => readFileSync(path as string) }),
      dataManager: managerFactory("sqlite,hnswlib", { dataDir: join(dir.path, "cache") }),
      similarityEvaluation: new DistanceEvaluation(),
    });
    try {
      await cache.importData([files.gradient], ["a colour gradient"]);
      const model = countingModel((prompt) => `model answer to ${prompt}`, 0);
      const ask = cached(async (prompt: string) => ({ answer: await model.call(prompt), fromCache: false }), {
        requestOptions: { cacheObj: cache },
        answerOf: (reply) => reply.answer,
        fromCache: (hit) => ({ answer: hit.answer, fromCache: true }),
      });
      expect(await ask(files.nearGradient)).toEqual({ answer: "a colour gradient", fromCache: true });
      expect(await ask(files.stripes)).toEqual({ answer: `model answer to ${files.stripes}`, fromCache: false });
      expect(model.calls).toBe(1);
      expect(cache.report.errors).toBe(0);
    } finally {
      await cache.close();
    }
  });

  it("keeps raw magnitudes with normalize: false", async () => {
    const vector = await new TransformersImageEmbeddings({ ...tinyClip, normalize: false }).embed(await png(gradient));
    expect(Math.hypot(...vector)).not.toBeCloseTo(1, 2);
  });

  describe("typed errors", () => {
    it("text without preprocess, and bytes that are not an image, are ValidationErrors", async () => {
      const embeddings = new TransformersImageEmbeddings(tinyClip);
      await expect(embeddings.embed("a cat")).rejects.toThrow(/input 0: was given string; image bytes or a RawImage are needed/);
      await expect(embeddings.embed(new TextEncoder().encode("not a png"))).rejects.toThrow(ValidationError);
    });

    it("a failing preprocess is an EmbeddingError; a model not on disk is an EmbeddingError saying to download it", async () => {
      const failing = new TransformersImageEmbeddings({ ...tinyClip, preprocess: () => Promise.reject(new Error("no such file")) });
      await expect(failing.embed("cat.png")).rejects.toThrow(/`preprocess` failed on input 0: no such file/);
      await expect(new TransformersImageEmbeddings({ model: "openai/clip-vit-base-patch32", localModelPath: dir.path }).init()).rejects.toThrow(
        new RegExp(`openai/clip-vit-base-patch32" is not available locally.*Download it into \`localModelPath\` first`),
      );
      await expect(failing.embed("x")).rejects.toThrow(EmbeddingError);
    });

    it("bad options are ValidationErrors", () => {
      expect(() => new TransformersImageEmbeddings({ model: "" })).toThrow(ValidationError);
      expect(() => new TransformersImageEmbeddings({ ...tinyClip, batchSize: 1.5 })).toThrow(ValidationError);
      expect(() => new TransformersImageEmbeddings({ ...tinyClip, preprocess: "resize" as never })).toThrow(ValidationError);
    });
  });
});
