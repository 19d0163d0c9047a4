/**
 * The YAML's embeddings that run a local model file: ONNX text models (GPTCache's onnx, and Rwkv, PaddleNLP and
 * UForm as ONNX exports), timm image models, and the word-vector models (fastText, spaCy) that run as wink here.
 */
import { existsSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { ValidationError } from "../core/errors.js";
import type { OnnxPooling } from "../embeddings/onnx.js";
import type { EmbeddingChoice, EmbeddingSettings } from "./embedding-choice.js";
import { DEFAULT_MODELS, readTransformers, TRANSFORMERS_KEYS } from "./embedding-hosted-readers.js";
import { isPathLike, requireFile, requirePackages, type ReadContext } from "./read-context.js";
import type { Section } from "./section.js";

/** GPTCache's default onnx model, which an unset `model` means there. */
const GPTCACHE_ONNX_MODEL = "GPTCache/paraphrase-albert-onnx";

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

/** The embedding_config keys of a local ONNX text model. */
const ONNX_TEXT_KEYS = ["model", "model_path", "tokenizer_path", "max_length", "batch_size", "pooling"];

/** A model folder's model.onnx, or onnx/model.onnx as transformers.js lays models out. */
function onnxModelIn(folder: string): string {
  return existsSync(join(folder, "onnx", "model.onnx")) ? join(folder, "onnx", "model.onnx") : join(folder, "model.onnx");
}

/** GPTCache's FastText averages a word-vector model's vectors; wink's offline English vectors do the same here. */
export function readFastText(section: Section | undefined, context: ReadContext): EmbeddingChoice {
  section?.only(["model", "dim"], 'the "fasttext" embedding (run as wink here)');
  const language = section?.string("model");
  if (language !== undefined && language !== "en") throw new ValidationError(`embedding_config.model: only English ("en") word vectors are available here, not "${language}".`);
  const dim = section?.positiveInteger("dim");
  if (dim !== undefined && dim !== 100) throw new ValidationError(`embedding_config.dim: the word vectors here are 100-d, not ${dim}.`);
  context.notes.push("embedding: fasttext runs as wink here (averaged English word vectors, 100-d, offline): fastText's own models do not run in Node.");
  return { kind: "wink", settings: {} };
}

/**
 * The offline Universal Sentence Encoder's keys: texts per model call, and how many worker threads run it
 * (`alsoRead`: keys the caller has read already, such as GPTCache's onnx `model`).
 */
export function readUse(section: Section | undefined, what: string, alsoRead: readonly string[] = []): EmbeddingChoice {
  section?.only([...alsoRead, "batch_size", "worker", "workers"], what);
  const settings = { batchSize: section?.positiveInteger("batch_size"), worker: section?.boolean("worker"), workers: section?.positiveInteger("workers") };
  if (settings.workers !== undefined && settings.worker === false) {
    throw new ValidationError(`embedding_config: ${what} takes workers only with worker: true (the model runs in process otherwise).`);
  }
  return { kind: "use", settings };
}

/**
 * `onnx` with a local model (model_path, or a model folder) runs it; GPTCache's own (paraphrase-albert-onnx,
 * the default) does not run here, so with none configured the offline default embeds, and a note says so.
 */
export function readOnnx(section: Section | undefined, context: ReadContext): EmbeddingChoice {
  const model = section?.string("model");
  const modelPath = section?.string("model_path");
  if (modelPath === undefined && (model === undefined || model === GPTCACHE_ONNX_MODEL)) {
    context.notes.push(
      "embedding: onnx runs as use here (the offline Universal Sentence Encoder, 512-d): no local ONNX model is configured " +
        "(embedding_config.model_path, or model: a folder), and GPTCache's paraphrase-albert-onnx does not run here.",
    );
    return readUse(section, 'the "onnx" embedding without a local model (run as use)', ["model"]);
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

/** A local ONNX text model's files (model_path [+ tokenizer_path], or model: a folder), checked to exist, and its run settings. */
function readOnnxTextFiles(section: Section | undefined, context: ReadContext, name: string, model: string | undefined, modelPath: string | undefined): EmbeddingSettings {
  if (modelPath !== undefined && model !== undefined) throw new ValidationError("embedding_config: set model (a folder) or model_path, not both.");
  const files =
    model !== undefined
      ? { modelPath: onnxModelIn(model), tokenizerPath: join(model, "tokenizer.json") }
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
export function readLocalOnnxText(name: string, section: Section | undefined, context: ReadContext): EmbeddingChoice {
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
export function readSpacy(section: Section | undefined, context: ReadContext): EmbeddingChoice {
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
export function readTimm(section: Section | undefined, context: ReadContext): EmbeddingChoice {
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
  const modelPath = onnxModelIn(model);
  requireFile(modelPath, "embedding_config.model");
  requirePackages(context, "embedding: timm", ["onnxruntime-node", "@huggingface/transformers"]);
  return {
    kind: "timm",
    settings: { modelPath, configPath: join(model, "config.json"), normalize: section?.boolean("normalize"), batchSize: section?.positiveInteger("batch_size") },
  };
}

