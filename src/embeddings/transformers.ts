import { stat } from "node:fs/promises";
import { isAbsolute, join, resolve } from "node:path";
import { Embeddings, type EmbeddingsParams } from "@langchain/core/embeddings";
import type { DataType, FeatureExtractionPipeline, PipelineType, Tensor } from "@huggingface/transformers";
import { EmbeddingError, SemcacheError, ValidationError } from "../core/errors.js";
import { importTransformers } from "../models/transformers-library.js";


/** Where a transformers.js model comes from, shared by the text and image embeddings. */
export interface TransformersModelOptions {
  /**
   * A model folder (an absolute path, or one starting with "./" or "../": config.json, onnx/model.onnx, and the
   * tokenizer or preprocessor files), or a hub name such as "Xenova/all-MiniLM-L6-v2", looked up as the folder
   * `<localModelPath>/<name>`.
   */
  model: string;
  /** The folder holding downloaded hub models. Default: transformers.js's `env.localModelPath` (read, never written). */
  localModelPath?: string;
  /**
   * Whether a hub name missing from `localModelPath` may be downloaded from the Hugging Face Hub (into
   * transformers.js's `env.cacheDir`). Default false: models load offline, and a missing one is an
   * EmbeddingError saying to download it first. Folders never download.
   */
  allowRemoteModels?: boolean;
  /**
   * Which weights file to load, as transformers.js names them ("auto", "fp32" for onnx/model.onnx, "fp16", "q8"
   * for onnx/model_quantized.onnx, "int8", "uint8", "q4", "bnb4", "q4f16"). Default: transformers.js's.
   */
  dtype?: string;
}

/** How token vectors become one text vector (transformers.js's pooling options, "none" excluded). */
export type TransformersPooling = "mean" | "cls" | "first_token" | "eos" | "last_token";

const POOLINGS: readonly TransformersPooling[] = ["mean", "cls", "first_token", "eos", "last_token"];

export interface TransformersEmbeddingsParams extends EmbeddingsParams, TransformersModelOptions {
  /** Default "mean" (sentence-transformers models). */
  pooling?: TransformersPooling;
  /** L2-normalise each vector. Default true. */
  normalize?: boolean;
  /** Texts per model run. Default 32. */
  batchSize?: number;
}

const isFolderPath = (model: string) => isAbsolute(model) || /^\.\.?[/\\]/.test(model);

async function exists(path: string): Promise<boolean> {
  return stat(path).then(
    () => true,
    () => false,
  );
}

/** Checks the model options shared by every transformers.js embedding. */
export function checkModelOptions(options: TransformersModelOptions, feature: string): void {
  if (typeof options?.model !== "string" || options.model.trim() === "") {
    throw new ValidationError(`${feature}: \`model\` must be a model folder or a hub model name.`);
  }
  if (options.localModelPath !== undefined && (typeof options.localModelPath !== "string" || options.localModelPath === "")) {
    throw new ValidationError(`${feature}: \`localModelPath\` must be a folder path.`);
  }
}

/**
 * Builds a transformers.js pipeline without writing its global `env`: the model is resolved to a folder here
 * (`localModelPath` joined with a hub name), passed as a path, and loaded with `local_files_only`, so two
 * instances with different options never see each other's settings. Only a hub name missing locally with
 * `allowRemoteModels` goes to the library by name (and to its global `env.cacheDir`).
 */
export async function loadTransformersPipeline<T>(task: string, options: TransformersModelOptions, feature: string): Promise<T> {
  const lib = await importTransformers(feature);
  const { model, allowRemoteModels = false, dtype } = options;
  const folder = isFolderPath(model) ? resolve(model) : resolve(options.localModelPath ?? lib.env.localModelPath, model);
  const local = await exists(join(folder, "config.json"));
  if (!local && (isFolderPath(model) || !allowRemoteModels)) {
    const where = isFolderPath(model) ? "" : " Download it into `localModelPath` first (or set `allowRemoteModels: true` on a machine with network).";
    throw new EmbeddingError(`${feature}: the model "${model}" is not available locally: ${join(folder, "config.json")} does not exist.${where}`);
  }
  try {
    const pipeline = lib.pipeline as (task: PipelineType, model: string, options: object) => Promise<unknown>;
    return (await pipeline(task as PipelineType, local ? folder : model, { local_files_only: local, dtype: dtype as DataType | undefined })) as T;
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    const hint = (error as Error)?.name === "ModelFileNotFoundError" ? " Download the model's files into the folder first." : "";
    throw new EmbeddingError(`${feature}: cannot load the model "${model}": ${reason}${hint}`, { cause: error });
  }
}

