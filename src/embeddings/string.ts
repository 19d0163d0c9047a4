import { createHash } from "node:crypto";
import { ValidationError } from "../core/errors.js";
import type { EmbeddingFunction, EmbeddingInput } from "../core/contracts/embedding.js";

/**
 * The default embedding of an exact-match cache: the key text itself is the "embedding". Bytes (audio,
 * images) become a content hash, so equal files share a key without storing the file as text.
 */
export class StringEmbedding implements EmbeddingFunction {
  readonly dimension = 0;

  async embed(data: EmbeddingInput): Promise<string> {
    if (typeof data === "string") return data;
    if (!(data instanceof Uint8Array)) {
      throw new ValidationError(`StringEmbedding embeds a string or bytes (Uint8Array), got ${typeof data}.`);
    }
    return `sha256:${createHash("sha256").update(data).digest("hex")}`;
  }

  async embedBatch(data: readonly EmbeddingInput[]): Promise<string[]> {
    return Promise.all(data.map((item) => this.embed(item)));
  }
}
