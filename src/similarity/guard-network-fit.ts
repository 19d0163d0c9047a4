import { seededRandom } from "../core/random.js";
import { DIFF_SCALE, encodeWeights, networkLogit, PRODUCT_SCALE, type GuardNetwork, type LoadedGuardNetwork } from "./guard-network.js";

export interface NetworkFitOptions {
  dimension: number;
  /** Hidden units. Default 32. */
  hidden?: number;
  /** Passes over the examples. Default 8. */
  epochs?: number;
  /** L2 weight decay. Default 1e-4. */
  l2?: number;
  learningRate?: number;
  batchSize?: number;
  /** Seeds the initial weights and the shuffles, so a fit can be repeated. Default 1. */
  seed?: number;
}

/** Adam's running moments for one parameter array. */
class AdamState {
  private readonly m: Float32Array;
  private readonly v: Float32Array;

  constructor(size: number) {
    this.m = new Float32Array(size);
    this.v = new Float32Array(size);
  }

  /** Applies the summed gradient `grad` (then zeroes it); `decay` adds L2 regularisation. */
  step(params: Float32Array, grad: Float32Array, scale: number, rate: number, decay: number, t: number): void {
    const [b1, b2] = [0.9, 0.999];
    const c1 = 1 - b1 ** t;
    const c2 = 1 - b2 ** t;
    for (let i = 0; i < params.length; i++) {
      const g = grad[i] * scale + decay * params[i];
      this.m[i] = b1 * this.m[i] + (1 - b1) * g;
      this.v[i] = b2 * this.v[i] + (1 - b2) * g * g;
      params[i] -= (rate * (this.m[i] / c1)) / (Math.sqrt(this.v[i] / c2) + 1e-8);
      grad[i] = 0;
    }
  }
}

/**
 * Fits a pair network by mini-batch Adam on cross-entropy. `inputs` are pairInputs() rows (features already
 * standardised), `labels` 1 for "same question". Deterministic for a given seed.
 */
export function fitGuardNetwork(inputs: readonly Float32Array[], labels: readonly number[], options: NetworkFitOptions): GuardNetwork {
  const { dimension, hidden = 32, epochs = 8, l2 = 1e-4, learningRate = 1e-3, batchSize = 128, seed = 1 } = options;
  const random = seededRandom(seed);
  const width = inputs[0].length;
  const limit = Math.sqrt(1 / width);
  const live: LoadedGuardNetwork = {
    dimension,
    productScale: PRODUCT_SCALE,
    diffScale: DIFF_SCALE,
    weights: Float32Array.from({ length: hidden * width }, () => (random() * 2 - 1) * limit),
    hiddenBias: new Float32Array(hidden),
    outputWeights: Float32Array.from({ length: hidden }, () => (random() * 2 - 1) * Math.sqrt(1 / hidden)),
    outputBias: new Float32Array(1),
  };
  const params = [live.weights, live.hiddenBias, live.outputWeights, live.outputBias];
  const grads = params.map((p) => new Float32Array(p.length));
  const states = params.map((p) => new AdamState(p.length));
  const activations = new Float32Array(hidden);
  const order = inputs.map((_, i) => i);
  let t = 0;
  for (let epoch = 0; epoch < epochs; epoch++) {
    shuffle(order, random);
    for (let start = 0; start < order.length; start += batchSize) {
      const end = Math.min(order.length, start + batchSize);
      for (let k = start; k < end; k++) {
        const x = inputs[order[k]];
        const error = 1 / (1 + Math.exp(-networkLogit(live, x, activations))) - labels[order[k]];
        accumulate(grads, x, error, activations, live.outputWeights);
      }
      t++;
      params.forEach((p, i) => states[i].step(p, grads[i], 1 / (end - start), learningRate, i === 0 || i === 2 ? l2 : 0, t));
    }
  }
  return {
    dimension,
    hidden,
    productScale: PRODUCT_SCALE,
    diffScale: DIFF_SCALE,
    inputWeights: encodeWeights(live.weights),
    hiddenBias: [...live.hiddenBias],
    outputWeights: [...live.outputWeights],
    outputBias: live.outputBias[0],
  };
}

/** Adds one example's cross-entropy gradient (`error` = p - label) to the grads of [W1, b1, w2, b2]. */
function accumulate(grads: Float32Array[], x: Float32Array, error: number, activations: Float32Array, outputWeights: Float32Array): void {
  const [gradWeights, gradHiddenBias, gradOutputWeights, gradOutputBias] = grads;
  gradOutputBias[0] += error;
  for (let h = 0; h < activations.length; h++) {
    gradOutputWeights[h] += error * activations[h];
    if (activations[h] <= 0) continue;
    const g = error * outputWeights[h];
    const row = h * x.length;
    for (let j = 0; j < x.length; j++) gradWeights[row + j] += g * x[j];
    gradHiddenBias[h] += g;
  }
}

function shuffle(order: number[], random: () => number): void {
  for (let i = order.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [order[i], order[j]] = [order[j], order[i]];
  }
}
