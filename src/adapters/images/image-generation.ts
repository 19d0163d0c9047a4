/**
 * One text-to-image request through the cache. The prompt is the key (semantic, like any question); the
 * generator's name and every setting that changes the picture (size, seed, model, negative prompt, output
 * format) are the partition, so a different size never gets another size's image. A miss's images go to the
 * object store; a hit reads them back. How they are handed back (bytes, base64, a link) is not part of the key.
 */
import { cache as globalCache } from "../../presets/cache.js";
import { stableStringify } from "../../core/keys.js";
import { runCached, type FlowOptions } from "../../core/pipeline.js";
import { getPrompt } from "../../processors/pre.js";
import type { ObjectStore } from "../../core/contracts/object-store.js";
import { hitMarker } from "../openai/marker.js";
import { withDefaultKey } from "../openai/options.js";
import type { OpenAIHitMarker } from "../openai/types.js";
import {
  imageAnswer,
  objectStoreOf,
  presentImage,
  readStoredImages,
  storeImages,
  type CachedImage,
  type GeneratedImage,
  type ImageResponseFormat,
} from "./image-store.js";

/** What a generator produced. */
export interface GeneratedImages {
  images: GeneratedImage[];
  /** False when the provider flagged the result (content filtered, an error image): handed back, never stored. */
  cacheable?: boolean;
}

/** The images of one request, in the format asked for; `semcache` marks a hit (absent when the generator ran). */
export interface CachedImages {
  images: CachedImage[];
  semcache?: OpenAIHitMarker;
}

export interface ImageGenerationRequest {
  /** Names the generator (a function's name, "stability:core", "replicate:owner/model"): its images are its own. */
  name: string;
  prompt: string;
  /** Every setting that changes the image; any difference keeps answers apart. */
  settings: Record<string, unknown>;
  options: FlowOptions;
  responseFormat: ImageResponseFormat;
  generate: () => Promise<GeneratedImages>;
}

/** A request's images as the flow carries them: the bytes, and where they are kept once stored or read. */
interface ImageRun {
  images: GeneratedImage[];
  cacheable: boolean;
  stored?: { store: ObjectStore; keys: string[] };
  hit?: OpenAIHitMarker;
}

/** Empty results (no image, an empty file) are handed back but never stored. */
function toRun(generated: GeneratedImages): ImageRun {
  const images = generated.images;
  const cacheable = generated.cacheable !== false && images.length > 0 && images.every((image) => image.bytes.length > 0);
  return { images, cacheable };
}

export async function runImageGeneration(request: ImageGenerationRequest): Promise<CachedImages | null> {
  const cache = request.options.cacheObj ?? globalCache;
  // Fails before the generator runs: an image cache without an object store would pay for images it cannot keep.
  if (cache.initialized) objectStoreOf(cache);
  const run = await runCached<ImageRun>({ prompt: request.prompt }, withDefaultKey(request.options, getPrompt), {
    name: `images:${request.name}`,
    partition: `images:${request.name}\u0000${stableStringify(request.settings)}`,
    call: async () => toRun(await request.generate()),
    answerOf: async (result, { cache: target }) => {
      if (!result.cacheable) return null;
      const store = objectStoreOf(target);
      const keys = await storeImages(store, result.images);
      result.stored = { store, keys };
      return imageAnswer(result.images, keys);
    },
    fromCache: async (hit) => {
      const store = objectStoreOf(hit.cache);
      const images = await readStoredImages(store, hit.answer);
      return { images, cacheable: true, stored: { store, keys: images.map(({ key }) => key) }, hit: hitMarker(hit) };
    },
  });
  if (!run) return null;
  const stored = run.stored;
  const images = await Promise.all(
    run.images.map((image, i) => presentImage(image, request.responseFormat, stored ? { store: stored.store, key: stored.keys[i] } : undefined)),
  );
  return run.hit ? { images, semcache: run.hit } : { images };
}
