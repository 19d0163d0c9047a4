/**
 * `cachedReplicate()`: models hosted on Replicate through the cache, over `fetch` (no SDK). Text-to-image:
 * the input's `prompt` is the key, every other input field (seed, size, aspect ratio, ...) partitions, and the
 * output files are downloaded into the cache's object store (Replicate's delivery links expire after an hour).
 * Visual question answering: keyed on the question, partitioned by the image's SHA-256 digest.
 */
import { ValidationError } from "../../core/errors.js";
import { stableStringify } from "../../core/keys.js";
import { numberBetween } from "../../core/validation.js";
import { callFlowOptions, callResponseFormat, checkPrompt, checkSettings, defaultFlowOptions, type CacheSettings, type ImageCallOptions, type SearchOnlyCall } from "../images/call-options.js";
import { dataUrlOf } from "../images/image-input.js";
import { runImageGeneration, type CachedImages, type GeneratedImages } from "../images/image-generation.js";
import { checkResponseFormat, type ImageResponseFormat } from "../images/image-store.js";
import { providerConnection, unexpectedAnswer, type ProviderConnection, type ProviderConnectionOptions } from "../images/provider-http.js";
import { cachedVisualQuestionAnswering, type CachedVisualQuestion } from "../images/visual-question.js";
import { downloadOutput, predictionTarget, runPrediction, type PredictionTiming } from "./predictions.js";

export const DEFAULT_REPLICATE_URL = "https://api.replicate.com";

export interface CachedReplicateOptions extends CacheSettings, ProviderConnectionOptions {
  /** Default: the REPLICATE_API_TOKEN environment variable. */
  apiToken?: string;
  /** Default https://api.replicate.com. */
  baseUrl?: string;
  /** How images come back unless a call says otherwise. Default "bytes". */
  responseFormat?: ImageResponseFormat;
  /** Sync mode (`Prefer: wait=N`): seconds the create request may wait for the output, 1 to 60; 0 = async. Default 60. */
  waitSeconds?: number;
  /** Pause between polls of a prediction still running after the wait. Default 1000 ms. */
  pollIntervalMs?: number;
  /** A prediction not ended after this long is canceled and thrown. Default 600,000 ms (10 minutes). */
  timeoutMs?: number;
  /** Gives up downloading one output file after this long. Default 60,000 ms. */
  downloadTimeoutMs?: number;
}

/** How a visual question model reads its input (BLIP: `{ image, question, task: "visual_question_answering" }`). */
export interface ReplicateVisualQuestionSetup {
  /** The input field of the image. Default "image". */
  imageField?: string;
  /** The input field of the question. Default "question"; LLaVA-style models take "prompt". */
  questionField?: string;
  /** Fixed input of every call (e.g. `{ task: "visual_question_answering" }`); part of the key. */
  input?: Record<string, unknown>;
}

/** A text-to-image input: `prompt` is the key, every other field partitions. */
export type ReplicateImageInput = { prompt: string } & Record<string, unknown>;

export interface CachedReplicate {
  /** Runs a text-to-image model (output: a file URL or a list of them). Image metadata: `{ predictionId }`. */
  textToImage(model: string, input: ReplicateImageInput, call: ImageCallOptions & SearchOnlyCall): Promise<CachedImages | null>;
  textToImage(model: string, input: ReplicateImageInput, call?: ImageCallOptions): Promise<CachedImages>;
  /**
   * A cached `(image, question, options?, call?)` answerer on a visual question model (output: a string, or a
   * list of strings joined). `options` are more input fields, part of the key.
   */
  visualQuestionAnswering(model: string, setup?: ReplicateVisualQuestionSetup): CachedVisualQuestion<Record<string, unknown>>;
}

/** A duration option: a number from `min` to `max` (of the unit its name carries). */
function checkDuration(where: string, name: string, value: unknown, min: number, max = Number.MAX_SAFE_INTEGER): number {
  return numberBetween(`${where}: \`${name}\``, value, min, max);
}

function checkField(where: string, name: string, value: unknown): string {
  if (typeof value !== "string" || value === "") throw new ValidationError(`${where}: \`${name}\` must be a non-empty string.`);
  return value;
}

