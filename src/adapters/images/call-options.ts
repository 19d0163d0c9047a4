/** The options every image and visual-question adapter takes: which cache, its defaults, and per call. */
import { Cache } from "../../core/cache.js";
import { ValidationError } from "../../core/errors.js";
import type { FlowOptions } from "../../core/pipeline.js";
import { checkResponseFormat, type ImageResponseFormat } from "./image-store.js";

/** Which cache an adapter uses, and the cache options of every call. */
export interface CacheSettings {
  /** The cache of every call. Default: the global `cache`. */
  cache?: Cache;
  /** Cache options of every call, under each call's own: `{ session: "user-42" }`, `{ noStore: true }`, ... */
  cacheOptions?: FlowOptions;
}

/** Per call: cache options over the adapter's (`{ cacheSkip: true }`, `{ maxAgeSeconds: 60 }`), and an abort signal. */
export interface CallOptions {
  cacheOptions?: FlowOptions;
  signal?: AbortSignal;
}

/** Per image call: also the format the images come back in. */
export interface ImageCallOptions extends CallOptions {
  responseFormat?: ImageResponseFormat;
}

/** A call asking the cache only: a miss returns null instead of running the model. */
export type SearchOnlyCall = { cacheOptions: FlowOptions & { searchOnly: true } };

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** Checks an adapter's cache settings and returns its default flow options. */
export function defaultFlowOptions(where: string, settings: CacheSettings): FlowOptions {
  if (!isObject(settings)) throw new ValidationError(`${where}: options must be an object.`);
  if (settings.cache !== undefined && !(settings.cache instanceof Cache)) throw new ValidationError(`${where}: \`cache\` must be a Cache.`);
  if (settings.cacheOptions !== undefined && !isObject(settings.cacheOptions)) throw new ValidationError(`${where}: \`cacheOptions\` must be an object.`);
  // Every call would then return null on a miss, which the result types do not say: searchOnly is given per call.
  if (settings.cacheOptions?.searchOnly) throw new ValidationError(`${where}: give \`searchOnly\` per call (call options' cacheOptions), not as a default.`);
  return { ...settings.cacheOptions, ...(settings.cache ? { cacheObj: settings.cache } : {}) };
}

/** A call's flow options: the adapter's defaults under the call's own. */
export function callFlowOptions(where: string, defaults: FlowOptions, call: CallOptions | undefined): FlowOptions {
  if (call === undefined) return defaults;
  if (!isObject(call)) throw new ValidationError(`${where}: call options must be an object.`);
  if (call.cacheOptions !== undefined && !isObject(call.cacheOptions)) throw new ValidationError(`${where}: \`cacheOptions\` must be an object.`);
  if (call.signal !== undefined && !(call.signal instanceof AbortSignal)) throw new ValidationError(`${where}: \`signal\` must be an AbortSignal.`);
  return { ...defaults, ...call.cacheOptions };
}

/** A call's response format: its own, else the adapter's, else bytes. */
export function callResponseFormat(where: string, fallback: ImageResponseFormat | undefined, call: ImageCallOptions | undefined): ImageResponseFormat {
  return checkResponseFormat(call?.responseFormat, where) ?? fallback ?? "bytes";
}

/** A prompt the cache can key on. */
export function checkPrompt(where: string, prompt: unknown): string {
  if (typeof prompt !== "string" || prompt.trim() === "") throw new ValidationError(`${where}: the prompt must be a non-empty string.`);
  return prompt;
}

/** A settings object (a generator's options, a model's input): a plain object or nothing. */
export function checkSettings(where: string, settings: unknown): Record<string, unknown> {
  if (settings === undefined) return {};
  if (!isObject(settings)) throw new ValidationError(`${where}: options must be an object.`);
  return settings;
}
