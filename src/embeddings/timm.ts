import { dirname, join } from "node:path";
import type { RawImage } from "@huggingface/transformers";
import { EmbeddingError, ValidationError } from "../core/errors.js";
import { decodeImage } from "./image-input.js";
import type { ImagePreprocess } from "./image-types.js";
import { OnnxSession, requireModelFile, type OnnxOutput } from "../models/onnx-session.js";
import { readTimmConfig, timmPixels, type TimmDataConfig } from "./timm-transform.js";
import { importTransformers, type Transformers } from "../models/transformers-library.js";
import { LazyPipeline } from "./transformers.js";
import type { EmbeddingFunction, EmbeddingInput } from "../core/contracts/embedding.js";

export interface TimmImageEmbeddingsParams {
  /** The model exported to ONNX: one input [batch, 3, height, width], its first output the features. */
  modelPath: string;
  /** timm's config.json with `pretrained_cfg` (input_size, interpolation, crop_pct, crop_mode, mean, std). Default: beside the model. */
  configPath?: string;
  /** Maps inputs to images first (text keys, custom formats). Without it: bytes, file paths and data: URLs. */
  preprocess?: ImagePreprocess;
  /** L2-normalise each vector. Default true. */
  normalize?: boolean;
  /** Images per model run. Default 8. */
  batchSize?: number;
}

const FEATURE = "TimmImageEmbeddings";

/** What the model's config says about its features' layout (see TimmDataConfig). */
export interface FeatureLayout {
  numFeatures?: number;
  globalPool?: string;
}

/**
 * One vector per image from a model's features, as GPTCache's Timm post-processes `forward_features`:
 * [batch, dimension] as is (pooled already, e.g. exported with num_classes=0); [batch, tokens, dimension] its
 * first (class) token, or with global_pool "avg" the mean of the tokens after it; a feature map the average over
 * its positions, channels first ([batch, channels, height, width]) unless `numFeatures` says they are last (Swin's
 * [batch, height, width, channels]).
 */
export function poolImageFeatures(output: OnnxOutput, layout: FeatureLayout = {}, feature = FEATURE): Float32Array[] {
  const { data, dims } = output;
  const [batch] = dims;
  const rows = (dimension: number, at: (b: number, d: number) => number) =>
    Array.from({ length: batch }, (_, b) => Float32Array.from({ length: dimension }, (_, d) => at(b, d)));
  if (dims.length === 2) return rows(dims[1], (b, d) => data[b * dims[1] + d]);
  if (dims.length === 3) {
    const [, tokens, width] = dims;
    if (layout.globalPool !== "avg") return rows(width, (b, d) => data[b * tokens * width + d]);
    if (tokens < 2) throw new EmbeddingError(`${feature}: global_pool "avg" needs tokens after the class token; the output has shape [${dims.join(", ")}].`);
    return rows(width, (b, d) => {
      let sum = 0;
      for (let t = 1; t < tokens; t++) sum += data[(b * tokens + t) * width + d];
      return sum / (tokens - 1);
    });
  }
  if (dims.length === 4) {
    const { numFeatures } = layout;
    const channelsLast = numFeatures !== undefined && dims[3] === numFeatures && dims[1] !== numFeatures;
    if (numFeatures !== undefined && !channelsLast && dims[1] !== numFeatures) {
      throw new EmbeddingError(`${feature}: the feature map has shape [${dims.join(", ")}]; neither its second nor its last axis is num_features (${numFeatures}).`);
    }
    const [channels, area] = channelsLast ? [dims[3], dims[1] * dims[2]] : [dims[1], dims[2] * dims[3]];
    // Channels first: a channel's positions are consecutive; channels last: a position's channels are.
    const at = channelsLast ? (b: number, c: number, i: number) => (b * area + i) * channels + c : (b: number, c: number, i: number) => (b * channels + c) * area + i;
    return rows(channels, (b, c) => {
      let sum = 0;
      for (let i = 0; i < area; i++) sum += data[at(b, c, i)];
      return sum / area;
    });
  }
  throw new EmbeddingError(`${feature}: the model's output has shape [${dims.join(", ")}]; features of 2, 3 or 4 dimensions are needed.`);
}

interface LoadedTimm {
  lib: Transformers;
  session: OnnxSession;
  input: string;
  cfg: TimmDataConfig;
}

/**
 * A timm image model (resnet, convnext, vit, ... exported to ONNX without its classifier) as the cache's
 * embedding: timm's own evaluation preprocessing read from the model's config.json, onnxruntime-node, the
 * features pooled as GPTCache's Timm pools them, L2-normalised. Images come as bytes, file paths or data: URLs
 * (or anything `preprocess` maps to an image), decoded by sharp through @huggingface/transformers, resized as Pillow does.
 * Both packages are optional: a missing one is a MissingDependencyError. The model loads on first use or `init()`.
 */
