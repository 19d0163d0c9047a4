import { Embeddings, type EmbeddingsParams } from "@langchain/core/embeddings";
import { EmbeddingError, ValidationError } from "../core/errors.js";
import type { OnnxOutput } from "../models/onnx-session.js";
import { OnnxTokenModel, type OnnxModelFiles } from "../models/onnx-token-model.js";

export type { OnnxModelFiles } from "../models/onnx-token-model.js";

/** How token vectors become one text vector. */
export type OnnxPooling = "mean" | "last";

const POOLINGS: readonly OnnxPooling[] = ["mean", "last"];

/**
 * One L2-normalised vector per text from token vectors [batch, sequence, dimension], reading only the tokens
 * the masks keep: "mean" averages them (sentence-transformers' pooling; GPTCache's PaddleNLP), "last" takes the
 * last one (a recurrent or left-to-right model's state after the whole text).
 */
export function poolTokenVectors(output: OnnxOutput, masks: readonly number[][], pooling: OnnxPooling = "mean"): number[][] {
  const [batch, sequence, dimension] = output.dims;
  return Array.from({ length: batch }, (_, b) => {
    const kept = Array.from({ length: sequence }, (_, t) => t).filter((t) => masks[b][t]);
    const used = pooling === "last" ? kept.slice(-1) : kept;
    const sum = new Float64Array(dimension);
    for (const t of used) {
      const offset = (b * sequence + t) * dimension;
      for (let d = 0; d < dimension; d++) sum[d] += output.data[offset + d];
    }
    const pooled = Array.from(sum, (value) => value / Math.max(used.length, 1));
    const norm = Math.hypot(...pooled);
    return norm === 0 ? pooled : pooled.map((value) => value / norm);
  });
}

export interface OnnxEmbeddingsParams extends EmbeddingsParams, OnnxModelFiles {
  /**
   * How token vectors become one text vector: "mean" (default; sentence-transformers models, ERNIE) or "last"
   * (the last real token's vector: a recurrent model such as RWKV, whose state there has read the whole text).
   */
  pooling?: OnnxPooling;
  /** Texts per model run. Default 32. */
  batchSize?: number;
}

/**
 * A local text model exported to ONNX, as a LangChain `Embeddings`: tokenisation from its tokenizer.json
 * (WordPiece with Chinese characters one token each, as BERT's; BPE or Unigram through transformers.js),
 * onnxruntime-node, pooling over the real tokens, L2 normalisation. Meant for sentence-transformers exports,
 * bilingual BERT-family models (ernie-3.0) and recurrent models (GRU, LSTM, RWKV) over token ids. Texts are
 * right-padded into batches; a model that declares no attention_mask input runs one text at a time, so padding
 * never reaches it. Runs offline; the model loads on first use (or `init()`). Wrong files fail with
 * EmbeddingError, a missing onnxruntime-node with MissingDependencyError.
 */
export class OnnxEmbeddings extends Embeddings {
  readonly files: OnnxModelFiles;
  readonly pooling: OnnxPooling;
  readonly batchSize: number;
  #model?: Promise<OnnxTokenModel>;
  #dimension = 0;

  constructor(params: OnnxEmbeddingsParams) {
    super(params ?? {});
    const { modelPath, tokenizerPath, maxLength, pooling = "mean", batchSize = 32 } = params ?? {};
    if (!POOLINGS.includes(pooling)) throw new ValidationError(`OnnxEmbeddings: \`pooling\` must be one of ${POOLINGS.join(", ")}.`);
    if (!Number.isInteger(batchSize) || batchSize < 1) throw new ValidationError("OnnxEmbeddings: `batchSize` must be a positive integer.");
    this.files = { modelPath, tokenizerPath, maxLength };
    this.pooling = pooling;
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
    const perRun = model.takesAttentionMask ? this.batchSize : 1;
    for (let start = 0; start < texts.length; start += perRun) {
      const encodings = texts.slice(start, start + perRun).map((text) => model.tokenizer.encode(text));
      // A tokenizer that adds no special tokens (RWKV's) gives an empty text nothing to pool.
      const empty = encodings.findIndex((e) => e.inputIds.length === 0);
      if (empty >= 0) throw new ValidationError(`OnnxEmbeddings: texts[${start + empty}] has no tokens to embed.`);
      const output = await model.run(encodings);
      if (output.dims.length !== 3) {
        throw new EmbeddingError(`OnnxEmbeddings: the model's output has shape [${output.dims.join(", ")}]; token vectors [batch, sequence, dimension] are needed.`);
      }
      this.#dimension = output.dims[2];
      vectors.push(...poolTokenVectors(output, model.tokenizer.pad(encodings).map((e) => e.attentionMask), this.pooling));
    }
    return vectors;
  }

  #load(): Promise<OnnxTokenModel> {
    this.#model ??= OnnxTokenModel.load(this.files, "OnnxEmbeddings", ["input_ids"]).then(
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
