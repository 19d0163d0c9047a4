import { ValidationError } from "../core/errors.js";
import { toEmbeddingFunction, type EmbeddingSource } from "../core/embedding-source.js";
import type { EmbeddingFunction } from "../core/contracts/embedding.js";
import { BaseSimilarityEvaluation } from "./base.js";
import { integerAtLeast, isPositiveNumber } from "../core/validation.js";
import { EmbeddingCache } from "../core/embedding-cache.js";
import { embeddingSimilarity } from "../core/similarity-score.js";
import type { EvaluationCandidate, EvaluationSource } from "../core/contracts/evaluation.js";

export interface SequenceMatchOptions {
  /** One positive weight per round, the latest round first; rounds beyond the list are ignored. */
  weights: readonly number[];
  /** Embeds each round: an EmbeddingFunction, a LangChain Embeddings or a plain function. */
  embedding: EmbeddingSource;
  /** Round texts whose embeddings are kept between calls (least recently used dropped). Default 1000. */
  cacheSize?: number;
}

/** Turn headers as concatAllQueries writes them (OpenAI roles, upper-cased) at the start of a line. */
const ROUND_HEADER = /^(?:USER|ASSISTANT|SYSTEM|TOOL|FUNCTION|DEVELOPER): /gm;

/** "USER: a\nUSER: b" -> ["a", "b"]; text without headers is one round; empty rounds are dropped. */
function splitRounds(text: string): string[] {
  const rounds: string[] = [];
  let start = 0;
  for (const header of text.matchAll(ROUND_HEADER)) {
    rounds.push(text.slice(start, Math.max(start, header.index - 1)));
    start = header.index + header[0].length;
  }
  rounds.push(text.slice(start));
  return rounds.filter((round) => round.length > 0);
}

/**
 * Compares multi-turn questions round by round, aligned from the latest round: the score is the weighted
 * mean of the rounds' cosine similarities (clamped to [0, 1]) over the rounds both texts have. Unlike
 * GPTCache's version, which returned a distance on a [0, 4] range read as "higher is better", the score
 * here rises with similarity, so the threshold means what it says.
 */
export class SequenceMatchEvaluation extends BaseSimilarityEvaluation {
  readonly weights: readonly number[];
  readonly embedding: EmbeddingFunction;
  readonly #embeddings: EmbeddingCache;

  constructor(options: SequenceMatchOptions) {
    super(options ?? {});
    const weights = options?.weights;
    if (!Array.isArray(weights) || weights.length === 0 || !weights.every(isPositiveNumber)) {
      throw new ValidationError("SequenceMatchEvaluation: `weights` must be a non-empty list of positive numbers.");
    }
    const cacheSize = integerAtLeast("SequenceMatchEvaluation: `cacheSize`", options.cacheSize, 0, 1000);
    this.weights = [...weights];
    this.embedding = toEmbeddingFunction(options.embedding);
    this.#embeddings = new EmbeddingCache(this.embedding, cacheSize);
  }

  range(): readonly [number, number] {
    return [0, 1];
  }

  async evaluation(src: EvaluationSource, cached: EvaluationCandidate): Promise<number> {
    if (src.question === cached.question) return 1;
    const latestFirst = (text: string) => splitRounds(text).reverse();
    const mine = latestFirst(src.question);
    const theirs = latestFirst(cached.question);
    const rounds = Math.min(mine.length, theirs.length, this.weights.length);
    if (rounds === 0) return 0;
    const embeddings = await this.#embeddings.embedAll([...mine.slice(0, rounds), ...theirs.slice(0, rounds)]);
    let weighted = 0;
    let weightSum = 0;
    for (let i = 0; i < rounds; i++) {
      weighted += this.weights[i] * (embeddingSimilarity(embeddings.get(mine[i]), embeddings.get(theirs[i])) ?? 0);
      weightSum += this.weights[i];
    }
    return weighted / weightSum;
  }
}
