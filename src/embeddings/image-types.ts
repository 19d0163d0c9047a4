/** The image inputs of the image embeddings, typed by shape: these declarations compile without the optional libraries. */
import type { EmbeddingInput } from "../core/contracts/embedding.js";

/** An image as the model takes it: encoded bytes (PNG, JPEG, WebP, ... decoded by sharp) or decoded pixels. */
export type ImageInput = Uint8Array | RawImageLike;

/** A transformers.js RawImage (decoded pixels), typed by shape so that these declarations compile without the library. */
export interface RawImageLike {
  readonly data: ArrayLike<number>;
  readonly width: number;
  readonly height: number;
  readonly channels: number;
}

/**
 * Turns what the cache is given (a file name, a data URL, raw pixels, a text to render, ...) into an image;
 * it may be async. Without it, bytes are the encoded image.
 */
export type ImagePreprocess = (data: EmbeddingInput) => ImageInput | Promise<ImageInput>;
