import { ValidationError } from "../core/errors.js";
import { l2Normalize } from "../core/vector-math.js";
import { toEmbeddingFunction, type EmbeddingSource } from "../core/embedding-source.js";
import type { EvaluationPair } from "./base.js";
import { EmbeddingCache } from "../core/embedding-cache.js";

/** The option of an evaluation that compares the two questions' embeddings. */
export interface PairEmbeddingOptions {
  /**
   * Embeds the questions of a pair given without vectors when the evaluation runs as a Runnable
   * (`invoke({ question, cachedQuestion })`, `batch`): any LangChain `Embeddings`, an EmbeddingFunction or a
   * plain function; use the cache's own model, whose vectors the scores are read against. Without it such a
   * pair is a ValidationError, never a score from no vectors. The cache always passes its vectors, so its
   * lookups never call it.
   */
  embeddings?: EmbeddingSource;
}

/** Which sides of a pair lack a vector the evaluation reads. */
export interface MissingVectors {
  query: boolean;
  stored: boolean;
}

/** Question texts whose vectors are kept between Runnable calls (a batch often repeats one side). */
const REMEMBERED_QUESTIONS = 1000;

/**
 * Fills in the vectors a pair given outside the cache lacks, for the Runnable path of an evaluation that
 * compares embeddings: the missing sides in one batched call of the configured embeddings, or a
 * ValidationError that says what to pass. The stored side is L2-normalised, as the cache stores vectors, so
 * a pair scores as a lookup of the same two questions would.
 */
export class PairEmbedder {
  readonly #owner: string;
  readonly #cache?: EmbeddingCache;

  constructor(owner: string, source: EmbeddingSource | undefined) {
    this.#owner = owner;
    if (source !== undefined) this.#cache = new EmbeddingCache(toEmbeddingFunction(source), REMEMBERED_QUESTIONS);
  }

  async complete(pair: EvaluationPair, missing: MissingVectors): Promise<EvaluationPair> {
    if (!missing.query && !missing.stored) return pair;
    const { src, cached } = pair;
    if (!this.#cache) {
      const sides = [missing.query && "src.embedding", missing.stored && "cached.embedding"].filter(Boolean).join(" and ");
      throw new ValidationError(
        `${this.#owner} compares the two questions' embeddings, and this pair has no ${sides}: construct it with \`embeddings\` ` +
          `(the cache's embedding model) to embed the questions: new ${this.#owner}({ embeddings }) (presetEvaluation({ embeddings }) for the preset), ` +
          "or invoke it with { src: { question, embedding }, cached: { question, answer, embedding } }.",
      );
    }
    const texts = [...(missing.query ? [src.question] : []), ...(missing.stored ? [cached.question] : [])];
    const embedded = await this.#cache.embedAll(texts);
    const vector = (text: string) => {
      const output = embedded.get(text);
      if (!(output instanceof Float32Array)) {
        throw new ValidationError(`${this.#owner}: \`embeddings\` must return vectors (it returned ${typeof output}).`);
      }
      return output;
    };
    return {
      ...pair,
      src: missing.query ? { ...src, embedding: vector(src.question) } : src,
      cached: missing.stored ? { ...cached, embedding: l2Normalize(vector(cached.question)) } : cached,
    };
  }
}
