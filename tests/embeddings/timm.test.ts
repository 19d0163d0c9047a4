/**
 * @jest-environment ./tests/embeddings/onnx-environment.mjs
 */
/**
 * TimmImageEmbeddings on a tiny timm-style model (a convolution's feature map, tests/fixtures/make-tiny-models.ts)
 * with timm's config.json: preprocessing as timm's eval transform, pooling as GPTCache's Timm. The model is random:
 * these tests prove the plumbing, not the quality of a real timm model.
 */
import { copyFileSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { RawImage } from "@huggingface/transformers";
import { EmbeddingError, ValidationError } from "../../src/core/errors.js";
import { cosineSimilarity } from "../../src/core/vector-math.js";
import { poolImageFeatures, TimmImageEmbeddings } from "../../src/embeddings/timm.js";
import { readTimmConfig, timmPixels, type TimmDataConfig } from "../../src/embeddings/timm-transform.js";
import type { EmbeddingInput } from "../../src/core/contracts/embedding.js";
import { testEmbeddingFunction } from "../../src/testing/embedding-contract.js";
import { tempDir } from "../helpers/fixtures.js";

const MODELS = fileURLToPath(new URL("../fixtures/tiny-models/", import.meta.url));
const modelPath = join(MODELS, "tiny-timm", "model.onnx");

/** A width x height RGB image whose pixels follow `shade`. */
const image = (shade: (i: number) => number, width = 12, height = 10) =>
  new RawImage(Uint8ClampedArray.from({ length: width * height * 3 }, (_, i) => shade(i) % 256), width, height, 3);
const gradient = image((i) => i * 3);
const nearGradient = image((i) => i * 3 + (i % 7 === 0 ? 2 : 0));
const stripes = image((i) => (Math.floor(i / 36) % 2 === 0 ? 250 : 10));

/** Draws any input as an image (its bytes as pixels), so the contract's text keys work. */
const draw = (data: EmbeddingInput) => {
  const bytes = typeof data === "string" ? new TextEncoder().encode(data) : data;
  return image((i) => bytes[i % Math.max(bytes.length, 1)] ?? 0);
};

testEmbeddingFunction({ name: "TimmImageEmbeddings (tiny timm-style model, inputs drawn by preprocess)", create: () => new TimmImageEmbeddings({ modelPath, preprocess: draw }) });

describe("TimmImageEmbeddings", () => {
  let dir: ReturnType<typeof tempDir>;
  beforeEach(() => (dir = tempDir()));
  afterEach(() => dir.cleanup());

  let written = 0;
  async function pngFile(raw: RawImage): Promise<string> {
    const file = join(dir.path, `image-${written++}.png`);
    await raw.save(file);
    return file;
  }

  it("reads timm's pretrained_cfg and learns the dimension from the feature map on init", async () => {
    const embeddings = new TimmImageEmbeddings({ modelPath });
    expect(embeddings.dimension).toBe(0);
    await embeddings.init();
    expect(embeddings.dimension).toBe(8);
    expect(await embeddings.dataConfig()).toEqual({
      inputSize: [3, 8, 8],
      interpolation: "bicubic",
      cropPct: 0.875,
      cropMode: "center",
      mean: [0.485, 0.456, 0.406],
      std: [0.229, 0.224, 0.225],
      numClasses: 0,
      numFeatures: 8,
    });
  });

  it("takes a file path, its bytes or a data: URL alike; a batch equals one at a time", async () => {
    const embeddings = new TimmImageEmbeddings({ modelPath, batchSize: 2 });
    const file = await pngFile(gradient);
    const bytes = readFileSync(file);
    const fromPath = await embeddings.embed(file);
    expect(fromPath).toHaveLength(8);
    expect(Math.hypot(...fromPath)).toBeCloseTo(1, 5);
    expect(await embeddings.embed(bytes)).toEqual(fromPath);
    expect(await embeddings.embed(`data:image/png;base64,${bytes.toString("base64")}`)).toEqual(fromPath);
    const others = await Promise.all([nearGradient, stripes].map(pngFile));
    const batch = await embeddings.embedBatch([file, ...others]);
    expect(batch[0]).toEqual(fromPath);
    expect(batch[2]).toEqual(await embeddings.embed(others[1]));
  });

  it("puts a slightly changed image closer than a different one", async () => {
    const embeddings = new TimmImageEmbeddings({ modelPath });
    const [a, b, c] = await embeddings.embedBatch(await Promise.all([gradient, nearGradient, stripes].map(pngFile)));
    expect(cosineSimilarity(a, b)).toBeGreaterThan(0.99);
    expect(cosineSimilarity(a, c)).toBeLessThan(cosineSimilarity(a, b) - 0.05);
  });

  it("keeps raw magnitudes with normalize: false", async () => {
    const vector = await new TimmImageEmbeddings({ modelPath, normalize: false }).embed(await pngFile(gradient));
    expect(Math.hypot(...vector)).not.toBeCloseTo(1, 2);
  });

  describe("timm's eval transform", () => {
    const cfg: TimmDataConfig = { inputSize: [3, 8, 8], interpolation: "nearest", cropPct: 1, cropMode: "center", mean: [0.5, 0.25, 0], std: [0.5, 0.25, 1], numClasses: 0 };
    // 16 x 8, each column its own grey: the crop's columns can be read back from the pixels.
    const columns = new RawImage(Uint8ClampedArray.from({ length: 16 * 8 * 3 }, (_, i) => Math.floor(i / 3) % 16 * 10), 16, 8, 3);

    it("resizes the shorter side to size / crop_pct, crops the centre, then normalises channel by channel", () => {
      const pixels = timmPixels(columns, cfg);
      expect(pixels).toHaveLength(3 * 8 * 8);
      const plane = 8 * 8;
      // Centre crop of 16 columns to 8: columns 4..11, on every row.
      const firstRow = Array.from({ length: 8 }, (_, x) => pixels[x]);
      expect(firstRow.map((v) => Math.round(((v * 0.5 + 0.5) * 255) / 10))).toEqual([4, 5, 6, 7, 8, 9, 10, 11]);
      // (value / 255 - mean) / std per channel, CHW.
      expect(pixels[0]).toBeCloseTo((40 / 255 - 0.5) / 0.5, 6);
      expect(pixels[plane]).toBeCloseTo((40 / 255 - 0.25) / 0.25, 6);
      expect(pixels[2 * plane + 7]).toBeCloseTo(110 / 255, 6);
    });

    it("crop_pct below 1 scales up first; squash resizes both sides; alpha is dropped, the caller's image left as it was", () => {
      const rgba = new RawImage(new Uint8ClampedArray(20 * 10 * 4).fill(200), 20, 10, 4);
      const centred = timmPixels(rgba, { ...cfg, cropPct: 0.5 });
      expect(centred).toHaveLength(3 * 8 * 8);
      expect(rgba.channels).toBe(4);
      expect(centred[0]).toBeCloseTo((200 / 255 - 0.5) / 0.5, 6);
      const squashed = timmPixels(columns, { ...cfg, cropMode: "squash" });
      // Squashed to 8 x 8: every second column survives, so the row spans the whole image.
      const row = Array.from({ length: 8 }, (_, x) => Math.round(((squashed[x] * 0.5 + 0.5) * 255) / 10));
      expect(row[0]).toBeLessThan(2);
      expect(row[7]).toBeGreaterThan(13);
    });
  });

  it("pools features as GPTCache's Timm: pooled rows as they are, a token sequence's first token, a feature map's average", () => {
    expect(poolImageFeatures({ data: Float32Array.from([1, 2, 3, 4]), dims: [2, 2] })).toEqual([Float32Array.from([1, 2]), Float32Array.from([3, 4])]);
    expect(poolImageFeatures({ data: Float32Array.from([1, 2, 9, 9, 3, 4, 9, 9]), dims: [2, 2, 2] })).toEqual([Float32Array.from([1, 2]), Float32Array.from([3, 4])]);
    expect(poolImageFeatures({ data: Float32Array.from([1, 3, 5, 7, 2, 2, 2, 2]), dims: [1, 2, 2, 2] })).toEqual([Float32Array.from([4, 2])]);
    expect(() => poolImageFeatures({ data: new Float32Array(2), dims: [2] })).toThrow(EmbeddingError);
    // Swin's feature map is channels last: num_features says which axis holds the channels.
    const swin = { data: Float32Array.from([1, 10, 20, 3, 10, 20]), dims: [1, 1, 2, 3] };
    expect(poolImageFeatures(swin, { numFeatures: 3 })).toEqual([Float32Array.from([2, 10, 20])]);
    expect(() => poolImageFeatures(swin, { numFeatures: 7 })).toThrow(/neither its second nor its last axis/);
    // global_pool "avg" (BEiT): the mean of the tokens after the class token.
    expect(poolImageFeatures({ data: Float32Array.from([9, 9, 1, 2, 3, 4]), dims: [1, 3, 2] }, { globalPool: "avg" })).toEqual([Float32Array.from([2, 3])]);
  });

  describe("typed errors", () => {
    const config = (pretrained: Record<string, unknown> | undefined, extra: Record<string, unknown> = {}) => {
      const path = join(dir.path, `config-${written++}.json`);
      writeFileSync(path, JSON.stringify({ ...extra, ...(pretrained && { pretrained_cfg: pretrained }) }));
      return path;
    };

    it("refuses a config.json that would not preprocess as timm does", async () => {
      await expect(readTimmConfig(config(undefined), "T")).rejects.toThrow("no pretrained_cfg");
      await expect(readTimmConfig(config({ interpolation: "random" }), "T")).rejects.toThrow('interpolation "random" is not supported');
      expect((await readTimmConfig(config({ interpolation: "hamming" }), "T")).interpolation).toBe("hamming");
      await expect(readTimmConfig(config({ crop_mode: "border" }), "T")).rejects.toThrow('crop_mode "border" is not supported');
      await expect(readTimmConfig(config({ input_size: [3, 224, 160] }), "T")).rejects.toThrow('non-square input_size is supported with crop_mode "squash" only');
      await expect(readTimmConfig(config({ crop_pct: 1.5 }), "T")).rejects.toThrow(ValidationError);
      await expect(readTimmConfig(config({ mean: [0.5, 0.5] }), "T")).rejects.toThrow(ValidationError);
      expect((await readTimmConfig(config({}), "T")).inputSize).toEqual([3, 224, 224]);
    });

    it("refuses a model that outputs its classifier's logits instead of features", async () => {
      // The CLIP fixture's projection stands in for a head: [batch, 8] scores, and a config saying 8 classes.
      const vision = join(dir.path, "head.onnx");
      copyFileSync(join(MODELS, "tiny-clip-vision", "onnx", "vision_model.onnx"), vision);
      const headed = new TimmImageEmbeddings({ modelPath: vision, configPath: config({ input_size: [3, 4, 4], num_classes: 8 }) });
      await expect(headed.init()).rejects.toThrow("the model outputs 8 class logits; export its features instead");
      const pooled = new TimmImageEmbeddings({ modelPath: vision, configPath: config({ input_size: [3, 4, 4] }, { num_classes: 0 }) });
      await pooled.init();
      expect(pooled.dimension).toBe(8);
    });

    it("missing files are EmbeddingErrors naming them; inputs that are no image are ValidationErrors", async () => {
      await expect(new TimmImageEmbeddings({ modelPath: join(dir.path, "none.onnx"), configPath: join(MODELS, "tiny-timm", "config.json") }).init()).rejects.toThrow(/none\.onnx does not exist/);
      await expect(new TimmImageEmbeddings({ modelPath: join(dir.path, "model.onnx") }).init()).rejects.toThrow(/config\.json does not exist/);
      const embeddings = new TimmImageEmbeddings({ modelPath });
      await expect(embeddings.embed("a cat on a mat")).rejects.toThrow(/input 0 is neither a data: URL nor a readable image file/);
      await expect(embeddings.embed(new TextEncoder().encode("not a png"))).rejects.toThrow(ValidationError);
      const failing = new TimmImageEmbeddings({ modelPath, preprocess: () => Promise.reject(new Error("no such camera")) });
      await expect(failing.embed("x")).rejects.toThrow("`preprocess` failed on input 0: no such camera");
    });

    it("bad options are ValidationErrors", () => {
      expect(() => new TimmImageEmbeddings({ modelPath: "" })).toThrow(ValidationError);
      expect(() => new TimmImageEmbeddings({ modelPath, batchSize: 0 })).toThrow(ValidationError);
      expect(() => new TimmImageEmbeddings({ modelPath, configPath: "" })).toThrow(ValidationError);
      expect(() => new TimmImageEmbeddings({ modelPath, preprocess: "resize" as never })).toThrow(ValidationError);
    });
  });
});
