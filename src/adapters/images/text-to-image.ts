/**
 * `cachedTextToImage(fn)`: the cache in front of any `(prompt, options) => image` function (a local diffusion
 * pipeline, another provider's SDK). The prompt is the key; every option is part of it unless named neutral.
 */
import { ValidationError } from "../../core/errors.js";
import {
  callFlowOptions,
  callResponseFormat,
  checkPrompt,
  checkSettings,
  defaultFlowOptions,
  functionName,
  keyedSettings,
  neutralOptionNames,
  type CacheSettings,
  type ImageCallOptions,
  type SearchOnlyCall,
} from "./call-options.js";
import { runImageGeneration, type CachedImages, type GeneratedImages } from "./image-generation.js";
import { checkResponseFormat, toBytes, type GeneratedImage, type ImageResponseFormat } from "./image-store.js";

/** An image as a function may return it. */
export type ImageBytes = Uint8Array | ArrayBuffer;

/** What a text-to-image function returns: one image, several, or images with their metadata (`cacheable: false`: hand back, never store). */
export type TextToImageResult = ImageBytes | ImageBytes[] | { images: Array<{ bytes: ImageBytes; metadata?: Record<string, unknown> }>; cacheable?: boolean };

/** A text-to-image function; `signal` aborts when the caller does. */
export type TextToImageFunction<O> = (prompt: string, options: O, context: { signal?: AbortSignal }) => TextToImageResult | Promise<TextToImageResult>;

export interface CachedTextToImageOptions extends CacheSettings {
  /** Names the generator: images of two names are never shared. Default: the function's name. */
  name?: string;
  /** How images come back unless a call says otherwise. Default "bytes". */
  responseFormat?: ImageResponseFormat;
  /** Options that do not change the image (a timeout, a progress callback): left out of the key. */
  neutralOptions?: readonly string[];
}

/** A cached text-to-image function: `(prompt, options?, call?)`. */
export interface CachedTextToImage<O> {
  (prompt: string, options: O | undefined, call: ImageCallOptions & SearchOnlyCall): Promise<CachedImages | null>;
  (prompt: string, options?: O, call?: ImageCallOptions): Promise<CachedImages>;
}

/** A function's result as images; anything else is the function's mistake, thrown (never stored). */
function normalizeImages(result: unknown, where: string): GeneratedImages {
  const single = toBytes(result);
  if (single) return { images: [{ bytes: single }] };
  if (Array.isArray(result)) {
    const images = result.map(toBytes);
    if (images.every((bytes): bytes is Uint8Array => bytes !== undefined)) return { images: images.map((bytes) => ({ bytes })) };
  } else if (typeof result === "object" && result !== null && Array.isArray((result as { images?: unknown }).images)) {
    const { images, cacheable } = result as { images: Array<{ bytes?: unknown; metadata?: Record<string, unknown> }>; cacheable?: boolean };
    const normalized: GeneratedImage[] = images.map((image) => {
      const bytes = toBytes(image?.bytes);
      if (!bytes) throw new ValidationError(`${where}: each image needs \`bytes\` (a Uint8Array or an ArrayBuffer).`);
      return image.metadata === undefined ? { bytes } : { bytes, metadata: image.metadata };
    });
    return { images: normalized, cacheable };
  }
  throw new ValidationError(`${where}: the function must return image bytes, a list of them, or { images: [{ bytes }] }.`);
}

/**
 * Puts the cache in front of a text-to-image function. Images are kept in the cache's object store (the data
 * manager needs an object kind, e.g. `managerFactory("sqlite,usearch,local")`) and come back as bytes, base64
 * or a link, whatever format the stored one was asked in.
 *
 * ```ts
 * const draw = cachedTextToImage(async (prompt, { size }) => pipeline(prompt, size), { cache, name: "my-pipeline", responseFormat: "base64" });
 * const { images, semcache } = await draw("a red fox", { size: "512x512" });
 * ```
 */
export function cachedTextToImage<O extends Record<string, unknown> = Record<string, unknown>>(
  fn: TextToImageFunction<O>,
  options: CachedTextToImageOptions = {},
): CachedTextToImage<O> {
  const where = "cachedTextToImage";
  if (typeof fn !== "function") throw new ValidationError(`${where} needs a function.`);
  const defaults = defaultFlowOptions(where, options);
  const name = functionName(where, fn, options.name);
  const format = checkResponseFormat(options.responseFormat, where);
  const neutral = neutralOptionNames(where, options.neutralOptions);

  return (async (prompt: string, settings?: O, call?: ImageCallOptions) => {
    const text = checkPrompt(where, prompt);
    const given = checkSettings(where, settings) as O;
    return runImageGeneration({
      name: `fn:${name}`,
      prompt: text,
      settings: keyedSettings(where, given, neutral),
      options: callFlowOptions(where, defaults, call),
      responseFormat: callResponseFormat(where, format, call),
      generate: async () => normalizeImages(await fn(text, given, { signal: call?.signal }), where),
    });
  }) as CachedTextToImage<O>;
}
