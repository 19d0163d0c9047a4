/**
 * Image generation through the cache. The images of a miss go to the cache's object store (a URL answer is
 * downloaded first: the provider's links expire within hours); a hit reads them back in the format the
 * request asks for, `b64_json` or `url` (the object store's own link), whatever the stored one was.
 */
import type { ImageGenerateParams, ImagesResponse } from "openai/resources/images";
import type { Cache } from "../../presets/cache.js";
import { StoreError, ValidationError } from "../../core/errors.js";
import type { CacheHit, StoredAnswer } from "../../core/pipeline.js";
import { getPrompt } from "../../processors/pre.js";
import type { ObjectStore } from "../../core/contracts/object-store.js";
import { hitMarker, nowSeconds } from "./marker.js";
import { asRecords, settingsPartition, splitBody, without } from "./options.js";
import { passThrough, runValue } from "./run.js";
import type { CacheBodyOptions, CachedCall, Marked, UpstreamSettings } from "./types.js";
import { decodeDataUrl } from "../../core/data-url.js";

/** An image generation body with the cache's options. */
export type CachedImageBody = ImageGenerateParams & CacheBodyOptions<ImageGenerateParams, ImagesResponse>;

/** The prompt is the key; the response format is how a hit is served, not what the image is. */
const NEUTRAL = new Set(["prompt", "response_format", "user", "stream", "partial_images"]);

/** Waits at most this long for a generated image's URL to download before giving up on storing it. */
const DOWNLOAD_TIMEOUT_MS = 60_000;

type ImageFormat = "url" | "b64_json";

/** What an image entry stores: object-store keys, each image's revised prompt, and the response's other fields. */
interface StoredImages {
  images: Array<{ key: string; revised_prompt?: string }>;
  fields: Record<string, unknown>;
}

/** The format asked for; without one, what the model answers with (GPT image models: base64 only; DALL-E: url). */
function formatOf(body: Record<string, unknown>): ImageFormat {
  const format = body.response_format;
  if (format === "url" || format === "b64_json") return format;
  return String(body.model ?? "").startsWith("gpt-image") ? "b64_json" : "url";
}

function objectStoreOf(cache: Cache): ObjectStore {
  const store = cache.dataManager.object;
  if (!store) {
    throw new ValidationError(
      'Caching images needs an object store: give the data manager an object kind, e.g. managerFactory("sqlite,usearch,local").',
    );
  }
  return store;
}

/** The file extension of an image, from its first bytes. */
function extensionOf(bytes: Uint8Array): string {
  const head = Buffer.from(bytes.subarray(0, 12));
  if (head.subarray(0, 4).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47]))) return "png";
  if (head.subarray(0, 3).equals(Buffer.from([0xff, 0xd8, 0xff]))) return "jpg";
  if (head.toString("latin1", 0, 4) === "RIFF" && head.toString("latin1", 8, 12) === "WEBP") return "webp";
  if (head.toString("latin1", 0, 4) === "GIF8") return "gif";
  return "";
}

/** An image's bytes: decoded base64, a data URL, or an http(s) URL downloaded. Other links are not followed. */
async function imageBytes(image: { b64_json?: string; url?: string }, signal?: AbortSignal): Promise<Uint8Array | null> {
  if (typeof image?.b64_json === "string") return Buffer.from(image.b64_json, "base64");
  const url = image?.url;
  if (typeof url !== "string") return null;
  const data = decodeDataUrl(url);
  if (data) return data.bytes;
  if (!/^https?:\/\//i.test(url)) return null;
  const timeout = AbortSignal.timeout(DOWNLOAD_TIMEOUT_MS);
  const response = await fetch(url, { signal: signal ? AbortSignal.any([signal, timeout]) : timeout });
  if (!response.ok) throw new Error(`Cannot download the generated image for the cache: HTTP ${response.status}.`);
  return new Uint8Array(await response.arrayBuffer());
}

/** Puts a result's images in the object store; if any cannot be kept, none is (the ones put are removed). */
async function storeImages(cache: Cache, result: ImagesResponse, signal?: AbortSignal): Promise<StoredAnswer | null> {
  const data = result?.data;
  if (!Array.isArray(data) || data.length === 0) return null;
  const store = objectStoreOf(cache);
  const images: StoredImages["images"] = [];
  try {
    for (const image of data) {
      const bytes = await imageBytes(image, signal);
      if (!bytes || bytes.length === 0) {
        await store.delete(images.map(({ key }) => key));
        return null;
      }
      const key = await store.put(bytes, { extension: extensionOf(bytes) || undefined });
      images.push(typeof image.revised_prompt === "string" ? { key, revised_prompt: image.revised_prompt } : { key });
    }
  } catch (error) {
    await store.delete(images.map(({ key }) => key)).catch(() => undefined);
    throw error;
  }
  const stored: StoredImages = { images, fields: without(result as unknown as Record<string, unknown>, "created", "data", "usage") };
  // The entry's deps name its files, so the data manager deletes them when the entry is evicted, expired or cleared.
  const deps = images.map(({ key }) => ({ name: "image", data: key, type: "object" as const }));
  return { answer: JSON.stringify(stored), answerType: "image_base64", deps };
}

/** A hit as the SDK's ImagesResponse, each image read back from the object store in the format asked for. */
async function imagesFromHit(hit: CacheHit, format: ImageFormat): Promise<Marked<ImagesResponse>> {
  const store = objectStoreOf(hit.cache);
  const stored = JSON.parse(hit.answer) as StoredImages;
  const data = await Promise.all(
    stored.images.map(async ({ key, revised_prompt }) => {
      // Read even for a url answer: a link to an object that is gone must not be served (the request misses instead).
      const bytes = await store.get(key);
      if (!bytes) throw new StoreError(store.kind, `the cached image ${key} is gone`);
      const image = format === "b64_json" ? { b64_json: Buffer.from(bytes).toString("base64") } : { url: await store.getUrl(key) };
      return revised_prompt === undefined ? image : { ...image, revised_prompt };
    }),
  );
  return { ...stored.fields, created: nowSeconds(), data, semcache: hitMarker(hit) };
}

/** Runs one image generation request through the cache (see `cachedChatCompletion`: same settings, same outcome). */
export async function cachedImageGeneration(
  cache: Cache | undefined,
  body: CachedImageBody,
  settings: UpstreamSettings<ImageGenerateParams, ImagesResponse>,
): Promise<CachedCall<Marked<ImagesResponse> | null>> {
  const split = splitBody<Record<string, unknown>, ImagesResponse>(body, cache, asRecords(settings), false);
  const sent = split.upstream;
  // Partial-image streams are not one answer to replay.
  if (sent.stream === true) return passThrough(split.options, () => split.call(sent));
  const format = formatOf(sent);
  return runValue<ImagesResponse>(
    without(sent, "response_format"),
    split.options,
    {
      name: "openai.images",
      key: getPrompt,
      partition: settingsPartition("images", sent, NEUTRAL),
      answerOf: (result, context) => storeImages(context.cache, result, settings.signal),
      fromCache: (hit) => imagesFromHit(hit, format),
    },
    () => split.call(sent),
  );
}
