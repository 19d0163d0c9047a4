import { readFile } from "node:fs/promises";
import type { RawImage } from "@huggingface/transformers";
import { EmbeddingError, SemcacheError, ValidationError } from "../core/errors.js";
import type { ImageInput, ImagePreprocess } from "./image-types.js";
import type { Transformers } from "../models/transformers-library.js";
import type { EmbeddingInput } from "../core/contracts/embedding.js";
import { decodeDataUrl } from "../core/data-url.js";

export interface DecodeImageOptions {
  feature: string;
  preprocess?: ImagePreprocess;
  /** Read a string as a `data:` URL or an image file's path. Without it, strings need `preprocess`. */
  readStrings?: boolean;
}

/** The bytes a `data:` URL holds, or the contents of the file a path names. */
async function bytesOfString(text: string, feature: string, index: number): Promise<Uint8Array> {
  const data = decodeDataUrl(text);
  if (data) return data.bytes;
  try {
    return await readFile(text);
  } catch (error) {
    throw new ValidationError(`${feature}: input ${index} is neither a data: URL nor a readable image file (${(error as Error).message}).`, { cause: error });
  }
}

/** One input as decoded pixels: `preprocess` first, then bytes (or, with readStrings, a path or data: URL) decoded by sharp. */
export async function decodeImage(lib: Transformers, data: EmbeddingInput, index: number, options: DecodeImageOptions): Promise<RawImage> {
  const { feature, preprocess, readStrings = false } = options;
  let image: ImageInput | string;
  try {
    image = preprocess ? await preprocess(data) : data;
  } catch (error) {
    if (SemcacheError.isInstance(error)) throw error;
    throw new EmbeddingError(`${feature}: \`preprocess\` failed on input ${index}: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
  }
  if (image instanceof lib.RawImage) return image;
  if (typeof image === "string" && readStrings) image = await bytesOfString(image, feature, index);
  if (!(image instanceof Uint8Array)) {
    const what = preprocess ? "`preprocess` returned" : "was given";
    const needed = readStrings ? "image bytes, a file path, a data: URL or a RawImage" : "image bytes or a RawImage";
    throw new ValidationError(`${feature}: input ${index}: ${what} ${typeof image}; ${needed} are needed (map other inputs with \`preprocess\`).`);
  }
  try {
    return await lib.RawImage.read(new Blob([image]));
  } catch (error) {
    throw new ValidationError(`${feature}: input ${index} is not an image sharp can decode: ${(error as Error).message}`, { cause: error });
  }
}