export class TimmImageEmbeddings implements EmbeddingFunction {
  readonly modelPath: string;
  readonly configPath: string;
  readonly normalize: boolean;
  readonly batchSize: number;
  readonly #preprocess?: ImagePreprocess;
  readonly #model: LazyPipeline<LoadedTimm>;
  #dimension = 0;

  constructor(params: TimmImageEmbeddingsParams) {
    const { modelPath, configPath, preprocess, normalize = true, batchSize = 8 } = params ?? {};
    if (typeof modelPath !== "string" || modelPath === "") throw new ValidationError(`${FEATURE}: \`modelPath\` (the .onnx file) is required.`);
    if (configPath !== undefined && (typeof configPath !== "string" || configPath === "")) throw new ValidationError(`${FEATURE}: \`configPath\` must be a file path.`);
    if (preprocess !== undefined && typeof preprocess !== "function") throw new ValidationError(`${FEATURE}: \`preprocess\` must be a function.`);
    if (!Number.isInteger(batchSize) || batchSize < 1) throw new ValidationError(`${FEATURE}: \`batchSize\` must be a positive integer.`);
    this.modelPath = modelPath;
    this.configPath = configPath ?? join(dirname(modelPath), "config.json");
    this.normalize = normalize;
    this.batchSize = batchSize;
    this.#preprocess = preprocess;
    this.#model = new LazyPipeline(() => this.#load());
  }

  /** The vector length: 0 until `init()` or the first embedding. */
  get dimension(): number {
    return this.#dimension;
  }

  /** The preprocessing read from config.json (after `init()` or the first embedding). */
  async dataConfig(): Promise<TimmDataConfig> {
    return (await this.#model.get()).cfg;
  }

  /** Loads the model and learns the dimension from one grey image of the model's input size. */
  async init(): Promise<void> {
    if (this.#dimension > 0) return;
    const { lib, cfg } = await this.#model.get();
    const [, height, width] = cfg.inputSize;
    await this.#run([new lib.RawImage(new Uint8ClampedArray(height * width * 3).fill(128), width, height, 3)]);
  }

  async embed(data: EmbeddingInput): Promise<Float32Array> {
    const [vector] = await this.embedBatch([data]);
    return vector;
  }

  async embedBatch(data: readonly EmbeddingInput[]): Promise<Float32Array[]> {
    const { lib } = await this.#model.get();
    const options = { feature: FEATURE, preprocess: this.#preprocess, readStrings: true };
    const images = await Promise.all(data.map((item, i) => decodeImage(lib, item, i, options)));
    const vectors: Float32Array[] = [];
    for (let start = 0; start < images.length; start += this.batchSize) {
      vectors.push(...(await this.#run(images.slice(start, start + this.batchSize))));
    }
    return vectors;
  }

  async #load(): Promise<LoadedTimm> {
    await requireModelFile(this.configPath, `${FEATURE}: the model's config.json`);
    const cfg = await readTimmConfig(this.configPath, FEATURE);
    const [lib, session] = await Promise.all([importTransformers(FEATURE), OnnxSession.load(this.modelPath, FEATURE)]);
    if (session.inputNames.length !== 1) {
      throw new EmbeddingError(`${FEATURE}: the model ${this.modelPath} takes ${session.inputNames.length} inputs (${session.inputNames.join(", ")}); an image model takes one, [batch, 3, height, width].`);
    }
    return { lib, session, input: session.inputNames[0], cfg };
  }

  async #run(images: RawImage[]): Promise<Float32Array[]> {
    if (images.length === 0) return [];
    const { session, input, cfg } = await this.#model.get();
    const [, height, width] = cfg.inputSize;
    const pixels = new Float32Array(images.length * 3 * height * width);
    for (const [i, image] of images.entries()) pixels.set(timmPixels(image, cfg), i * 3 * height * width);
    const output = await session.run({ [input]: { type: "float32", data: pixels, dims: [images.length, 3, height, width] } });
    // A head's logits are class scores, not features: the same numbers for every picture of the same class.
    if (output.dims.length === 2 && cfg.numClasses > 0 && output.dims[1] === cfg.numClasses) {
      throw new EmbeddingError(
        `${FEATURE}: the model outputs ${cfg.numClasses} class logits; export its features instead (timm.create_model(name, pretrained=True, num_classes=0), or forward_features).`,
      );
    }
    const vectors = poolImageFeatures(output, cfg);
    for (const [i, vector] of vectors.entries()) {
      if (!vector.every(Number.isFinite)) throw new EmbeddingError(`${FEATURE}: the model gave input ${i} a non-finite vector.`);
      if (this.normalize) {
        const norm = Math.hypot(...vector);
        if (norm > 0) for (let d = 0; d < vector.length; d++) vector[d] /= norm;
      }
    }
    this.#dimension = vectors[0].length;
    return vectors;
  }
}
