import type { ImageFeatureExtractionPipeline, RawImage, Tensor } from "@huggingface/transformers";
import { EmbeddingError, ValidationError } from "../core/errors.js";
import { decodeImage } from "./image-input.js";
import type { ImagePreprocess } from "./image-types.js";
import { importTransformers, type Transformers } from "../models/transformers-library.js";
import { checkModelOptions, LazyPipeline, loadTransformersPipeline, tensorRows, type TransformersModelOptions } from "./transformers.js";
import type { EmbeddingFunction, EmbeddingInput } from "../core/contracts/embedding.js";

export type { ImageInput, ImagePreprocess, RawImageLike } from "./image-types.js";

export interface TransformersImageEmbeddingsParams extends TransformersModelOptions {
  preprocess?: ImagePreprocess;
  /** L2-normalise each vector (CLIP compares images by cosine). Default true. */
  normalize?: boolean;
  /** Images per model run. Default 8. */
  batchSize?: number;
}

const FEATURE = "TransformersImageEmbeddings";

/**
 * A local transformers.js image model (CLIP-style: CLIPVisionModelWithProjection's image_embeds, or any
 * model the image-feature-extraction pipeline runs) as the cache's embedding, so lookups keyed by an image
 * hit entries for the same or a similar image. Offline by default, like TransformersEmbeddings; the model
 * loads on first use (or `init()`), once per instance.
 */
export class TransformersImageEmbeddings implements EmbeddingFunction {
  readonly options: Readonly<TransformersModelOptions>;
  readonly normalize: boolean;
  readonly batchSize: number;
  readonly #preprocess?: ImagePreprocess;
  readonly #pipeline: LazyPipeline<{ lib: Transformers; extractor: ImageFeatureExtractionPipeline }>;
  #dimension = 0;

  constructor(params: TransformersImageEmbeddingsParams) {
    checkModelOptions(params, FEATURE);
    const { model, localModelPath, allowRemoteModels = false, dtype, preprocess, normalize = true, batchSize = 8 } = params;
    if (preprocess !== undefined && typeof preprocess !== "function") throw new ValidationError(`${FEATURE}: \`preprocess\` must be a function.`);
    if (!Number.isInteger(batchSize) || batchSize < 1) throw new ValidationError(`${FEATURE}: \`batchSize\` must be a positive integer.`);
    this.options = { model, localModelPath, allowRemoteModels, dtype };
    this.normalize = normalize;
    this.batchSize = batchSize;
    this.#preprocess = preprocess;
    this.#pipeline = new LazyPipeline(async () => {
      const extractor = await loadTransformersPipeline<ImageFeatureExtractionPipeline>("image-feature-extraction", this.options, FEATURE);
      return { lib: await importTransformers(FEATURE), extractor };
    });
  }

  /** The vector length: 0 until `init()` or the first embedding. */
  get dimension(): number {
    return this.#dimension;
  }

  /** Loads the model and learns the dimension from one 1x1 grey image. */
  async init(): Promise<void> {
    if (this.#dimension > 0) return;
    const { lib } = await this.#pipeline.get();
    await this.#run([new lib.RawImage(new Uint8ClampedArray([128, 128, 128]), 1, 1, 3)]);
  }

  async embed(data: EmbeddingInput): Promise<Float32Array> {
    const [vector] = await this.embedBatch([data]);
    return vector;
  }

  async embedBatch(data: readonly EmbeddingInput[]): Promise<Float32Array[]> {
    const images = await Promise.all(data.map((item, i) => this.#toImage(item, i)));
    const vectors: Float32Array[] = [];
    for (let start = 0; start < images.length; start += this.batchSize) {
      vectors.push(...(await this.#run(images.slice(start, start + this.batchSize))));
    }
    return vectors;
  }

  async #toImage(data: EmbeddingInput, index: number): Promise<RawImage> {
    const { lib } = await this.#pipeline.get();
    return decodeImage(lib, data, index, { feature: FEATURE, preprocess: this.#preprocess });
  }

  async #run(images: RawImage[]): Promise<Float32Array[]> {
    if (images.length === 0) return [];
    const { extractor } = await this.#pipeline.get();
    let output: Tensor;
    try {
      output = await extractor(images);
      if (this.normalize) output = output.normalize(2, -1);
    } catch (error) {
      throw new EmbeddingError(`${FEATURE} failed: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
    }
    const vectors = tensorRows(output, FEATURE).map((row) => Float32Array.from(row));
    this.#dimension = vectors[0].length;
    return vectors;
  }
}
