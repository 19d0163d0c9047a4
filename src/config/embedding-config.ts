/**
 * The YAML's `embedding` and `embedding_config`: GPTCache's embedding names mapped to this package's
 * embeddings (or refused, saying what to add), their settings checked per kind, and the embedding built.
 */
import { existsSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { ValidationError } from "../core/errors.js";
import { packageOf } from "../core/optional-import.js";
import { OnnxEmbeddings, type OnnxPooling } from "../embeddings/onnx.js";
import type { EmbedAs, EmbeddingSource } from "../embeddings/resolve.js";
import { StringEmbedding } from "../embeddings/string.js";
import { TimmImageEmbeddings } from "../embeddings/timm.js";
import { TransformersImageEmbeddings } from "../embeddings/transformers-image.js";
import { TransformersEmbeddings, type TransformersPooling } from "../embeddings/transformers.js";
import { UniversalSentenceEncoderEmbeddings } from "../embeddings/use.js";
import { WinkEmbeddings } from "../embeddings/wink.js";
import { construct, lazyEmbeddings } from "./langchain-class.js";
import { defined, isPathLike, requireFile, requirePackages, type ReadContext } from "./read-context.js";
import type { Section } from "./section.js";

/** This package's embedding kinds, as a checked config names them. */
export type EmbeddingKind = "use" | "wink" | "string" | "onnx" | "transformers" | "image" | "timm" | "openai" | "cohere" | "langchain";

/** `embedding_config` in this package's terms (which keys apply depends on the kind). */
export interface EmbeddingSettings {
  /** Texts per model call (use, onnx, transformers, image) or per provider request (openai, cohere, langchain). */
  batchSize?: number;
  /** use: run the model on a worker thread (default true in a config). */
  worker?: boolean;
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

/** GPTCache's default models, which an unset `model` means there. */
const GPTCACHE_ONNX_MODEL = "GPTCache/paraphrase-albert-onnx";
const DEFAULT_MODELS: Readonly<Record<string, string>> = {
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

const TRANSFORMERS_KEYS = ["model", "local_model_path", "allow_remote_models", "dtype", "normalize", "batch_size"];
const PROVIDER_KEYS = ["model", "api_key", "base_url", "timeout_ms", "batch_size"];

/** GPTCache's names with no equivalent here, and what to use instead. */
const REFUSED: Readonly<Record<string, string>> = {
  data2vecaudio:
    "embeds audio, which no built-in embedding here does: pass your own embedding function in code (initSimilarCache({ embedding }))",
  data2vec: "embeds audio, which no built-in embedding here does: pass your own embedding function in code (initSimilarCache({ embedding }))",
};

/**
 * GPTCache's text models that run here as an ONNX export in a local folder (OnnxEmbeddings), and what a config
 * naming a hub model instead is told.
 */
const LOCAL_ONNX_TEXT: Readonly<Record<string, { hub: string; default: string }>> = {
  rwkv: {
    hub: "(a language model's hidden states) does not run here as a PyTorch model",
    default: "sgugger/rwkv-430M-pile",
  },
  paddlenlp: {
    hub: "runs PaddlePaddle models, which do not run in Node: use huggingface with a transformers.js (ONNX) export of the model",
    default: "ernie-3.0-medium-zh",
  },
  uform: {
    hub: "(UForm's multimodal model) does not run here: for text use huggingface or sbert with a local transformers.js model",
    default: "unum-cloud/uform-vl-english",
  },
};

/** The names `embedding` accepts: this package's kinds, then GPTCache's. */
export const EMBEDDING_NAMES: readonly string[] = [
  "use",
  "wink",
  "string",
  "onnx",
  "huggingface",
  "sbert",
  "sentence-transformers",
  "transformers",
  "vit",
  "timm",
  "rwkv",
  "paddlenlp",
  "uform",
  "openai",
  "cohere",
  "langchain",
  "fasttext",
  "spacy",
];
const ALIASES: Readonly<Record<string, string>> = {
  "universal-sentence-encoder": "use",
  universal_sentence_encoder: "use",
  none: "string",
  sentence_transformers: "sentence-transformers",
};

/** Reads `embedding` (as written, any case) and its `embedding_config` into this package's terms. */
export function readEmbedding(written: string, section: Section | undefined, context: ReadContext): EmbeddingChoice {
  const lower = written.toLowerCase();
  const name = ALIASES[lower] ?? lower;
  if (REFUSED[name] !== undefined) throw new ValidationError(`embedding: ${written} ${REFUSED[name]}.`);
  if (!EMBEDDING_NAMES.includes(name)) throw new ValidationError(`embedding must be one of: ${EMBEDDING_NAMES.join(", ")} (got "${written}").`);
  const what = `the "${name}" embedding`;
  const only = (keys: readonly string[]) => section?.only(keys, what);
  let choice: EmbeddingChoice;
  switch (name) {
    case "use":
      only(["batch_size", "worker"]);
      choice = { kind: "use", settings: { batchSize: section?.positiveInteger("batch_size"), worker: section?.boolean("worker") } };
      break;
    case "wink":
    case "string":
      only([]);
      choice = { kind: name, settings: {} };
      break;
    case "fasttext":
      choice = readFastText(section, context);
      break;
    case "spacy":
      choice = readSpacy(section, context);
      break;
    case "rwkv":
    case "paddlenlp":
    case "uform":
      choice = readLocalOnnxText(name, section, context);
      break;
    case "onnx":
      choice = readOnnx(section, context);
      break;
    case "huggingface":
    case "sbert":
    case "sentence-transformers":
    case "transformers":
      only([...TRANSFORMERS_KEYS, "pooling"]);
      choice = { kind: "transformers", settings: readTransformers(section, DEFAULT_MODELS[name], `embedding: ${name}`) };
      requirePackages(context, `embedding: ${name}`, ["@huggingface/transformers"]);
      break;
    case "timm":
      choice = readTimm(section, context);
      break;
    case "vit":
      only(TRANSFORMERS_KEYS);
      choice = { kind: "image", settings: readTransformers(section, DEFAULT_MODELS[name], `embedding: ${name}`) };
      requirePackages(context, `embedding: ${name}`, ["@huggingface/transformers"]);
      break;
    case "openai":
      only([...PROVIDER_KEYS, "api_base", "dimensions"]);
      choice = { kind: "openai", settings: readProvider(section, context, name, "OPENAI_API_KEY", ["@langchain/openai"]) };
      break;
    case "cohere":
      only([...PROVIDER_KEYS, "embed_as"]);
      choice = { kind: "cohere", settings: readProvider(section, context, name, "COHERE_API_KEY", ["@langchain/cohere"]) };
      break;
    default:
      choice = readLangChain(section, context);
  }
  section?.done();
  return choice;
}

/** GPTCache's FastText averages a word-vector model's vectors; wink's offline English vectors do the same here. */
function readFastText(section: Section | undefined, context: ReadContext): EmbeddingChoice {
  section?.only(["model", "dim"], 'the "fasttext" embedding (run as wink here)');
  const language = section?.string("model");
  if (language !== undefined && language !== "en") throw new ValidationError(`embedding_config.model: only English ("en") word vectors are available here, not "${language}".`);
  const dim = section?.positiveInteger("dim");
  if (dim !== undefined && dim !== 100) throw new ValidationError(`embedding_config.dim: the word vectors here are 100-d, not ${dim}.`);
  context.notes.push("embedding: fasttext runs as wink here (averaged English word vectors, 100-d, offline): fastText's own models do not run in Node.");
  return { kind: "wink", settings: {} };
}

/**
 * `onnx` with a local model (model_path, or a model folder) runs it; GPTCache's own (paraphrase-albert-onnx,
 * the default) does not run here, so with none configured the offline default embeds, and a note says so.
 */
function readOnnx(section: Section | undefined, context: ReadContext): EmbeddingChoice {
  const model = section?.string("model");
  const modelPath = section?.string("model_path");
  if (modelPath === undefined && (model === undefined || model === GPTCACHE_ONNX_MODEL)) {
    section?.only(["model", "batch_size", "worker"], 'the "onnx" embedding without a local model (run as use)');
    context.notes.push(
      "embedding: onnx runs as use here (the offline Universal Sentence Encoder, 512-d): no local ONNX model is configured " +
        "(embedding_config.model_path, or model: a folder), and GPTCache's paraphrase-albert-onnx does not run here.",
    );
    return { kind: "use", settings: { batchSize: section?.positiveInteger("batch_size"), worker: section?.boolean("worker") } };
  }
  section?.only([...ONNX_TEXT_KEYS], 'the "onnx" embedding');
  if (model !== undefined && !isPathLike(model)) {
    throw new ValidationError(
      `embedding_config.model: "${model}" is not a local folder; the onnx embedding runs a local model (model_path and tokenizer_path, or model: ./folder). ` +
        "For a hub model use embedding: huggingface with a transformers.js download.",
    );
  }
  return { kind: "onnx", settings: readOnnxTextFiles(section, context, "onnx", model, modelPath) };
}

const ONNX_TEXT_KEYS = ["model", "model_path", "tokenizer_path", "max_length", "batch_size", "pooling"];

/** A local ONNX text model's files (model_path [+ tokenizer_path], or model: a folder), checked to exist, and its run settings. */
function readOnnxTextFiles(section: Section | undefined, context: ReadContext, name: string, model: string | undefined, modelPath: string | undefined): EmbeddingSettings {
  if (modelPath !== undefined && model !== undefined) throw new ValidationError("embedding_config: set model (a folder) or model_path, not both.");
  // A folder holds model.onnx, or onnx/model.onnx as transformers.js lays models out, beside tokenizer.json.
  const inFolder = (folder: string) => (existsSync(join(folder, "onnx", "model.onnx")) ? join(folder, "onnx", "model.onnx") : join(folder, "model.onnx"));
  const files =
    model !== undefined
      ? { modelPath: inFolder(model), tokenizerPath: join(model, "tokenizer.json") }
      : { modelPath: modelPath as string, tokenizerPath: section?.string("tokenizer_path") ?? join(dirname(modelPath as string), "tokenizer.json") };
  requireFile(files.modelPath, model !== undefined ? "embedding_config.model" : "embedding_config.model_path");
  requireFile(files.tokenizerPath, model !== undefined || !section?.has("tokenizer_path") ? "embedding_config.model (its tokenizer.json)" : "embedding_config.tokenizer_path");
  requirePackages(context, `embedding: ${name}`, isWordPiece(files.tokenizerPath) ? ["onnxruntime-node"] : ["onnxruntime-node", "@huggingface/transformers"]);
  return {
    ...files,
    maxLength: section?.positiveInteger("max_length"),
    batchSize: section?.positiveInteger("batch_size"),
    pooling: section?.string("pooling", ["mean", "last"]) as OnnxPooling | undefined,
  };
}

/**
 * GPTCache's Rwkv, PaddleNLP and UForm (text) load PyTorch or Paddle models from their hubs; here the same
 * models run as an ONNX export in a local folder (OnnxEmbeddings, mean-pooled unless `pooling` says "last").
 * A hub name is refused, saying so.
 */
function readLocalOnnxText(name: string, section: Section | undefined, context: ReadContext): EmbeddingChoice {
  const model = section?.string("model");
  const modelPath = section?.string("model_path");
  const { hub, default: gptcacheDefault } = LOCAL_ONNX_TEXT[name];
  if (modelPath === undefined && (model === undefined || !isPathLike(model))) {
    throw new ValidationError(
      `embedding: ${name} ${hub}; to run ${model ?? gptcacheDefault} here, export it to ONNX and set embedding_config.model: ./folder ` +
        "(model.onnx taking input_ids, and its tokenizer.json) or model_path, run with onnxruntime-node.",
    );
  }
  section?.only(name === "uform" ? [...ONNX_TEXT_KEYS, "embedding_type"] : ONNX_TEXT_KEYS, `the "${name}" embedding`);
  if (name === "uform" && section?.string("embedding_type", ["text", "image"]) === "image") {
    throw new ValidationError("embedding_config.embedding_type: image: UForm's image encoder does not run here; use embedding: timm or vit with an ONNX export of an image model.");
  }
  const settings = readOnnxTextFiles(section, context, name, model, modelPath);
  const pooled = settings.pooling === "last" ? "the last token's state" : "the mean over the text's tokens";
  context.notes.push(`embedding: ${name} runs as onnx here (${settings.modelPath} with onnxruntime-node, ${pooled}).`);
  return { kind: "onnx", settings };
}

/** spaCy's Doc.vector averages its word vectors; wink's offline English word vectors do the same here. */
function readSpacy(section: Section | undefined, context: ReadContext): EmbeddingChoice {
  section?.only(["model"], 'the "spacy" embedding (run as wink here)');
  const model = section?.string("model");
  if (model !== undefined && !/^en_/.test(model)) throw new ValidationError(`embedding_config.model: only English word vectors are available here (spaCy's en_* models), not "${model}".`);
  context.notes.push("embedding: spacy runs as wink here (averaged English word vectors, 100-d, offline): spaCy's models do not run in Node.");
  return { kind: "wink", settings: {} };
}

/** Whether a tokenizer.json is WordPiece, read without a package (others, BPE and Unigram, need transformers.js). */
function isWordPiece(path: string): boolean {
  try {
    return (JSON.parse(readFileSync(path, "utf8")) as { model?: { type?: unknown } }).model?.type === "WordPiece";
  } catch {
    return true; // unreadable: the embedding's own load says why
  }
}

/** Whether a folder is laid out as timm saves a model: config.json with pretrained_cfg. */
function isTimmFolder(folder: string): boolean {
  try {
    return typeof (JSON.parse(readFileSync(join(folder, "config.json"), "utf8")) as { pretrained_cfg?: unknown }).pretrained_cfg === "object";
  } catch {
    return false;
  }
}

/**
 * GPTCache's Timm: a folder in timm's layout (config.json with pretrained_cfg, model.onnx) runs as
 * TimmImageEmbeddings with timm's preprocessing; any other folder as a transformers.js image model, as `vit`.
 */
function readTimm(section: Section | undefined, context: ReadContext): EmbeddingChoice {
  const device = section?.string("device");
  if (device !== undefined && device !== "cpu" && device !== "default") {
    throw new ValidationError(`embedding_config.device: image models run on the CPU here (onnxruntime-node), not "${device}".`);
  }
  const model = section?.string("model");
  if (model === undefined || !isPathLike(model) || !isTimmFolder(model)) {
    section?.only([...TRANSFORMERS_KEYS, "device"], 'the "timm" embedding (a transformers.js model folder)');
    const settings = readTransformers(section, DEFAULT_MODELS.timm, "embedding: timm");
    requirePackages(context, "embedding: timm", ["@huggingface/transformers"]);
    return { kind: "image", settings };
  }
  section?.only(["model", "device", "normalize", "batch_size"], 'the "timm" embedding (a timm model folder)');
  const modelPath = existsSync(join(model, "onnx", "model.onnx")) ? join(model, "onnx", "model.onnx") : join(model, "model.onnx");
  requireFile(modelPath, "embedding_config.model");
  requirePackages(context, "embedding: timm", ["onnxruntime-node", "@huggingface/transformers"]);
  return {
    kind: "timm",
    settings: { modelPath, configPath: join(model, "config.json"), normalize: section?.boolean("normalize"), batchSize: section?.positiveInteger("batch_size") },
  };
}

function readTransformers(section: Section | undefined, defaultModel: string | undefined, feature: string): EmbeddingSettings {
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
function readProvider(section: Section | undefined, context: ReadContext, name: string, keyVariable: string, packages: string[]): EmbeddingSettings {
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
    timeoutMs: section?.positiveInteger("timeout_ms"),
    batchSize: section?.positiveInteger("batch_size"),
    embedAs: section?.string("embed_as", ["documents", "queries"]) as EmbedAs | undefined,
  };
}

/** Any LangChain Embeddings, by module and class: the YAML's way to every integration (Ollama, Hugging Face inference, ...). */
function readLangChain(section: Section | undefined, context: ReadContext): EmbeddingChoice {
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
      batchSize: section?.positiveInteger("batch_size"),
      embedAs: section?.string("embed_as", ["documents", "queries"]) as EmbedAs | undefined,
      timeoutMs: section?.positiveInteger("timeout_ms"),
    },
  };
}

/** The embedding a checked choice describes (hosted and LangChain ones load their package on first use). */
export function createEmbedding({ kind, settings: s }: EmbeddingChoice): EmbeddingSource {
  const adapter = defined({ batchSize: s.batchSize, timeoutMs: s.timeoutMs, embedAs: s.embedAs, dimension: s.dimension ?? s.dimensions });
  switch (kind) {
    case "string":
      return new StringEmbedding();
    case "wink":
      return new WinkEmbeddings();
    case "use":
      return new UniversalSentenceEncoderEmbeddings(defined({ batchSize: s.batchSize, worker: s.worker ?? true }));
    case "onnx":
      return new OnnxEmbeddings(
        defined({ modelPath: s.modelPath as string, tokenizerPath: s.tokenizerPath as string, maxLength: s.maxLength, batchSize: s.batchSize, pooling: s.pooling as OnnxPooling | undefined }),
      );
    case "transformers":
      return new TransformersEmbeddings(defined({ ...transformersOptions(s), pooling: s.pooling as TransformersPooling | undefined }));
    case "image":
      return new TransformersImageEmbeddings(defined(transformersOptions(s)));
    case "timm":
      return new TimmImageEmbeddings(defined({ modelPath: s.modelPath as string, configPath: s.configPath, normalize: s.normalize, batchSize: s.batchSize }));
    case "openai": {
      const params = defined({ model: s.model, apiKey: s.apiKey, dimensions: s.dimensions, configuration: s.baseUrl ? { baseURL: s.baseUrl } : undefined });
      return lazyEmbeddings("OpenAIEmbeddings", "embedding: openai", () => construct({ module: "@langchain/openai", className: "OpenAIEmbeddings", params }, "embedding: openai"), adapter);
    }
    case "cohere":
      return lazyEmbeddings("CohereEmbeddings", "embedding: cohere", () => cohereEmbeddings(s), adapter);
    case "langchain": {
      const spec = { module: s.module as string, className: s.className as string, params: s.params };
      return lazyEmbeddings(spec.className, `embedding: langchain (${spec.className})`, () => construct(spec, "embedding: langchain"), adapter);
    }
  }
}

function transformersOptions(s: EmbeddingSettings) {
  return { model: s.model as string, localModelPath: s.localModelPath, allowRemoteModels: s.allowRemoteModels, dtype: s.dtype, normalize: s.normalize, batchSize: s.batchSize };
}

/** CohereEmbeddings has no base URL option: a cohere-ai client aimed at it is handed over instead. */
async function cohereEmbeddings(s: EmbeddingSettings): Promise<unknown> {
  const params: Record<string, unknown> = defined({ model: s.model, apiKey: s.apiKey });
  if (s.baseUrl !== undefined) {
    params.client = await construct({ module: "cohere-ai", className: "CohereClient", params: { token: s.apiKey, environment: s.baseUrl } }, "embedding: cohere");
  }
  return construct({ module: "@langchain/cohere", className: "CohereEmbeddings", params }, "embedding: cohere");
}
