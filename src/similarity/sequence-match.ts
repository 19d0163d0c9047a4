import { ValidationError } from "../core/errors.js";
import { toEmbeddingFunction, type EmbeddingSource } from "../embeddings/resolve.js";
import type { EmbeddingFunction, EmbeddingOutput } from "../embeddings/types.js";
import { embeddingSimilarity } from "./score.js";
import type { EvaluationCandidate, EvaluationSource, SimilarityEvaluation } from "./types.js";

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

/** A small least-recently-used map (a Map iterates in insertion order, so its first key is the oldest). */
class Lru<V> {
  readonly #entries = new Map<string, V>();
  constructor(private readonly capacity: number) {}

  get(key: string): V | undefined {
    const value = this.#entries.get(key);
    if (value !== undefined) {
      this.#entries.delete(key);
      this.#entries.set(key, value);
    }
    return value;
  }

  set(key: string, value: V): void {
    this.#entries.delete(key);
    this.#entries.set(key, value);
    if (this.#entries.size > this.capacity) this.#entries.delete(this.#entries.keys().next().value as string);
  }
}

/**
 * Compares multi-turn questions round by round, aligned from the latest round: the score is the weighted
 * mean of the rounds' cosine similarities (clamped to [0, 1]) over the rounds both texts have. Unlike
 * GPTCache's version, which returned a distance on a [0, 4] range read as "higher is better", the score
 * here rises with similarity, so the threshold means what it says.
 */
export class SequenceMatchEvaluation implements SimilarityEvaluation {
  readonly weights: readonly number[];
  readonly embedding: EmbeddingFunction;
  readonly #cache: Lru<EmbeddingOutput>;

  constructor(options: SequenceMatchOptions) {
    const weights = options?.weights;
    if (!Array.isArray(weights) || weights.length === 0 || !weights.every((w) => typeof w === "number" && w > 0 && Number.isFinite(w))) {
      throw new ValidationError("SequenceMatchEvaluation: `weights` must be a non-empty list of positive numbers.");
    }
    const cacheSize = options.cacheSize ?? 1000;
    if (!Number.isInteger(cacheSize) || cacheSize < 0) {
      throw new ValidationError("SequenceMatchEvaluation: `cacheSize` must be a non-negative integer.");
    }
    this.weights = [...weights];
    this.embedding = toEmbeddingFunction(options.embedding);
    this.#cache = new Lru(cacheSize);
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
    const embeddings = await this.#embedAll([...mine.slice(0, rounds), ...theirs.slice(0, rounds)]);
    let weighted = 0;
    let weightSum = 0;
    for (let i = 0; i < rounds; i++) {
      weighted += this.weights[i] * (embeddingSimilarity(embeddings.get(mine[i]), embeddings.get(theirs[i])) ?? 0);
      weightSum += this.weights[i];
    }
    return weighted / weightSum;
  }

  /** Embeddings of `texts`, from the LRU where known; the rest in one batch when the embedding can batch. */
  async #embedAll(texts: readonly string[]): Promise<Map<string, EmbeddingOutput>> {
    const found = new Map<string, EmbeddingOutput>();
    const missing: string[] = [];
    for (const text of new Set(texts)) {
      const hit = this.#cache.get(text);
      if (hit === undefined) missing.push(text);
      else found.set(text, hit);
    }
    if (missing.length > 0) {
      const embedding = this.embedding;
      const outputs = embedding.embedBatch
        ? await embedding.embedBatch(missing)
        : await Promise.all(missing.map((text) => embedding.embed(text)));
      missing.forEach((text, i) => {
        found.set(text, outputs[i]);
        this.#cache.set(text, outputs[i]);
      });
    }
    return found;
  }
}
