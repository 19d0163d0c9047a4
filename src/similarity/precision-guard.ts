import { BaseSimilarityEvaluation, type EvaluationPair } from "./base.js";
import { DistanceEvaluation } from "./distance.js";
import { guardFeatures } from "./guard-features.js";
import { sameQuestionText } from "./text-equality.js";
import { DimensionMismatchError, ValidationError } from "../core/errors.js";
import { checkGuardModel, guardProbability, logisticProbability, sigmoid, standardise, type GuardModel } from "./guard-model.js";
import { loadGuardNetwork, networkLogit, pairInputs, type LoadedGuardNetwork } from "./guard-network.js";
import fittedModel from "./guard-model.json" with { type: "json" };
import { lexicalVeto } from "./lexical-vetoes.js";
import { PairEmbedder, type PairEmbeddingOptions } from "./pair-embeddings.js";
import { similarityToQuery } from "../core/similarity-score.js";
import type { EvaluationCandidate, EvaluationSource } from "../core/contracts/evaluation.js";

export type { GuardModel } from "./guard-model.js";

/** The model shipped with the package: fitted on the QQP tune split with the offline USE model's cosines. */
export const DEFAULT_GUARD_MODEL = checkGuardModel(fittedModel as GuardModel);

/**
 * The similarityThreshold to use with the shipped model: picked on the QQP tune split for its target
 * precision (see docs/benchmarks.md, Quality). 0.5 if the model records none.
 */
export const DEFAULT_GUARD_THRESHOLD = DEFAULT_GUARD_MODEL.fitted?.recommendedThreshold?.guard ?? 0.5;

export interface PrecisionGuardOptions extends PairEmbeddingOptions {
  /** A fitted model (scripts/fit-guard.ts); default the shipped one, fitted for the offline USE embedding. */
  model?: GuardModel;
  /**
   * Weight of the bare cosine similarity in the score, from 0 (the model's probability alone, the default)
   * to 1. The model reads question style (it was fitted on Quora questions); the cosine carries over to other
   * text. Vetoed pairs score 0 whatever the weight.
   */
  cosineWeight?: number;
  /**
   * Applies the lexical vetoes (default true): the two questions' words are aligned (same base form, WordNet
   * synonyms and linked words), and a pair scores 0 when a word is replaced by an unrelated one in the same
   * place ("dogs" / "cats", "sort" / "reverse"), by its antonym, when words cross a direction word ("miles to
   * km" / "km to miles"), a short word flips ("zoom in" / "zoom out"), one side asks for less, or the numbers
   * differ (digits and words alike). See docs/semantic.md.
   */
  lexicalVetoes?: boolean;
}

/**
 * Scores a candidate by the probability that it asks the same question, from the cosine and from what a
 * sentence embedding blurs: word overlap, numbers, names, negation, opposite actions ("install" vs
 * "uninstall"), question words and length. A logistic regression weighs them (range [0, 1], so the cache's
 * similarityThreshold reads as a probability); pairs the model's vetoes catch score 0, and questions equal
 * up to case and spacing score 1.
 *
 * The shipped model also weighs the two embeddings themselves (a small pair network over their product and
 * difference; see guard-network.ts) whenever the comparison carries both, as every cache lookup does: the
 * score is then the mean of the network's and the logistic head's probabilities.
 *
 * The cosine comes from the search distance, or the two embeddings, like DistanceEvaluation; its scale
 * depends on the embedding, so use a model fitted on the embedding the cache uses (a pair network fitted on
 * another dimension raises DimensionMismatchError).
 *
 * As a Runnable (`invoke({ question, cachedQuestion })`), a pair without the vectors the model reads is
 * embedded with `embeddings` (the cache's embedding model, so it scores as a lookup would), or refused with a
 * ValidationError when none was given.
 */
export class PrecisionGuardEvaluation extends BaseSimilarityEvaluation {
  static override lc_name(): string {
    return "PrecisionGuardEvaluation";
  }

  readonly model: GuardModel;
  readonly cosineWeight: number;
  readonly lexicalVetoes: boolean;
  private readonly cosine = new DistanceEvaluation();
  private readonly network?: LoadedGuardNetwork;
  readonly #embedder: PairEmbedder;

