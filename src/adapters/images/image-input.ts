/**
 * An image handed to a visual-question adapter, read to bytes so it can be keyed by its SHA-256 digest: the
 * same picture under two URLs shares answers, and another picture behind the same URL does not.
 */
import { digest } from "../../core/keys.js";
import { ValidationError } from "../../core/errors.js";
import { sniffImage, toBytes } from "./image-store.js";
import { decodeDataUrl } from "../../core/data-url.js";

/** An image: its bytes (Uint8Array, Buffer, ArrayBuffer), a `data:` URL, or an http(s) URL (downloaded to be keyed). */
export type ImageInput = Uint8Array | ArrayBuffer | string;

/** An image read for a question: its bytes, their SHA-256 digest, its type, and the URL it was given as. */
export interface ResolvedImage {
  bytes: Uint8Array;
  /** SHA-256 of the bytes, hex. */
  digest: string;
  mimeType: string;
  /** The http(s) URL the caller gave. A backend sends the bytes, never this: the URL may serve another image by then. */
  url?: string;
}

export interface ImageFetchOptions {
  fetch?: typeof fetch;
  signal?: AbortSignal;
  /** Gives up downloading an image URL after this long. */
  downloadTimeoutMs: number;
}

/** The image as a `data:` URL (how Replicate and most HTTP APIs take an upload inline). */
export function dataUrlOf(image: ResolvedImage): string {
  return `data:${image.mimeType};base64,${Buffer.from(image.bytes).toString("base64")}`;
}

function resolved(bytes: Uint8Array, url?: string, declaredType?: string): ResolvedImage {
  if (bytes.length === 0) throw new ValidationError("The image is empty.");
  const sniffed = sniffImage(bytes).mimeType;
  const mimeType = sniffed === "application/octet-stream" && declaredType ? declaredType : sniffed;
  return { bytes, digest: digest("sha256", bytes, "hex"), mimeType, ...(url ? { url } : {}) };
}

export async function resolveImage(input: ImageInput, options: ImageFetchOptions): Promise<ResolvedImage> {
  const bytes = toBytes(input);
  if (bytes) return resolved(bytes);
  if (typeof input !== "string") throw new ValidationError("The image must be bytes, a data: URL or an http(s) URL.");
  const data = decodeDataUrl(input);
  if (data) return resolved(data.bytes, undefined, data.mimeType);
  if (!/^https?:\/\//i.test(input)) throw new ValidationError("The image must be bytes, a data: URL or an http(s) URL (file paths: read the file first).");
  const timeout = AbortSignal.timeout(options.downloadTimeoutMs);
  const response = await (options.fetch ?? fetch)(input, { signal: options.signal ? AbortSignal.any([options.signal, timeout]) : timeout });
  if (!response.ok) throw new ValidationError(`Cannot download the image ${input}: HTTP ${response.status}.`);
  return resolved(new Uint8Array(await response.arrayBuffer()), input, response.headers.get("content-type") ?? undefined);
}
