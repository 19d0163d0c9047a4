/**
 * `transformersVisualQuestionAnswering({ modelDir })`: a local visual question answerer for
 * `cachedVisualQuestionAnswering`, run by transformers.js. The library (4.x) has no `visual-question-answering`
 * pipeline; its `document-question-answering` pipeline is the one that takes an image and a question: a Donut-style
 * VisionEncoderDecoder (onnx/encoder_model.onnx, onnx/decoder_model_merged.onnx) prompted with
 * `<s_docvqa><s_question>…</s_question><s_answer>`, answering the text up to `</s_answer>`. Image-text-to-text
 * models (Florence-2, SmolVLM, LLaVA) have no pipeline in the library, each needs its own prompt and processor.
 */
import { readFile, stat } from "node:fs/promises";
import { join, resolve } from "node:path";
import type { DataType, DocumentQuestionAnsweringPipeline, RawImage } from "@huggingface/transformers";
import { ValidationError } from "../../core/errors.js";
import { importTransformers, type Transformers } from "../../models/transformers-library.js";
import { LazyPipeline } from "../../embeddings/transformers.js";
import type { ResolvedImage } from "./image-input.js";

export interface TransformersVisualQuestionOptions {
  /**
   * The model folder, read offline (nothing is downloaded): config.json (model_type "vision-encoder-decoder"),
   * tokenizer.json, tokenizer_config.json, preprocessor_config.json, generation_config.json if any, and
   * onnx/encoder_model.onnx with onnx/decoder_model_merged.onnx (as Xenova/donut-base-finetuned-docvqa ships them).
   */
  modelDir: string;
  /**
   * Which weights to load, as transformers.js names them ("fp32" for onnx/encoder_model.onnx, "q8" for
   * onnx/encoder_model_quantized.onnx, "fp16", ...). Default: transformers.js's (fp32 on the CPU).
   */
  dtype?: string;
  /** Most tokens an answer may have, unless a call says otherwise. Default: the pipeline's (256). */
  maxNewTokens?: number;
}

/** Per call, part of the cache key: they change the answer. */
export interface TransformersVisualQuestionSettings {
  /** Most tokens of this answer. */
  maxNewTokens?: number;
}

/** The answerer: pass it to `cachedVisualQuestionAnswering`; its name (`transformers:<folder>`) names its answers. */
export interface TransformersVisualQuestion {
  (image: ResolvedImage, question: string, settings?: TransformersVisualQuestionSettings, context?: { signal?: AbortSignal }): Promise<string>;
  /** The model folder, resolved. */
  readonly modelDir: string;
  /** Loads the model now (else the first question does); concurrent calls share one load, a failed one is retried. */
  load(): Promise<void>;
}

const FEATURE = "transformersVisualQuestionAnswering";
const TASK = "document-question-answering";
/** The files the pipeline reads besides the weights (their names depend on `dtype`; the library names a missing one). */
const REQUIRED_FILES = ["config.json", "tokenizer.json", "tokenizer_config.json", "preprocessor_config.json"];

interface Loaded {
  lib: Transformers;
  answerer: DocumentQuestionAnsweringPipeline;
}

function checkMaxNewTokens(value: unknown, where: string): number | undefined {
  if (value !== undefined && !(Number.isInteger(value) && (value as number) > 0)) throw new ValidationError(`${FEATURE}: \`maxNewTokens\`${where} must be a positive integer.`);
  return value as number | undefined;
}

async function isFolder(path: string): Promise<boolean> {
  return stat(path).then(
    (found) => found.isDirectory(),
    () => false,
  );
}

/** A missing folder, missing files or another kind of model, said before the library is asked (its errors name one file). */
async function checkFolder(folder: string): Promise<void> {
  if (!(await isFolder(folder))) throw new ValidationError(`${FEATURE}: the model folder ${folder} does not exist.`);
  const missing = (await Promise.all(REQUIRED_FILES.map(async (file) => ((await stat(join(folder, file)).catch(() => null)) ? null : file)))).filter((file) => file !== null);
  if (missing.length > 0) throw new ValidationError(`${FEATURE}: the model folder ${folder} lacks ${missing.join(", ")}.`);
  let modelType: unknown;
  try {
    modelType = (JSON.parse(await readFile(join(folder, "config.json"), "utf8")) as { model_type?: unknown }).model_type;
  } catch (error) {
    throw new ValidationError(`${FEATURE}: ${join(folder, "config.json")} is not JSON: ${(error as Error).message}`, { cause: error });
  }
  if (modelType !== "vision-encoder-decoder") {
    throw new ValidationError(`${FEATURE}: ${folder} holds a "${String(modelType)}" model; the ${TASK} pipeline runs "vision-encoder-decoder" (Donut) models.`);
  }
}

