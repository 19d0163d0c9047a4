/** The options every image and visual-question adapter takes: which cache, its defaults, and per call. */
import { Cache } from "../../presets/cache.js";
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

/**
 * Where an option value is not plain JSON (a Blob, a Map, a Date, a function, a class instance), by its path:
 * such a value would be written into the key as `{}`, and two different ones would share an answer.
 */
function notPlainJson(value: unknown, path: string): string | undefined {
  if (value === null || typeof value === "string" || typeof value === "boolean" || (typeof value === "number" && Number.isFinite(value))) return undefined;
  if (Array.isArray(value)) {
    for (const [i, item] of value.entries()) {
      const found = notPlainJson(item, `${path}[${i}]`);
      if (found) return found;
    }
    return undefined;
  }
  if (typeof value === "object" && Object.getPrototypeOf(value) === Object.prototype) {
    for (const [name, item] of Object.entries(value)) {
      const found = item === undefined ? undefined : notPlainJson(item, `${path}.${name}`);
      if (found) return found;
    }
    return undefined;
  }
  return path;
}

/**
 * The options that key the answer: every one but the neutral ones, each of them plain JSON (strings, numbers,
 * booleans, arrays, plain objects); another value is refused by its path rather than keyed as `{}`.
 */
export function keyedSettings(where: string, options: Record<string, unknown>, neutral: ReadonlySet<string>): Record<string, unknown> {
  const keyed = Object.fromEntries(Object.entries(options).filter(([name, value]) => value !== undefined && !neutral.has(name)));
  const found = notPlainJson(keyed, "options");
  if (found) {
    throw new ValidationError(`${where}: ${found} is not plain JSON (a string, number, boolean, array or plain object), so it cannot key the answer: pass a URL, a digest or a name, or list the option in neutralOptions.`);
  }
  return keyed;
}

/** The option names that do not key the answer (neutralOptions), checked. */
export function neutralOptionNames(where: string, list: unknown): ReadonlySet<string> {
  const names = list ?? [];
  if (!Array.isArray(names) || !names.every((field) => typeof field === "string")) {
    throw new ValidationError(`${where}: \`neutralOptions\` must be a list of option names.`);
  }
  return new Set(names);
}

/**
 * The name that keys a function's answers: `name`, else the function's own. A function without one (an inline
 * arrow) is refused: two such functions on one cache would share their answers.
 */
export function functionName(where: string, fn: { name: string }, name: unknown): string {
  if (name !== undefined && (typeof name !== "string" || name === "")) throw new ValidationError(`${where}: \`name\` must be a non-empty string.`);
  const chosen = (name as string | undefined) ?? fn.name;
  if (!chosen) throw new ValidationError(`${where}: the function has no name: give \`name\` (what keeps its answers apart from another function's on the same cache).`);
  return chosen;
}
