/**
 * `cachedVisualQuestionAnswering(fn)`: the cache in front of any `(image, question) => answer` function. The
 * question is the key (semantic: a reworded question hits); the image's SHA-256 digest, the answerer's name
 * and its options are the partition, so another picture never shares an answer (a text embedding cannot tell
 * two pictures apart).
 */
import { ValidationError } from "../../core/errors.js";
import { isPositiveNumber } from "../../core/validation.js";
import { stableStringify } from "../../core/keys.js";
import { runCached } from "../../core/pipeline.js";
import { getPrompt } from "../../processors/pre.js";
import { hitMarker } from "../openai/marker.js";
import { withDefaultKey } from "../openai/options.js";
import type { OpenAIHitMarker } from "../openai/types.js";
import { callFlowOptions, checkPrompt, checkSettings, defaultFlowOptions, functionName, keyedSettings, neutralOptionNames, type CacheSettings, type CallOptions, type SearchOnlyCall } from "./call-options.js";
import { resolveImage, type ImageInput, type ResolvedImage } from "./image-input.js";

/** An answer; `semcache` marks a hit (absent when the model answered). */
export interface VisualAnswer {
  answer: string;
  semcache?: OpenAIHitMarker;
}

/** A visual question answerer: the image (bytes, digest, type, the URL given), the question, the call's options. */
export type VisualQuestionFunction<O> = (image: ResolvedImage, question: string, options: O, context: { signal?: AbortSignal }) => string | Promise<string>;

export interface CachedVisualQuestionOptions extends CacheSettings {
  /** Names the answerer: answers of two names are never shared. Default: the function's name. */
  name?: string;
  /** Options that do not change the answer (a timeout): left out of the key. */
  neutralOptions?: readonly string[];
  /** Downloads images given as http(s) URLs (they are keyed by their bytes). Default: the global fetch. */
  fetch?: typeof fetch;
  /** Gives up downloading an image URL after this long. Default 60 s. */
  downloadTimeoutMs?: number;
}

/** A cached visual question answerer: `(image, question, options?, call?)`. */
export interface CachedVisualQuestion<O> {
  (image: ImageInput, question: string, options: O | undefined, call: CallOptions & SearchOnlyCall): Promise<VisualAnswer | null>;
  (image: ImageInput, question: string, options?: O, call?: CallOptions): Promise<VisualAnswer>;
}

const DEFAULT_DOWNLOAD_TIMEOUT_MS = 60_000;

/**
 * Puts the cache in front of a visual question answering function. An empty answer is returned but not stored.
 *
 * ```ts
 * const ask = cachedVisualQuestionAnswering(async (image, question) => myModel(image.bytes, question), { cache });
 * const { answer, semcache } = await ask(pngBytes, "what colour is the car?");
 * ```
 */
export function cachedVisualQuestionAnswering<O extends Record<string, unknown> = Record<string, unknown>>(
  fn: VisualQuestionFunction<O>,
  options: CachedVisualQuestionOptions = {},
): CachedVisualQuestion<O> {
  const where = "cachedVisualQuestionAnswering";
  if (typeof fn !== "function") throw new ValidationError(`${where} needs a function.`);
  const defaults = defaultFlowOptions(where, options);
  if (options.fetch !== undefined && typeof options.fetch !== "function") throw new ValidationError(`${where}: \`fetch\` must be a function.`);
  const downloadTimeoutMs = options.downloadTimeoutMs ?? DEFAULT_DOWNLOAD_TIMEOUT_MS;
  if (!isPositiveNumber(downloadTimeoutMs)) throw new ValidationError(`${where}: \`downloadTimeoutMs\` must be a positive number.`);
  const neutral = neutralOptionNames(where, options.neutralOptions);
  const name = `vqa:${functionName(where, fn, options.name)}`;

  return (async (input: ImageInput, question: string, settings?: O, call?: CallOptions) => {
    const text = checkPrompt(where, question);
    const given = checkSettings(where, settings) as O;
    const flow = callFlowOptions(where, defaults, call);
    const image = await resolveImage(input, { fetch: options.fetch, signal: call?.signal, downloadTimeoutMs });
    return runCached<VisualAnswer>({ prompt: text }, withDefaultKey(flow, getPrompt), {
      name,
      partition: `${name}\u0000${image.digest}\u0000${stableStringify(keyedSettings(where, given, neutral))}`,
      call: async () => {
        const answer = await fn(image, text, given, { signal: call?.signal });
        if (typeof answer !== "string") throw new ValidationError(`${where}: the function must return the answer as a string.`);
        return { answer };
      },
      answerOf: ({ answer }) => answer || null,
      fromCache: (hit) => ({ answer: hit.answer, semcache: hitMarker(hit) }),
    });
  }) as CachedVisualQuestion<O>;
}
