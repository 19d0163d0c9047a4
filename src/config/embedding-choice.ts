/**
 * A checked `embedding` / `embedding_config` in this package's terms: what the YAML's readers produce and the
 * factory builds from.
 */
import type { OnnxPooling } from "../embeddings/onnx.js";
import type { EmbedAs } from "../core/embedding-source.js";
import type { TransformersPooling } from "../embeddings/transformers.js";

/** This package's embedding kinds, as a checked config names them. */
export type EmbeddingKind = "use" | "wink" | "string" | "onnx" | "transformers" | "image" | "timm" | "openai" | "cohere" | "langchain";

/** `embedding_config` in this package's terms (which keys apply depends on the kind). */
export interface EmbeddingSettings {
  /** Texts per model call (use, onnx, transformers, image) or per provider request (openai, cohere, langchain). */
  batchSize?: number;
  /** use: run the model on a worker thread (default true in a config). */
  worker?: boolean;
  /** use: the most worker threads it grows to under load (default one per core, at most 4). */
  workers?: number;
  /** transformers, image: a model folder or hub name; openai, cohere: the provider's model. */
  model?: string;
  /** onnx, timm: the model file; onnx: its tokenizer.json (default: beside the model); timm: its config.json. */
  modelPath?: string;
  tokenizerPath?: string;
  configPath?: string;
  maxLength?: number;
  /** transformers, image: transformers.js's options. */
  localModelPath?: string;
  allowRemoteModels?: boolean;
  dtype?: string;
  /** transformers: transformers.js's pooling; onnx: "mean" or "last". */
  pooling?: TransformersPooling | OnnxPooling;
  normalize?: boolean;
  /** openai, cohere: the key (default OPENAI_API_KEY / COHERE_API_KEY) and a base URL (a compatible server). */
  apiKey?: string;
  baseUrl?: string;
  /** openai: shortened vectors (text-embedding-3 models). */
  dimensions?: number;
  /** openai, cohere, langchain: the most one embedding call may take. */
  timeoutMs?: number;
  embedAs?: EmbedAs;
  /** langchain: the module and class of a LangChain Embeddings, and its constructor's options. */
  module?: string;
  className?: string;
  params?: Record<string, unknown>;
  /** langchain: the vector length when known (else learned from a probe at start). */
  dimension?: number;
}

export interface EmbeddingChoice {
  kind: EmbeddingKind;
  settings: EmbeddingSettings;
}
