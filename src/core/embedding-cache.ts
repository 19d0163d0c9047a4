import type { EmbeddingFunction, EmbeddingOutput } from "./contracts/embedding.js";
import { Lru } from "./lru.js";

/**
 * Embeds texts with an embedding function and remembers the embeddings of recent texts, so the texts an
 * evaluation or context processor sees again (the request's question against each of its candidates, the
 * turns of a growing dialogue) are embedded once. Concurrent requests for the same text share one call;
 * texts not known yet are embedded in one batch when the function can batch. A failed call is forgotten.
 */
export class EmbeddingCache {
  readonly #memo: Lru<string, Promise<EmbeddingOutput>>;

  constructor(
    readonly embedding: EmbeddingFunction,
    capacity: number,
  ) {
    this.#memo = new Lru(capacity);
  }

  /** The embedding of every text in `texts`, by text. */
  async embedAll(texts: readonly string[]): Promise<Map<string, EmbeddingOutput>> {
    const pending = new Map<string, Promise<EmbeddingOutput>>();
    const missing: string[] = [];
    for (const text of new Set(texts)) {
      const known = this.#memo.get(text);
      if (known) pending.set(text, known);
      else missing.push(text);
    }
    if (missing.length > 0) {
      const batch = this.#embedBatch(missing);
      missing.forEach((text, i) => pending.set(text, this.#memo.remember(text, () => batch.then((outputs) => outputs[i]))));
    }
    const found = new Map<string, EmbeddingOutput>();
    await Promise.all([...pending].map(async ([text, output]) => found.set(text, await output)));
    return found;
  }

  /** The embedding of one text. */
  async embed(text: string): Promise<EmbeddingOutput> {
    return (await this.embedAll([text])).get(text) as EmbeddingOutput;
  }

  async #embedBatch(texts: string[]): Promise<EmbeddingOutput[]> {
    const embedding = this.embedding;
    return embedding.embedBatch ? embedding.embedBatch(texts) : Promise.all(texts.map((text) => embedding.embed(text)));
  }
}