/** A text-to-image output's file URLs. */
function fileUrls(output: unknown): string[] {
  const urls = Array.isArray(output) ? output : [output];
  if (urls.length === 0 || !urls.every((url): url is string => typeof url === "string")) throw unexpectedAnswer("Replicate (an image model's output is not file URLs)", output);
  return urls;
}

/** A text answer: a string, or the list of tokens language models output. */
function answerText(output: unknown): string {
  if (typeof output === "string") return output;
  if (Array.isArray(output) && output.every((part) => typeof part === "string")) return output.join("");
  throw unexpectedAnswer("Replicate (a visual question model's output is not text)", output);
}

/**
 * A Replicate client with the cache in front.
 *
 * ```ts
 * const replicate = cachedReplicate({ cache, responseFormat: "url" });
 * const { images } = await replicate.textToImage("black-forest-labs/flux-schnell", { prompt: "a red fox", aspect_ratio: "1:1", seed: 1 });
 * const ask = replicate.visualQuestionAnswering("salesforce/blip:2e1dddc8", { input: { task: "visual_question_answering" } });
 * const { answer } = await ask(pngBytes, "what animal is this?");
 * ```
 */
export function cachedReplicate(options: CachedReplicateOptions = {}): CachedReplicate {
  const where = "cachedReplicate";
  const defaults = defaultFlowOptions(where, options);
  const connection: ProviderConnection = providerConnection(where, { ...options, apiKey: options.apiToken }, { baseUrl: DEFAULT_REPLICATE_URL, keyVariable: "REPLICATE_API_TOKEN" });
  const format = checkResponseFormat(options.responseFormat, where);
  const timing: PredictionTiming = {
    waitSeconds: checkDuration(where, "waitSeconds", options.waitSeconds ?? 60, 0, 60),
    pollIntervalMs: checkDuration(where, "pollIntervalMs", options.pollIntervalMs ?? 1000, 0),
    timeoutMs: checkDuration(where, "timeoutMs", options.timeoutMs ?? 600_000, 1),
  };
  const downloadTimeoutMs = checkDuration(where, "downloadTimeoutMs", options.downloadTimeoutMs ?? 60_000, 1);

  async function textToImage(model: string, input: ReplicateImageInput, call?: ImageCallOptions): Promise<CachedImages | null> {
    predictionTarget(model);
    const { prompt, ...settings } = checkSettings(`${where}.textToImage`, input);
    return runImageGeneration({
      name: `replicate:${model}`,
      prompt: checkPrompt(`${where}.textToImage`, prompt),
      settings,
      options: callFlowOptions(where, defaults, call),
      responseFormat: callResponseFormat(where, format, call),
      generate: async (): Promise<GeneratedImages> => {
        const prediction = await runPrediction(connection, model, { prompt, ...settings }, timing, call?.signal);
        const urls = fileUrls(prediction.output);
        const files = await Promise.all(urls.map((url) => downloadOutput(connection, url, downloadTimeoutMs, call?.signal)));
        return { images: files.map((bytes) => ({ bytes, metadata: { predictionId: prediction.id } })) };
      },
    });
  }

  function visualQuestionAnswering(model: string, setup: ReplicateVisualQuestionSetup = {}): CachedVisualQuestion<Record<string, unknown>> {
    const setupWhere = `${where}.visualQuestionAnswering`;
    predictionTarget(model);
    const imageField = checkField(setupWhere, "imageField", setup.imageField ?? "image");
    const questionField = checkField(setupWhere, "questionField", setup.questionField ?? "question");
    const fixed = checkSettings(setupWhere, setup.input);
    return cachedVisualQuestionAnswering(
      async (image, question, extra, context) => {
        // The bytes that were keyed go inline as a data: URL, never the caller's URL: Replicate would fetch it again,
        // and a URL that serves another image by then would get that image's answer stored under this one's digest.
        const input = { ...fixed, ...extra, [imageField]: dataUrlOf(image), [questionField]: question };
        return answerText((await runPrediction(connection, model, input, timing, context.signal)).output);
      },
      {
        name: `replicate:${model}:${imageField}:${questionField}:${stableStringify(fixed)}`,
        cache: options.cache,
        cacheOptions: options.cacheOptions,
        fetch: connection.fetch,
        downloadTimeoutMs,
      },
    );
  }

  return { textToImage, visualQuestionAnswering } as CachedReplicate;
}
