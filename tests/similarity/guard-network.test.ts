import { DimensionMismatchError, ValidationError } from "../../src/index.js";
import { seededRandom } from "../../src/core/random.js";
import { l2Normalize } from "../../src/core/vector-math.js";
import { fitGuard, type GuardExample } from "../../src/similarity/guard-fit.js";
import { checkGuardModel, guardProbability, type GuardModel } from "../../src/similarity/guard-model.js";
import { encodeWeights, loadGuardNetwork, networkLogit, pairInputs, type GuardNetwork } from "../../src/similarity/guard-network.js";
import { fitGuardNetwork } from "../../src/similarity/guard-network-fit.js";
import { DEFAULT_GUARD_MODEL, PrecisionGuardEvaluation } from "../../src/similarity/precision-guard.js";

const DIMENSION = 8;

/**
 * Pairs whose cosine says nothing about the label: "same" pairs agree on coordinate 0 and differ elsewhere,
 * "different" pairs disagree on coordinate 0 and agree elsewhere, with the same spread of cosines.
 */
function syntheticPairs(count: number, seed: number): Array<{ query: Float32Array; stored: Float32Array; label: 0 | 1 }> {
  const random = seededRandom(seed);
  return Array.from({ length: count }, (_, i) => {
    const label = (i % 2) as 0 | 1;
    const query = Float32Array.from({ length: DIMENSION }, () => random() * 2 - 1);
    const stored = Float32Array.from(query, (value, d) => (d === 0 ? (label ? value : -value) : value + (random() - 0.5) * (label ? 1.2 : 0.2)));
    return { query: l2Normalize(query), stored: l2Normalize(stored), label };
  });
}

/** Probability that a random "same" pair outscores a random "different" one. */
function auc(scores: number[], labels: number[]): number {
  const positives = scores.filter((_, i) => labels[i] === 1);
  const negatives = scores.filter((_, i) => labels[i] === 0);
  let wins = 0;
  for (const p of positives) for (const n of negatives) wins += p > n ? 1 : p === n ? 0.5 : 0;
  return wins / (positives.length * negatives.length);
}

const noFeatures = (pair: { query: Float32Array; stored: Float32Array }) => pairInputs([], pair.query, pair.stored);

describe("the precision guard's pair network", () => {
  const train = syntheticPairs(2000, 1);
  const test = syntheticPairs(400, 2);
  const network = fitGuardNetwork(train.map(noFeatures), train.map((p) => p.label), { dimension: DIMENSION, hidden: 8, epochs: 20, learningRate: 0.01, seed: 3 });

  it("learns what the cosine cannot see", () => {
    const loaded = loadGuardNetwork(network, 0);
    const labels = test.map((p) => p.label);
    const cosines = test.map((p) => p.query.reduce((sum, value, d) => sum + value * p.stored[d], 0));
    expect(auc(cosines, labels)).toBeLessThan(0.7);
    expect(auc(test.map((p) => networkLogit(loaded, noFeatures(p))), labels)).toBeGreaterThan(0.9);
  });

  it("is repeatable for a seed", () => {
    const again = fitGuardNetwork(train.map(noFeatures), train.map((p) => p.label), { dimension: DIMENSION, hidden: 8, epochs: 20, learningRate: 0.01, seed: 3 });
    expect(again.inputWeights).toBe(network.inputWeights);
    const other = fitGuardNetwork(train.map(noFeatures), train.map((p) => p.label), { dimension: DIMENSION, hidden: 8, epochs: 1, seed: 4 });
    expect(other.inputWeights).not.toBe(network.inputWeights);
  });

  it("scores through PrecisionGuardEvaluation when both embeddings are there, and with the logistic head otherwise", () => {
    const model: GuardModel = { version: 2, embedding: "synthetic-8", features: ["cosine"], mean: [0], scale: [1], weights: [4], bias: -2, vetoes: [], network: { ...network, ...withFeatureColumn(network) } };
    const guard = new PrecisionGuardEvaluation({ model: checkGuardModel(model) });
    const [same, different] = [test[1], test[0]];
    const score = (pair: typeof same) => guard.evaluation({ question: "q one", embedding: pair.query }, { question: "q two", answer: "", embedding: pair.stored });
    expect(score(same)).toBeGreaterThan(0.5);
    expect(score(different)).toBeLessThan(0.5);
    const questionsOnly = guard.evaluation({ question: "q one" }, { question: "q two", answer: "", distance: 0.2 });
    expect(questionsOnly).toBeCloseTo(guardProbability(model, [0.8]));
  });

  it("refuses malformed networks and embeddings of another dimension", () => {
    const base: GuardModel = { version: 2, embedding: "x", features: ["cosine"], mean: [0], scale: [1], weights: [1], bias: 0, vetoes: [] };
    const good = withFeatureColumn(network);
    expect(() => checkGuardModel({ ...base, network: good })).not.toThrow();
    for (const bad of [
      { ...good, inputWeights: encodeWeights(new Float32Array(3)) },
      { ...good, hidden: 0 },
      { ...good, outputWeights: [1] },
      { ...good, outputBias: Number.NaN },
    ]) {
      expect(() => checkGuardModel({ ...base, network: bad as GuardNetwork })).toThrow(ValidationError);
    }
    const guard = new PrecisionGuardEvaluation({ model: { ...base, network: good } });
    const wide = l2Normalize(new Float32Array(DIMENSION * 2).fill(1));
    expect(() => guard.evaluation({ question: "a", embedding: wide }, { question: "b", answer: "", embedding: wide })).toThrow(DimensionMismatchError);
  });

  it("is fitted by fitGuard when asked, and needs both embeddings on every example", () => {
    const examples: GuardExample[] = train.slice(0, 400).map((p, i) => ({
      query: `question ${i}`,
      stored: `stored ${i}`,
      cosine: p.query.reduce((sum, value, d) => sum + value * p.stored[d], 0),
      label: p.label,
      queryEmbedding: p.query,
      storedEmbedding: p.stored,
    }));
    const holdout = examples.slice(0, 100).map((example) => [example]);
    const options = { fit: examples, holdout, answerable: 50, targetPrecision: 0.8, embedding: "synthetic-8", network: { hidden: 4, epochs: 2 } };
    const { model } = fitGuard(options);
    expect(model.version).toBe(2);
    expect(model.network).toMatchObject({ dimension: DIMENSION, hidden: 4 });
    expect(() => fitGuard({ ...options, fit: examples.map(({ storedEmbedding: _dropped, ...rest }) => rest) })).toThrow(ValidationError);
  });

  it("ships in the package's default model", () => {
    expect(DEFAULT_GUARD_MODEL.network).toMatchObject({ dimension: 512 });
  });
});

/** The same network with one (zero-weighted) feature column in front, as a model with features needs. */
function withFeatureColumn(network: GuardNetwork): GuardNetwork {
  const loaded = loadGuardNetwork(network, 0);
  const inputs = 2 * network.dimension;
  const widened = new Float32Array(network.hidden * (inputs + 1));
  for (let h = 0; h < network.hidden; h++) widened.set(loaded.weights.subarray(h * inputs, (h + 1) * inputs), h * (inputs + 1) + 1);
  return { ...network, inputWeights: encodeWeights(widened) };
}
