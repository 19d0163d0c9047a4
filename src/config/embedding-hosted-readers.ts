/**
 * The YAML's embeddings that are models by name or hosted APIs: transformers.js models (a folder or a hub name),
 * OpenAI and Cohere through their LangChain integrations, and any LangChain Embeddings by module and class.
 */
import { ValidationError } from "../core/errors.js";
import { packageOf } from "../core/optional-import.js";
import type { EmbedAs } from "../core/embedding-source.js";
import type { TransformersPooling } from "../embeddings/transformers.js";
import type { EmbeddingChoice, EmbeddingSettings } from "./embedding-choice.js";
import { requirePackages, type ReadContext } from "./read-context.js";
import type { Section } from "./section.js";

/** GPTCache's default models, which an unset `model` means there. */
export const DEFAULT_MODELS: Readonly<Record<string, string>> = {
  huggingface: "distilbert-base-uncased",
  sbert: "all-MiniLM-L6-v2",
  "sentence-transformers": "all-MiniLM-L6-v2",
  vit: "google/vit-base-patch16-384",
  openai: "text-embedding-ada-002",
  cohere: "embed-english-v3.0",
};

/** What `model` must name where there is no default. */
const MODEL_NEEDED: Readonly<Record<string, string>> = {
  "embedding: timm":
    "a local image model folder in transformers.js's layout (an ONNX export of a ViT or CLIP vision model), or in timm's " +
    "(model.onnx, the features exported without a classifier, beside timm's config.json); timm's PyTorch models do not run here",
};

/** The embedding_config keys a transformers.js model and a hosted API take (each name adds its own). */
export const TRANSFORMERS_KEYS = ["model", "local_model_path", "allow_remote_models", "dtype", "normalize", "batch_size"];
export const PROVIDER_KEYS = ["model", "api_key", "base_url", "timeout_ms", "batch_size"];

/** transformers.js's settings of a model (a folder, or a hub name downloaded under local_model_path). */
export function readTransformers(section: Section | undefined, defaultModel: string | undefined, feature: string): EmbeddingSettings {
  const model = section?.string("model") ?? defaultModel;
  if (model === undefined) throw new ValidationError(`${feature} needs embedding_config.model: ${MODEL_NEEDED[feature] ?? "a model folder, or a hub name downloaded under local_model_path"}.`);
  const pooling = section?.string("pooling", ["mean", "cls", "first_token", "eos", "last_token"]) as TransformersPooling | undefined;
  return {
    model,
    localModelPath: section?.string("local_model_path"),
    allowRemoteModels: section?.boolean("allow_remote_models"),
    dtype: section?.string("dtype"),
    pooling,
    normalize: section?.boolean("normalize"),
    batchSize: section?.positiveInteger("batch_size"),
  };
}

/** A hosted API through its LangChain integration: the key (from the file or the environment) and the package are checked now. */
export function readProvider(section: Section | undefined, context: ReadContext, name: string, keyVariable: string, packages: string[]): EmbeddingSettings {
  const apiKey = section?.string("api_key") ?? context.env[keyVariable];
  if (!apiKey) throw new ValidationError(`embedding: ${name} needs ${keyVariable} (or embedding_config.api_key) and the ${packages[0]} package.`);
  const baseUrl = section?.string("base_url") ?? section?.string("api_base");
  if (name === "cohere" && baseUrl !== undefined) packages = [...packages, "cohere-ai"];
  requirePackages(context, `embedding: ${name}`, packages);
  return {
    model: section?.string("model") ?? DEFAULT_MODELS[name],
    apiKey,
    baseUrl,
    dimensions: section?.positiveInteger("dimensions"),
    ...adapterSettings(section),
  };
}

/** Any LangChain Embeddings, by module and class: the YAML's way to every integration (Ollama, Hugging Face inference, ...). */
export function readLangChain(section: Section | undefined, context: ReadContext): EmbeddingChoice {
  section?.only(["module", "class", "params", "dimension", "batch_size", "embed_as", "timeout_ms"], 'the "langchain" embedding');
  const module = section?.string("module");
  const className = section?.string("class");
  if (module === undefined || className === undefined) {
    throw new ValidationError(
      'embedding: langchain needs embedding_config.module and class naming a LangChain Embeddings, e.g. module: "@langchain/ollama", class: OllamaEmbeddings, params: { model: nomic-embed-text }.',
    );
  }
  requirePackages(context, "embedding: langchain", [packageOf(module)]);
  return {
    kind: "langchain",
    settings: {
      module,
      className,
      params: section?.mapping("params"),
      dimension: section?.positiveInteger("dimension"),
      ...adapterSettings(section),
    },
  };
}

/** What the adapter a LangChain Embeddings runs behind takes (embedding-factory.ts): its batches, deadline and side. */
function adapterSettings(section: Section | undefined): EmbeddingSettings {
  return {
    batchSize: section?.positiveInteger("batch_size"),
    embedAs: section?.string("embed_as", ["documents", "queries"]) as EmbedAs | undefined,
    timeoutMs: section?.positiveInteger("timeout_ms"),
  };
}