/** A transformers.js Tensor, typed by shape so that these declarations compile without the library. */
export interface TensorLike {
  readonly dims: readonly number[];
  tolist(): unknown;
}

/** Rows of a [batch, dimension] tensor, refusing anything else (token vectors, a wrong model). */
export function tensorRows(output: TensorLike, feature: string): number[][] {
  if (output.dims.length !== 2) {
    throw new EmbeddingError(`${feature}: the model's output has shape [${output.dims.join(", ")}]; one vector per input [batch, dimension] is needed.`);
  }
  const rows = output.tolist() as number[][];
  const bad = rows.findIndex((row) => !row.every(Number.isFinite));
  if (bad >= 0) throw new EmbeddingError(`${feature}: the model gave input ${bad} a non-finite vector (an input with nothing to pool?).`);
  return rows;
}

/** Keeps a promise of a loaded model per instance; a failed load is retried by the next call. */
export class LazyPipeline<T> {
  #loading?: Promise<T>;

  constructor(private readonly load: () => Promise<T>) {}

  get(): Promise<T> {
    this.#loading ??= this.load();
    this.#loading.catch(() => (this.#loading = undefined));
    return this.#loading;
  }
}

const FEATURE = "TransformersEmbeddings";
/** Plain words every vocabulary knows (a text of unknown words may have nothing to pool). */
const PROBE_TEXT = "This is a test.";

/**
 * A local transformers.js (Hugging Face) feature-extraction model as a LangChain `Embeddings`: any ONNX model
 * folder the library runs (sentence-transformers exports such as Xenova/all-MiniLM-L6-v2), pooled and
 * normalised by the pipeline, `batchSize` texts per run. Runs offline by default; the model loads on first use
 * (or `init()`), once per instance. A missing @huggingface/transformers is a MissingDependencyError, a model
 * that is not on disk or fails is an EmbeddingError.
 */
export class TransformersEmbeddings extends Embeddings {
  readonly options: Readonly<TransformersModelOptions>;
  readonly pooling: TransformersPooling;
  readonly normalize: boolean;
  readonly batchSize: number;
  readonly #pipeline: LazyPipeline<FeatureExtractionPipeline>;
  #dimension = 0;

  constructor(params: TransformersEmbeddingsParams) {
    super(params ?? {});
    checkModelOptions(params, FEATURE);
    const { model, localModelPath, allowRemoteModels = false, dtype, pooling = "mean", normalize = true, batchSize = 32 } = params;
    if (!POOLINGS.includes(pooling)) throw new ValidationError(`${FEATURE}: \`pooling\` must be one of ${POOLINGS.join(", ")}.`);
    if (!Number.isInteger(batchSize) || batchSize < 1) throw new ValidationError(`${FEATURE}: \`batchSize\` must be a positive integer.`);
    this.options = { model, localModelPath, allowRemoteModels, dtype };
    this.pooling = pooling;
    this.normalize = normalize;
    this.batchSize = batchSize;
    this.#pipeline = new LazyPipeline(() => loadTransformersPipeline<FeatureExtractionPipeline>("feature-extraction", this.options, FEATURE));
  }

  /** The vector length: 0 until `init()` or the first embedding. */
  get dimension(): number {
    return this.#dimension;
  }

  /** Loads the model and learns the dimension (one probe text); concurrent calls share one load. */
  async init(): Promise<void> {
    if (this.#dimension === 0) await this.embedDocuments([PROBE_TEXT]);
  }

  async embedQuery(text: string): Promise<number[]> {
    const [vector] = await this.embedDocuments([text]);
    return vector;
  }

  async embedDocuments(texts: string[]): Promise<number[][]> {
    if (!Array.isArray(texts)) throw new ValidationError(`${FEATURE}.embedDocuments takes a list of strings.`);
    texts.forEach((text, i) => {
      if (typeof text !== "string") throw new ValidationError(`${FEATURE}: texts[${i}] is ${typeof text}, not a string.`);
    });
    const extractor = await this.#pipeline.get();
    const vectors: number[][] = [];
    for (let start = 0; start < texts.length; start += this.batchSize) {
      let output: Tensor;
      try {
        output = await extractor(texts.slice(start, start + this.batchSize), { pooling: this.pooling, normalize: this.normalize });
      } catch (error) {
        if (SemcacheError.isInstance(error)) throw error;
        throw new EmbeddingError(`${FEATURE} failed: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
      }
      vectors.push(...tensorRows(output, FEATURE));
    }
    if (vectors.length > 0) this.#dimension = vectors[0].length;
    return vectors;
  }
}
