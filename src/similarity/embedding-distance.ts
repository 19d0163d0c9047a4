import { ValidationError } from "../core/errors.js";
import { LangChainEmbeddingFunction, toEmbeddingFunction, type EmbeddingSource } from "../core/embedding-source.js";
import type { EmbeddingFunction, EmbeddingOutput } from "../core/contracts/embedding.js";
import { BaseSimilarityEvaluation } from "./base.js";
import { integerAtLeast } from "../core/validation.js";
import { EmbeddingCache } from "../core/embedding-cache.js";
import { embeddingSimilarity } from "../core/similarity-score.js";
import type { EvaluationCandidate, EvaluationContext, EvaluationSource } from "../core/contracts/evaluation.js";

export interface EmbeddingDistanceOptions {
  /** Embeds both questions: any LangChain `Embeddings`, an EmbeddingFunction or a plain function. */
  embeddings: EmbeddingSource;
  /** Question texts whose embeddings are kept between calls (least recently used dropped). Default 1000. */
  cacheSize?: number;
}

/** The object that really embeds: a LangChain Embeddings behind its adapter, else the function itself. */
function underlying(embedding: EmbeddingFunction): unknown {
  return embedding instanceof LangChainEmbeddingFunction ? embedding.embeddings : embedding;
}

/**
 * Judges a candidate by the cosine similarity of the two questions' embeddings (clamped to [0, 1]) under
 * an embedding of its own: a stronger model than the cache's search embedding, a LangChain `Embeddings`
 * outside any cache, or the same one on questions stored in another form. The embeddings of recent
 * questions are remembered, so a request judged against several candidates is embedded once. When the
 * cache embeds with this very function (context.embeddingFunc), the vectors the cache already has are
 * reused and nothing is embedded again.
 *
 * The same question scores 1 and an empty question 0, both without embedding.
 */
export class EmbeddingDistanceEvaluation extends BaseSimilarityEvaluation {
  readonly embedding: EmbeddingFunction;
  readonly #embeddings: EmbeddingCache;

  constructor(options: EmbeddingDistanceOptions) {
    super(options ?? {});
    if (options?.embeddings === undefined) {
      throw new ValidationError("EmbeddingDistanceEvaluation: `embeddings` is required (a LangChain Embeddings or an embedding function).");
    }
    const cacheSize = integerAtLeast("EmbeddingDistanceEvaluation: `cacheSize`", options.cacheSize, 0, 1000);
    this.embedding = toEmbeddingFunction(options.embeddings);
    this.#embeddings = new EmbeddingCache(this.embedding, cacheSize);
  }

  range(): readonly [number, number] {
    return [0, 1];
  }

  async evaluation(src: EvaluationSource, cached: EvaluationCandidate, context?: EvaluationContext): Promise<number> {
    if (src.question === cached.question) return 1;
    if (src.question === "" || cached.question === "") return 0;
    const reuse = context?.embeddingFunc !== undefined && underlying(context.embeddingFunc) === underlying(this.embedding);
    let query: EmbeddingOutput | undefined = reuse ? src.embedding : undefined;
    let stored: EmbeddingOutput | undefined = reuse ? (cached.embedding ?? cached.record?.embedding) : undefined;
    if (query === undefined || stored === undefined) {
      const embedded = await this.#embeddings.embedAll([
        ...(query === undefined ? [src.question] : []),
        ...(stored === undefined ? [cached.question] : []),
      ]);
      query ??= embedded.get(src.question);
      stored ??= embedded.get(cached.question);
    }
    return embeddingSimilarity(query, stored) ?? 0;
  }
}
