import { ValidationError } from "../core/errors.js";

/**
 * The precision guard's pair network: one hidden ReLU layer over the guard features (standardised) and the
 * two embeddings' interaction, their element-wise product and absolute difference. A cosine sums the
 * product and throws away where the two vectors agree and disagree; the network learns which of those
 * dimensions separate "same question" from "same topic" (the classic siamese-pair features).
 *
 * Stored in the model file with its weights as base64 float32 (about 130 KB for 512-d and 32 units).
 */
export interface GuardNetwork {
  /** The embedding dimension it was fitted on. */
  dimension: number;
  hidden: number;
  /** Product and difference are multiplied by these before the first layer (a fixed standardisation). */
  productScale: number;
  diffScale: number;
  /** hidden × inputs, row-major, base64 of little-endian float32. */
  inputWeights: string;
  hiddenBias: number[];
  outputWeights: number[];
  outputBias: number;
}

/** A network ready to score (weights decoded once), or being trained (the trainer updates the arrays in place). */
export interface LoadedGuardNetwork {
  dimension: number;
  productScale: number;
  diffScale: number;
  /** hidden × inputs, row-major. */
  weights: Float32Array;
  hiddenBias: Float32Array;
  outputWeights: Float32Array;
  /** One value (an array so that training can update it in place). */
  outputBias: Float32Array;
}

/** Unit vectors' coordinates are ~1/sqrt(d): these bring product and difference to roughly unit scale. */
export const PRODUCT_SCALE = 20;
export const DIFF_SCALE = 10;

export function inputCount(features: number, dimension: number): number {
  return features + 2 * dimension;
}

export function encodeWeights(weights: Float32Array): string {
  return Buffer.from(weights.buffer, weights.byteOffset, weights.byteLength).toString("base64");
}

function decodeWeights(text: string): Float32Array {
  const bytes = Buffer.from(text, "base64");
  return new Float32Array(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength));
}

/** Checks a network's shapes against the model's feature count and decodes its weights. */
export function loadGuardNetwork(spec: GuardNetwork, features: number): LoadedGuardNetwork {
  const finite = (values: unknown, length: number) => Array.isArray(values) && values.length === length && values.every(Number.isFinite);
  const positive = (value: unknown) => Number.isInteger(value) && (value as number) > 0;
  if (!positive(spec.dimension) || !positive(spec.hidden) || typeof spec.inputWeights !== "string") {
    throw new ValidationError("A guard network needs a positive integer dimension and hidden size, and base64 input weights.");
  }
  const inputs = inputCount(features, spec.dimension);
  const weights = decodeWeights(spec.inputWeights);
  const shapesAgree = weights.length === spec.hidden * inputs && finite(spec.hiddenBias, spec.hidden) && finite(spec.outputWeights, spec.hidden);
  if (!shapesAgree || !Number.isFinite(spec.outputBias) || !Number.isFinite(spec.productScale) || !Number.isFinite(spec.diffScale)) {
    throw new ValidationError(`A guard network's weights must match ${spec.hidden} hidden units over ${inputs} inputs.`);
  }
  return {
    dimension: spec.dimension,
    productScale: spec.productScale,
    diffScale: spec.diffScale,
    weights,
    hiddenBias: Float32Array.from(spec.hiddenBias),
    outputWeights: Float32Array.from(spec.outputWeights),
    outputBias: Float32Array.of(spec.outputBias),
  };
}

/** The first layer's input: standardised features, then the scaled product and absolute difference. */
export function pairInputs(standardised: readonly number[], query: Float32Array, stored: Float32Array, productScale = PRODUCT_SCALE, diffScale = DIFF_SCALE): Float32Array {
  const dimension = query.length;
  const inputs = new Float32Array(standardised.length + 2 * dimension);
  inputs.set(standardised);
  const product = standardised.length;
  const diff = product + dimension;
  for (let i = 0; i < dimension; i++) {
    inputs[product + i] = query[i] * stored[i] * productScale;
    inputs[diff + i] = Math.abs(query[i] - stored[i]) * diffScale;
  }
  return inputs;
}

/** The network's logit for one input; fills `hiddenOut` with the hidden activations when given (training). */
export function networkLogit(network: LoadedGuardNetwork, inputs: Float32Array, hiddenOut?: Float32Array): number {
  const { weights, hiddenBias, outputWeights } = network;
  let logit = network.outputBias[0];
  for (let h = 0; h < hiddenBias.length; h++) {
    let activation = hiddenBias[h];
    const row = h * inputs.length;
    for (let j = 0; j < inputs.length; j++) activation += weights[row + j] * inputs[j];
    const relu = activation > 0 ? activation : 0;
    if (hiddenOut) hiddenOut[h] = relu;
    logit += outputWeights[h] * relu;
  }
  return logit;
}