  constructor(options: PrecisionGuardOptions = {}) {
    super(options);
    this.model = options.model ? checkGuardModel(options.model) : DEFAULT_GUARD_MODEL;
    const { cosineWeight = 0 } = options;
    if (typeof cosineWeight !== "number" || !(cosineWeight >= 0 && cosineWeight <= 1)) {
      throw new ValidationError("PrecisionGuardEvaluation: `cosineWeight` must be a number from 0 to 1.");
    }
    this.cosineWeight = cosineWeight;
    const { lexicalVetoes = true } = options;
    if (typeof lexicalVetoes !== "boolean") throw new ValidationError("PrecisionGuardEvaluation: `lexicalVetoes` must be a boolean.");
    this.lexicalVetoes = lexicalVetoes;
    this.network = this.model.network && loadGuardNetwork(this.model.network, this.model.features.length);
    this.#embedder = new PairEmbedder("PrecisionGuardEvaluation", options.embeddings);
  }

  range(): readonly [number, number] {
    return [0, 1];
  }

  evaluation(src: EvaluationSource, cached: EvaluationCandidate): number {
    if (sameQuestionText(src.question, cached.question)) return 1;
    const bound = this.#bounds.get(cached);
    const score = bound?.src === src ? bound.score : this.#unvetoed(src, cached);
    return score > 0 && this.lexicalVetoes && lexicalVeto(src.question, cached.question) ? 0 : score;
  }

  /** Bounds by candidate: the full judgement the cache asks for next, on the same pair, does not read the features again. */
  readonly #bounds = new WeakMap<EvaluationCandidate, { src: EvaluationSource; score: number }>();

  /**
   * The score before the lexical vetoes, which only ever lower it to 0: the cache reads the vetoes (the costly part
   * of the judge, ~0.3 ms a pair of questions new to it) only for a candidate whose bound reaches its threshold. A
   * subclass whose `evaluation` can score higher must override this too.
   */
  scoreBound(src: EvaluationSource, cached: EvaluationCandidate): number {
    if (sameQuestionText(src.question, cached.question)) return 1;
    const score = this.#unvetoed(src, cached);
    this.#bounds.set(cached, { src, score });
    return score;
  }

  /** The model's vetoes, then the blend of its probability and the cosine. */
  #unvetoed(src: EvaluationSource, cached: EvaluationCandidate): number {
    const cosine = this.cosine.evaluation(src, cached);
    const values = guardFeatures(this.model.features, cosine, src.question, cached.question);
    if (this.model.vetoes.some((name) => values[this.model.features.indexOf(name)] === 1)) return 0;
    return (1 - this.cosineWeight) * this.#probability(src, cached, values) + this.cosineWeight * cosine;
  }

  /**
   * Needs the cosine (a distance or both embeddings) and, when the model has a pair network, both vectors;
   * the same text on both sides scores 1 from the text alone.
   */
  protected override completePair(pair: EvaluationPair): EvaluationPair | Promise<EvaluationPair> {
    const { src, cached } = pair;
    if (sameQuestionText(src.question, cached.question)) return pair;
    const query = this.network ? src.embedding instanceof Float32Array : src.embedding !== undefined;
    const stored = this.network ? cached.embedding instanceof Float32Array : (cached.embedding ?? cached.record?.embedding) !== undefined;
    if (this.network ? query && stored : similarityToQuery(src, cached) !== undefined) return pair;
    return this.#embedder.complete(pair, { query: !query, stored: !stored });
  }

  /** The model's probability that the two ask the same question. */
  #probability(src: EvaluationSource, cached: EvaluationCandidate, values: number[]): number {
    const query = src.embedding;
    const stored = cached.embedding;
    if (!this.network || !(query instanceof Float32Array) || !(stored instanceof Float32Array)) return guardProbability(this.model, values);
    for (const vector of [query, stored]) {
      if (vector.length !== this.network.dimension) throw new DimensionMismatchError(this.network.dimension, vector.length, "precision guard's pair network");
    }
    const { productScale, diffScale } = this.network;
    const standardised = standardise(this.model, values);
    const network = sigmoid(networkLogit(this.network, pairInputs(standardised, query, stored, productScale, diffScale)));
    // The network is the sharper judge on the kind of text it was fitted on (questions); the feature-only
    // head carries over better to other styles (on the paraphrase benchmark the network alone lost most
    // of its recall). Their mean keeps most of both: docs/benchmarks.md, Quality.
    return (network + logisticProbability(this.model, standardised)) / 2;
  }
}
