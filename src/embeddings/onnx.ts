import { access } from "node:fs/promises";
import { Embeddings, type EmbeddingsParams } from "@langchain/core/embeddings";
import type * as OnnxRuntimeModule from "onnxruntime-node";
import type { InferenceSession, Tensor } from "onnxruntime-node";
import { EmbeddingError, ValidationError } from "../core/errors.js";
import { importOptional } from "../core/optional-import.js";
import { WordPieceTokenizer, type Encoding } from "./tokenizer.js";

type OnnxRuntime = typeof OnnxRuntimeModule;

/** Where a model and its tokenizer live on disk. */
export interface OnnxModelFiles {
  /** An .onnx file taking input_ids and attention_mask (and token_type_ids when it declares them). */
  modelPath: string;
  /** The model's tokenizer.json (WordPiece, as BERT-family sentence models ship it). */
  tokenizerPath: string;
  /** Tokens per text (or pair), special tokens included. Default: the tokenizer's truncation, else 512. */
  maxLength?: number;
}

/** A model output: its values and shape. */
export interface OnnxOutput {
  data: Float32Array;
  dims: readonly number[];
}

async function requireFile(path: string, what: string): Promise<void> {
  if (typeof path !== "string" || path === "") throw new ValidationError(`${what}: a file path is required.`);
  try {
    await access(path);
  } catch (error) {
    throw new EmbeddingError(`${what} ${path} does not exist or cannot be read.`, { cause: error });
  }
}

/**
 * An ONNX model with its tokenizer, run with onnxruntime-node (loaded lazily: a MissingDependencyError when it
 * is not installed). Shared by the ONNX embeddings and the pair-scoring evaluations: encodings are padded into
 * one batch and fed as the int64 inputs the model declares.
 */
export class OnnxTokenModel {
  private constructor(
    private readonly session: InferenceSession,
    readonly tokenizer: WordPieceTokenizer,
    private readonly ort: OnnxRuntime,
  ) {}

  static async load(files: OnnxModelFiles, feature: string): Promise<OnnxTokenModel> {
    await requireFile(files.modelPath, `${feature}: the model`);
    await requireFile(files.tokenizerPath, `${feature}: the tokenizer`);
    const imported = await importOptional<OnnxRuntime & { default?: OnnxRuntime }>("onnxruntime-node", feature);
    const ort = imported.default ?? imported;
    const tokenizer = await WordPieceTokenizer.fromFile(files.tokenizerPath, files.maxLength);
    let session: InferenceSession;
    try {
      session = await ort.InferenceSession.create(files.modelPath);
    } catch (error) {
      throw new EmbeddingError(`${feature}: cannot load the ONNX model ${files.modelPath}: ${(error as Error).message}`, { cause: error });
    }
    for (const name of ["input_ids", "attention_mask"]) {
      if (!session.inputNames.includes(name)) {
        throw new EmbeddingError(`${feature}: the model ${files.modelPath} has no "${name}" input (inputs: ${session.inputNames.join(", ")}).`);
      }
    }
    return new OnnxTokenModel(session, tokenizer, ort);
  }

  /** The declared shape of the first output (numbers for fixed dims, strings for symbolic ones), if the model says. */
  outputShape(): ReadonlyArray<number | string> | undefined {
    const meta = this.session.outputMetadata?.[0] as { shape?: ReadonlyArray<number | string> } | undefined;
    return meta?.shape;
  }

  /** Runs one padded batch; returns the first output. */
  async run(encodings: readonly Encoding[]): Promise<OnnxOutput> {
    const padded = this.tokenizer.pad(encodings);
    const length = padded[0]?.inputIds.length ?? 0;
    const tensor = (pick: (e: Encoding) => number[]) =>
      new this.ort.Tensor("int64", BigInt64Array.from(padded.flatMap(pick), BigInt), [padded.length, length]);
    const feeds: Record<string, Tensor> = { input_ids: tensor((e) => e.inputIds), attention_mask: tensor((e) => e.attentionMask) };
    if (this.session.inputNames.includes("token_type_ids")) feeds.token_type_ids = tensor((e) => e.tokenTypeIds);
    let output: Tensor;
    try {
      output = (await this.session.run(feeds))[this.session.outputNames[0]];
    } catch (error) {
      throw new EmbeddingError(`The ONNX model failed: ${(error as Error).message}`, { cause: error });
    }
    if (output.type !== "float32") throw new EmbeddingError(`The ONNX model's output is ${output.type}, not float32.`);
    return { data: output.data as Float32Array, dims: output.dims };
  }
}

