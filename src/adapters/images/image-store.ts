/**
 * Generated images in the cache's object store: a miss's images are put there (all or none), and a hit reads
 * them back as bytes, base64 or the store's own link. The entry's answer holds only the object keys.
 */
import type { Cache } from "../../presets/cache.js";
import { StoreError, ValidationError } from "../../core/errors.js";
import type { StoredAnswer } from "../../core/pipeline.js";
import type { ObjectStore } from "../../core/contracts/object-store.js";

/** How an image is handed back: its bytes, its bytes as base64, or a link (file:// for a local store, a presigned URL for s3). */
export type ImageResponseFormat = "bytes" | "base64" | "url";

export const IMAGE_RESPONSE_FORMATS: readonly ImageResponseFormat[] = ["bytes", "base64", "url"];

/** One image as a generator made it, before it is stored. */
export interface GeneratedImage {
  bytes: Uint8Array;
  /** The provider's data about this image (seed, finish reason); stored with it and given back on hits. */
  metadata?: Record<string, unknown>;
}

/** One image as the caller gets it: exactly one of `bytes`, `base64` or `url`, per the format asked for. */
export interface CachedImage {
  /** "image/png", "image/jpeg", "image/webp", "image/gif", or "application/octet-stream" when unknown. */
  mimeType: string;
  bytes?: Uint8Array;
  base64?: string;
  url?: string;
  metadata?: Record<string, unknown>;
}

/** What an image entry stores: one object key per image, with its type and metadata. */
interface StoredImages {
  images: Array<{ key: string; mimeType: string; metadata?: Record<string, unknown> }>;
}

const SIGNATURES: Array<{ mimeType: string; extension: string; test: (head: Buffer) => boolean }> = [
  { mimeType: "image/png", extension: "png", test: (head) => head.subarray(0, 4).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47])) },
  { mimeType: "image/jpeg", extension: "jpg", test: (head) => head.subarray(0, 3).equals(Buffer.from([0xff, 0xd8, 0xff])) },
  { mimeType: "image/webp", extension: "webp", test: (head) => head.toString("latin1", 0, 4) === "RIFF" && head.toString("latin1", 8, 12) === "WEBP" },
  { mimeType: "image/gif", extension: "gif", test: (head) => head.toString("latin1", 0, 4) === "GIF8" },
];

/** An image's type from its first bytes (a provider's content-type header may be generic or missing). */
export function sniffImage(bytes: Uint8Array): { mimeType: string; extension?: string } {
  const head = Buffer.from(bytes.subarray(0, 12));
  const found = SIGNATURES.find((signature) => signature.test(head));
  return found ? { mimeType: found.mimeType, extension: found.extension } : { mimeType: "application/octet-stream" };
}

/** Bytes from any typed array view or ArrayBuffer (checked without instanceof: a value may come from another realm). */
export function toBytes(value: unknown): Uint8Array | undefined {
  if (ArrayBuffer.isView(value)) return value instanceof Uint8Array ? value : new Uint8Array(value.buffer, value.byteOffset, value.byteLength);
  if (Object.prototype.toString.call(value) === "[object ArrayBuffer]") return new Uint8Array(value as ArrayBuffer);
  return undefined;
}

export function checkResponseFormat(format: unknown, where: string): ImageResponseFormat | undefined {
  if (format === undefined) return undefined;
  if (!IMAGE_RESPONSE_FORMATS.includes(format as ImageResponseFormat)) {
    throw new ValidationError(`${where}: responseFormat must be one of ${IMAGE_RESPONSE_FORMATS.join(", ")}.`);
  }
  return format as ImageResponseFormat;
}

export function objectStoreOf(cache: Cache): ObjectStore {
  const store = cache.dataManager.object;
  if (!store) {
    throw new ValidationError(
      'Caching images needs an object store: give the data manager an object kind, e.g. managerFactory("sqlite,usearch,local").',
    );
  }
  return store;
}

/** Puts the images in the object store; if any cannot be kept, none is (the ones put are removed). Returns their keys. */
export async function storeImages(store: ObjectStore, images: readonly GeneratedImage[]): Promise<string[]> {
  const keys: string[] = [];
  try {
    for (const image of images) {
      const { mimeType, extension } = sniffImage(image.bytes);
      keys.push(await store.put(image.bytes, { extension, contentType: mimeType }));
    }
  } catch (error) {
    await store.delete(keys).catch(() => undefined);
    throw error;
  }
  return keys;
}

/** The entry of stored images: the keys with each image's type and metadata; deps name the files, so the data manager deletes them with the entry. */
export function imageAnswer(images: readonly GeneratedImage[], keys: readonly string[]): StoredAnswer {
  const stored: StoredImages = {
    images: images.map((image, i) => ({ key: keys[i], mimeType: sniffImage(image.bytes).mimeType, ...(image.metadata ? { metadata: image.metadata } : {}) })),
  };
  const deps = keys.map((key) => ({ name: "image", data: key, type: "object" as const }));
  return { answer: JSON.stringify(stored), answerType: "image_base64", deps };
}

/** A hit's images with their bytes and keys. A missing object throws: the request is then a miss. */
export async function readStoredImages(store: ObjectStore, answer: string): Promise<Array<GeneratedImage & { key: string }>> {
  const { images } = JSON.parse(answer) as StoredImages;
  if (!Array.isArray(images) || images.length === 0) throw new StoreError(store.kind, "the cached entry names no image");
  return Promise.all(
    images.map(async ({ key, metadata }) => {
      const bytes = await store.get(key);
      if (!bytes) throw new StoreError(store.kind, `the cached image ${key} is gone`);
      return metadata ? { key, bytes, metadata } : { key, bytes };
    }),
  );
}

/**
 * One image in the format asked for. A link is the object store's (`stored`: the store and key holding it);
 * an image that was not stored (content filtered, no-store, a failed save) is linked as a data: URL.
 */
export async function presentImage(image: GeneratedImage, format: ImageResponseFormat, stored?: { store: ObjectStore; key: string }): Promise<CachedImage> {
  const { mimeType } = sniffImage(image.bytes);
  const metadata = image.metadata ? { metadata: image.metadata } : {};
  if (format === "bytes") return { mimeType, bytes: image.bytes, ...metadata };
  const base64 = Buffer.from(image.bytes).toString("base64");
  if (format === "base64") return { mimeType, base64, ...metadata };
  const url = stored ? await stored.store.getUrl(stored.key) : `data:${mimeType};base64,${base64}`;
  return { mimeType, url, ...metadata };
}
