import type * as TransformersModule from "@huggingface/transformers";
import type { ImageFeatureExtractionPipeline, RawImage, Tensor } from "@huggingface/transformers";
import { EmbeddingError, SemcacheError, ValidationError } from "../core/errors.js";
import { importOptional } from "../core/optional-import.js";
import { checkModelOptions, LazyPipeline, loadTransformersPipeline, tensorRows, type TransformersModelOptions } from "./transformers.js";
import type { EmbeddingFunction, EmbeddingInput } from "./types.js";

type Transformers = typeof TransformersModule;

/** An image as the model takes it: encoded bytes (PNG, JPEG, WebP, ... decoded by sharp) or decoded pixels. */
export type ImageInput = Uint8Array | RawImageLike;

/** A transformers.js RawImage (decoded pixels), typed by shape so that these declarations compile without the library. */
export interface RawImageLike {
  readonly data: ArrayLike<number>;
  readonly width: number;
  readonly height: number;
  readonly channels: number;
}

/**
 * Turns what the cache is given (a file name, a data URL, raw pixels, a text to render, ...) into an image;
 * it may be async. Without it, bytes are the encoded image and text is refused.
 */
export type ImagePreprocess = (data: EmbeddingInput) => ImageInput | Promise<ImageInput>;

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
      const imported = await importOptional<Transformers & { default?: Transformers }>("@huggingface/transformers", FEATURE);
      return { lib: imported.default ?? imported, extractor };
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
    let image: ImageInput;
    try {
      image = this.#preprocess ? await this.#preprocess(data) : (data as ImageInput);
    } catch (error) {
      if (SemcacheError.isInstance(error)) throw error;
      throw new EmbeddingError(`${FEATURE}: \`preprocess\` failed on input ${index}: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
    }
    if (image instanceof lib.RawImage) return image;
    if (!(image instanceof Uint8Array)) {
      const what = this.#preprocess ? "`preprocess` returned" : "was given";
      throw new ValidationError(`${FEATURE}: input ${index}: ${what} ${typeof image}; image bytes or a RawImage are needed (map other inputs with \`preprocess\`).`);
    }
    try {
      return await lib.RawImage.read(new Blob([image]));
    } catch (error) {
      throw new ValidationError(`${FEATURE}: input ${index} is not an image sharp can decode: ${(error as Error).message}`, { cause: error });
    }
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
