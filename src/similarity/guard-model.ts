import { createHash } from "node:crypto";
import { ValidationError } from "../core/errors.js";
import { GUARD_FEATURES, type GuardFeatureName } from "./guard-features.js";
import { loadGuardNetwork, type GuardNetwork } from "./guard-network.js";
import { GUARD_LISTS } from "./guard-text.js";
import { lexiconDigest } from "./lexicon.js";

/**
 * A fitted logistic regression over guard features (scripts/fit-guard.ts writes one to guard-model.json).
 * Features are standardised with the fitting data's mean and deviation before weighing, so the weights
 * compare with each other.
 */
export interface GuardModel {
  version: number;
  /** The embedding whose cosines it was fitted on (cosine scales differ between models). */
  embedding: string;
  features: GuardFeatureName[];
  mean: number[];
  scale: number[];
  weights: number[];
  bias: number;
  /** Features (of `features`) that, when 1, force the score to 0 (kept only when they helped on the tune split). */
  vetoes: GuardFeatureName[];
  /**
   * Version 2: a pair network over the standardised features and the two embeddings (guard-network.ts);
   * when present it scores every pair that carries both embeddings, and the logistic weights above score
   * the rest (a comparison made outside the cache, from the questions alone).
   */
  network?: GuardNetwork;
  /**
   * How it was fitted (data, sizes), the thresholds chosen on the tune split, and the digest of the word lists its
   * features read (guardListsDigest()).
   */
  fitted?: { recommendedThreshold?: { distance: number; guard: number }; listsDigest?: string; [detail: string]: unknown };
}

/**
 * A digest of the hand-written word lists the guard's features read (GUARD_LISTS) and of the lexicon (which tells
 * "French" mentions "France"): what a model is fitted on.
 */
export function guardListsDigest(): string {
  return createHash("sha256").update(JSON.stringify(GUARD_LISTS)).update(lexiconDigest()).digest("hex");
}

/** Throws a ValidationError unless `model` is a usable GuardModel. */
export function checkGuardModel(model: GuardModel): GuardModel {
  const n = model.features?.length;
  const known = (names: unknown) => Array.isArray(names) && names.every((name) => typeof name === "string" && name in GUARD_FEATURES);
  const numbers = (values: unknown) => Array.isArray(values) && values.length === n && values.every(Number.isFinite);
  if (!n || !known(model.features) || !known(model.vetoes) || !model.vetoes.every((name) => model.features.includes(name)) || !numbers(model.mean) || !numbers(model.scale) || !numbers(model.weights) || !Number.isFinite(model.bias)) {
    throw new ValidationError("A guard model needs known features with as many finite means, scales and weights, and a finite bias.");
  }
  if (model.network !== undefined) loadGuardNetwork(model.network, n);
  return model;
}

/** Feature values (in `model.features` order) standardised with the fitting data's mean and deviation. */
export function standardise(model: GuardModel, values: readonly number[]): number[] {
  return values.map((value, i) => (value - model.mean[i]) / (model.scale[i] || 1));
}

export function sigmoid(z: number): number {
  return 1 / (1 + Math.exp(-z));
}

/** The logistic head's probability for features already standardised. */
export function logisticProbability(model: GuardModel, standardised: readonly number[]): number {
  return sigmoid(standardised.reduce((z, value, i) => z + model.weights[i] * value, model.bias));
}

/** The logistic head's probability that the pair asks the same thing, for feature values in `model.features` order. */
export function guardProbability(model: GuardModel, values: readonly number[]): number {
  return logisticProbability(model, standardise(model, values));
}
