/**
 * Recent texts' embeddings, so a text asked again is embedded once: a LangChain `lookup` and then its `update`,
 * a `get` and then a `put`, a user repeating a question. Keyed by the embedding function and the text; a
 * concurrent second ask shares the first's call, and a failed call is forgotten. Vectors are handed out as copies
 * (a caller may normalise one in place). Bytes (images, audio) and calls with `extra` are not remembered.
 */
import type { EmbeddingFunction, EmbeddingInput, EmbeddingOutput } from "./contracts/embedding.js";
import { Lru } from "./lru.js";

/** Texts remembered per embedding function by default (a 512-d vector is 2 KB: 256 of them 0.5 MB). */
export const DEFAULT_EMBEDDING_MEMO_SIZE = 256;

export class EmbeddingMemo {
  readonly #byFunction = new WeakMap<EmbeddingFunction, Lru<string, Promise<EmbeddingOutput>>>();
  /** Functions that answered a string key (exact-match embeddings): nothing to save by remembering them. */
  readonly #keyFunctions = new WeakSet<EmbeddingFunction>();

  /** `capacity`: texts remembered per embedding function; 0 remembers none. */
  constructor(readonly capacity = DEFAULT_EMBEDDING_MEMO_SIZE) {}

  embed(embedding: EmbeddingFunction, data: EmbeddingInput, extra?: unknown): Promise<EmbeddingOutput> {
    if (this.capacity <= 0 || typeof data !== "string" || extra !== undefined || this.#keyFunctions.has(embedding)) return embedding.embed(data, extra);
    let recent = this.#byFunction.get(embedding);
    if (!recent) {
      recent = new Lru(this.capacity);
      this.#byFunction.set(embedding, recent);
    }
    return recent.remember(data, () => embedding.embed(data)).then((output) => {
      if (typeof output !== "string") return output.slice();
      this.#keyFunctions.add(embedding);
      this.#byFunction.delete(embedding);
      return output;
    });
  }
}