async function loadAnswerer(folder: string, dtype: string | undefined): Promise<Loaded> {
  const lib = await importTransformers(FEATURE);
  await checkFolder(folder);
  try {
    const pipeline = lib.pipeline as (task: string, model: string, options: object) => Promise<unknown>;
    // A folder path and local_files_only: nothing is downloaded, and the library's global `env` is left as the app set it.
    const answerer = (await pipeline(TASK, folder, { local_files_only: true, dtype: dtype as DataType | undefined })) as DocumentQuestionAnsweringPipeline;
    return { lib, answerer };
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new ValidationError(`${FEATURE}: cannot load the model in ${folder}: ${reason}`, { cause: error });
  }
}

/** Waits for `promise` unless `signal` aborts first (the work itself goes on: a shared load serves the next call). */
function untilAborted<T>(promise: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  if (!signal) return promise;
  signal.throwIfAborted();
  return new Promise<T>((resolvePromise, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener("abort", onAbort, { once: true });
    promise.then(resolvePromise, reject).finally(() => signal.removeEventListener("abort", onAbort));
  });
}

async function decode(lib: Transformers, image: ResolvedImage): Promise<RawImage> {
  try {
    return await lib.RawImage.read(new Blob([image.bytes]));
  } catch (error) {
    throw new ValidationError(`${FEATURE}: the image (${image.mimeType}) cannot be decoded: ${(error as Error).message}`, { cause: error });
  }
}

/**
 * A transformers.js document-question-answering model in a local folder as a visual question answerer. The model
 * loads on the first question (or `load()`), once; a missing @huggingface/transformers is a MissingDependencyError,
 * a missing folder, file or wrong kind of model a ValidationError. An abort signal stops the generation between
 * two tokens and rejects with the signal's reason.
 *
 * ```ts
 * const ask = cachedVisualQuestionAnswering(transformersVisualQuestionAnswering({ modelDir: "./models/donut-docvqa" }), { cache });
 * const { answer } = await ask(invoicePng, "what is the invoice number?");
 * ```
 */
export function transformersVisualQuestionAnswering(options: TransformersVisualQuestionOptions): TransformersVisualQuestion {
  if (typeof options !== "object" || options === null) throw new ValidationError(`${FEATURE}: options must be an object.`);
  if (typeof options.modelDir !== "string" || options.modelDir.trim() === "") throw new ValidationError(`${FEATURE}: \`modelDir\` must be a model folder's path.`);
  if (options.dtype !== undefined && (typeof options.dtype !== "string" || options.dtype === "")) throw new ValidationError(`${FEATURE}: \`dtype\` must be a string.`);
  const defaultMaxNewTokens = checkMaxNewTokens(options.maxNewTokens, "");
  const folder = resolve(options.modelDir);
  const loaded = new LazyPipeline(() => loadAnswerer(folder, options.dtype));

  const answer = async (image: ResolvedImage, question: string, settings: TransformersVisualQuestionSettings = {}, context: { signal?: AbortSignal } = {}) => {
    const { signal } = context;
    const maxNewTokens = checkMaxNewTokens(settings?.maxNewTokens, " (per call)") ?? defaultMaxNewTokens;
    const { lib, answerer } = await untilAborted(loaded.get(), signal);
    const pixels = await decode(lib, image);
    signal?.throwIfAborted();
    const stop = new lib.InterruptableStoppingCriteria();
    const interrupt = () => stop.interrupt();
    signal?.addEventListener("abort", interrupt, { once: true });
    let output: Awaited<ReturnType<DocumentQuestionAnsweringPipeline>>;
    try {
      output = await answerer(pixels, question, { stopping_criteria: [stop], ...(maxNewTokens === undefined ? {} : { max_new_tokens: maxNewTokens }) });
    } finally {
      signal?.removeEventListener("abort", interrupt);
    }
    // An interrupted generation returns the tokens so far: not an answer.
    signal?.throwIfAborted();
    // No `</s_answer>` within maxNewTokens: the pipeline gives null, an answer the cache does not store.
    return output[0]?.answer ?? "";
  };
  Object.defineProperty(answer, "name", { value: `transformers:${folder}` });
  return Object.assign(answer, {
    modelDir: folder,
    load: async () => {
      await loaded.get();
    },
  }) as TransformersVisualQuestion;
}