/** Mean of the token vectors the attention mask keeps, L2-normalised (sentence-transformers' mean pooling). */
export function meanPool(output: OnnxOutput, masks: readonly number[][]): number[][] {
  const [batch, sequence, dimension] = output.dims;
  return Array.from({ length: batch }, (_, b) => {
    const sum = new Float64Array(dimension);
    let count = 0;
    for (let t = 0; t < sequence; t++) {
      if (!masks[b][t]) continue;
      count++;
      const offset = (b * sequence + t) * dimension;
      for (let d = 0; d < dimension; d++) sum[d] += output.data[offset + d];
    }
    const mean = Array.from(sum, (value) => value / Math.max(count, 1));
    const norm = Math.hypot(...mean);
    return norm === 0 ? mean : mean.map((value) => value / norm);
  });
}

export interface OnnxEmbeddingsParams extends EmbeddingsParams, OnnxModelFiles {
  /** How token vectors become one sentence vector. Only "mean" (what sentence-transformers models use). */
  pooling?: "mean";
  /** Texts per model run. Default 32. */
  batchSize?: number;
}

/**
 * A local sentence-transformers model exported to ONNX, as a LangChain `Embeddings`: WordPiece tokenisation
 * from its tokenizer.json, onnxruntime-node, mean pooling over the attention mask, L2 normalisation. Runs
 * offline; the model loads on first use (or `init()`). Wrong files fail with EmbeddingError, a missing
 * onnxruntime-node with MissingDependencyError.
 */
export class OnnxEmbeddings extends Embeddings {
  readonly files: OnnxModelFiles;
  readonly batchSize: number;
  #model?: Promise<OnnxTokenModel>;
  #dimension = 0;

  constructor(params: OnnxEmbeddingsParams) {
    super(params ?? {});
    const { modelPath, tokenizerPath, maxLength, pooling = "mean", batchSize = 32 } = params ?? {};
    if (pooling !== "mean") throw new ValidationError('OnnxEmbeddings: `pooling` must be "mean".');
    if (!Number.isInteger(batchSize) || batchSize < 1) throw new ValidationError("OnnxEmbeddings: `batchSize` must be a positive integer.");
    this.files = { modelPath, tokenizerPath, maxLength };
    this.batchSize = batchSize;
  }

  /** The vector length: 0 until the model is loaded (from its declared output shape) or has run once. */
  get dimension(): number {
    return this.#dimension;
  }

  /** Loads the model and learns the dimension; concurrent calls share one load, a failed load is retried. */
  async init(): Promise<void> {
    await this.#load();
  }

  async embedQuery(text: string): Promise<number[]> {
    const [vector] = await this.embedDocuments([text]);
    return vector;
  }

  async embedDocuments(texts: string[]): Promise<number[][]> {
    const model = await this.#load();
    const vectors: number[][] = [];
    for (let start = 0; start < texts.length; start += this.batchSize) {
      const encodings = texts.slice(start, start + this.batchSize).map((text) => model.tokenizer.encode(text));
      const output = await model.run(encodings);
      if (output.dims.length !== 3) {
        throw new EmbeddingError(`OnnxEmbeddings: the model's output has shape [${output.dims.join(", ")}]; token vectors [batch, sequence, dimension] are needed.`);
      }
      this.#dimension = output.dims[2];
      vectors.push(...meanPool(output, model.tokenizer.pad(encodings).map((e) => e.attentionMask)));
    }
    return vectors;
  }

  #load(): Promise<OnnxTokenModel> {
    this.#model ??= OnnxTokenModel.load(this.files, "OnnxEmbeddings").then(
      (model) => {
        const shape = model.outputShape();
        if (shape && shape.length !== 3) {
          throw new EmbeddingError(`OnnxEmbeddings: the model's output has shape [${shape.join(", ")}]; token vectors [batch, sequence, dimension] are needed.`);
        }
        if (typeof shape?.[2] === "number") this.#dimension = shape[2];
        return model;
      },
    );
    this.#model.catch(() => (this.#model = undefined));
    return this.#model;
  }
}
