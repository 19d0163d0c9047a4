/**
 * Fitting a precision guard and choosing thresholds: shared by scripts/fit-guard.ts (the shipped model, on QQP)
 * and `semcache tune` (a model and thresholds for the user's own labelled pairs).
 */
import { ValidationError } from "../core/errors.js";
import { GUARD_FEATURES, guardFeatures, type GuardFeatureName } from "./guard-features.js";
import { standardise, type GuardModel } from "./guard-model.js";
import { pairInputs } from "./guard-network.js";
import { fitGuardNetwork, type NetworkFitOptions } from "./guard-network-fit.js";
import { PrecisionGuardEvaluation } from "./precision-guard.js";

/** What one query got at threshold 0: the best candidate's normalised score, and whether it is the right answer. */
export interface Outcome {
  score: number;
  right: boolean;
}

export interface CurvePoint {
  threshold: number;
  /** Right hits / hits (1 when nothing hits). */
  precision: number;
  /** Right hits / queries that have a right answer in the cache. */
  recall: number;
  /** Hits / queries. */
  hitRate: number;
  hits: number;
  rightHits: number;
  wrongHits: number;
}

/**
 * The cache returns its best-scored candidate when that score reaches the threshold (temperature 0), so one
 * pass that records the best candidate per query gives the result at every threshold.
 */
export function pointAt(outcomes: readonly (Outcome | null)[], answerable: number, threshold: number): CurvePoint {
  let hits = 0;
  let rightHits = 0;
  for (const outcome of outcomes) {
    if (!outcome || outcome.score < threshold) continue;
    hits++;
    if (outcome.right) rightHits++;
  }
  return {
    threshold,
    precision: hits === 0 ? 1 : rightHits / hits,
    recall: answerable === 0 ? 0 : rightHits / answerable,
    hitRate: outcomes.length === 0 ? 0 : hits / outcomes.length,
    hits,
    rightHits,
    wrongHits: hits - rightHits,
  };
}

/** Points at each of `thresholds`. */
export function curve(outcomes: readonly (Outcome | null)[], answerable: number, thresholds: readonly number[]): CurvePoint[] {
  return thresholds.map((threshold) => pointAt(outcomes, answerable, threshold));
}

/** Thresholds from 0 to 1 in `steps` equal steps. */
export function thresholdGrid(steps = 200): number[] {
  return Array.from({ length: steps + 1 }, (_, i) => Number((i / steps).toFixed(6)));
}

/**
 * The grid's threshold with the most right hits among those whose precision reaches `target`; when none
 * does, the one with the best precision among those keeping at least 1% recall (the closest it gets).
 */
export function thresholdFor(outcomes: readonly (Outcome | null)[], answerable: number, target: number, grid = thresholdGrid(1000)): CurvePoint {
  const points = curve(outcomes, answerable, grid).filter((point) => point.hits > 0 && point.recall >= 0.01);
  const reaching = points.filter((point) => point.precision >= target);
  if (reaching.length > 0) return reaching.reduce((best, point) => (point.rightHits > best.rightHits ? point : best));
  return points.reduce((best, point) => (point.precision > best.precision ? point : best), points[0] ?? pointAt(outcomes, answerable, 1));
}

/** A question the cache might be asked, a stored question it might return, their cosine, and whether they match. */
export interface GuardExample {
  query: string;
  stored: string;
  cosine: number;
  label: 0 | 1;
  /** The two embeddings (normalised), for a model with a pair network. */
  queryEmbedding?: Float32Array;
  storedEmbedding?: Float32Array;
}

/** Scores an example. */
export type ExampleScore = (example: GuardExample) => number;

/** The bare-distance score (DistanceEvaluation): the cosine, clamped at 0. */
export const cosineScore: ExampleScore = (example) => Math.max(0, example.cosine);

/** The score `model` gives an example, as PrecisionGuardEvaluation computes it in the cache. */
export function guardScore(model: GuardModel): ExampleScore {
  const guard = new PrecisionGuardEvaluation({ model });
  return (example) =>
    guard.evaluation(
      { question: example.query, embedding: example.queryEmbedding },
      { question: example.stored, answer: "", distance: 1 - example.cosine, embedding: example.storedEmbedding },
    );
}

/** The best-scored candidate per query under `score`, as the cache would pick it at temperature 0. */
export function bestOutcomes(groups: readonly (readonly GuardExample[])[], score: ExampleScore): Outcome[] {
  return groups.map((list) => {
    const scored = list.map((example) => ({ score: score(example), right: example.label === 1 }));
    return scored.reduce((best, outcome) => (outcome.score > best.score ? outcome : best));
  });
}

/** A logistic regression's parameters, with the standardisation it was fitted under. */
export interface LogisticFit {
  mean: number[];
  scale: number[];
  weights: number[];
  bias: number;
}

/** L2-regularised logistic regression on standardised features, by full-batch gradient descent. */
export function fitLogistic(rows: readonly (readonly number[])[], labels: readonly number[], l2 = 1e-3, steps = 3000, rate = 0.5): LogisticFit {
  const n = rows[0].length;
  const mean = Array.from({ length: n }, (_, j) => rows.reduce((s, r) => s + r[j], 0) / rows.length);
  const scale = mean.map((m, j) => Math.sqrt(rows.reduce((s, r) => s + (r[j] - m) ** 2, 0) / rows.length) || 1);
  const x = rows.map((r) => r.map((v, j) => (v - mean[j]) / scale[j]));
  const weights = new Array<number>(n).fill(0);
  let bias = 0;
  for (let step = 0; step < steps; step++) {
    const grad = new Array<number>(n).fill(0);
    let gradBias = 0;
    x.forEach((r, i) => {
      let z = bias;
      for (let j = 0; j < n; j++) z += weights[j] * r[j];
      const error = 1 / (1 + Math.exp(-z)) - labels[i];
      for (let j = 0; j < n; j++) grad[j] += error * r[j];
      gradBias += error;
    });
    for (let j = 0; j < n; j++) weights[j] -= rate * (grad[j] / x.length + l2 * weights[j]);
    bias -= (rate * gradBias) / x.length;
  }
  return { mean, scale, weights, bias };
}

/** Vetoes tried, in order, by fitGuard. */
export const VETO_CANDIDATES: readonly GuardFeatureName[] = ["numberConflict", "oppositeAction", "negationMismatch", "entityConflict"];

export interface FitGuardOptions {
  /** Examples the regression is fitted on. */
  fit: readonly GuardExample[];
  /** Candidate lists per query (one example each for plain pairs) on which vetoes and thresholds are chosen. */
  holdout: readonly (readonly GuardExample[])[];
  /** Holdout queries that have a right answer among their candidates. */
  answerable: number;
  targetPrecision: number;
  /** The embedding the cosines come from, recorded in the model. */
  embedding: string;
  /** Hears one line per veto tried. */
  log?: (line: string) => void;
  /** Also fit a pair network over the embeddings (every fit example must carry both). */
  network?: Omit<NetworkFitOptions, "dimension">;
}

export interface GuardFitResult {
  model: GuardModel;
  /** The holdout's best bare-distance threshold for the target precision. */
  distance: CurvePoint;
  /** The holdout's best threshold for the fitted model. */
  guard: CurvePoint;
}

// A veto stays unless it costs more than half a point of the holdout's recall at the target precision (a veto
// is also a guarantee users can read: "2 vs 3", "install vs uninstall" never share an answer).
const VETO_TOLERANCE = 0.005;

/**
 * Fits a guard model over every guard feature, keeps the vetoes that do not cost recall on the holdout
 * (greedily), and picks both thresholds on the holdout for the target precision.
 */
export function fitGuard(options: FitGuardOptions): GuardFitResult {
  const { fit, holdout, answerable, targetPrecision, embedding, log } = options;
  const features = Object.keys(GUARD_FEATURES) as GuardFeatureName[];
  const rows = fit.map((example) => guardFeatures(features, example.cosine, example.query, example.stored));
  const labels = fit.map((example) => example.label);
  const logistic: GuardModel = { version: 1, embedding, features, ...fitLogistic(rows, labels), vetoes: [] };
  const network = options.network && fitNetwork(logistic, fit, rows, labels, options.network);
  const modelWith = (vetoes: GuardFeatureName[]): GuardModel => ({ ...logistic, vetoes, ...(network && { version: 2, network }) });
  const pointFor = (score: ExampleScore) => thresholdFor(bestOutcomes(holdout, score), answerable, targetPrecision);

  let vetoes: GuardFeatureName[] = [];
  let bestRecall = pointFor(guardScore(modelWith(vetoes))).recall;
  for (const candidate of VETO_CANDIDATES) {
    const recall = pointFor(guardScore(modelWith([...vetoes, candidate]))).recall;
    log?.(`veto ${candidate}: recall@P${targetPrecision} ${recall.toFixed(4)} (without: ${bestRecall.toFixed(4)})`);
    if (recall >= bestRecall - VETO_TOLERANCE) {
      vetoes = [...vetoes, candidate];
      bestRecall = Math.max(bestRecall, recall);
    }
  }
  const model = modelWith(vetoes);
  return { model, distance: pointFor(cosineScore), guard: pointFor(guardScore(model)) };
}

/** Fits the pair network on the logistic model's standardised features and the examples' embeddings. */
function fitNetwork(logistic: GuardModel, fit: readonly GuardExample[], rows: readonly number[][], labels: readonly number[], options: Omit<NetworkFitOptions, "dimension">) {
  const inputs = fit.map((example, i) => {
    const { queryEmbedding, storedEmbedding } = example;
    if (!queryEmbedding || !storedEmbedding) throw new ValidationError("Fitting a pair network needs both embeddings on every example.");
    return pairInputs(standardise(logistic, rows[i]), queryEmbedding, storedEmbedding);
  });
  return fitGuardNetwork(inputs, labels, { ...options, dimension: fit[0].queryEmbedding!.length });
}

/** The model with its numbers rounded to 6 significant digits, for a readable JSON file. */
export function roundedModel(model: GuardModel): GuardModel {
  const round = (values: number[]) => values.map((v) => Number(v.toPrecision(6)));
  return { ...model, mean: round(model.mean), scale: round(model.scale), weights: round(model.weights), bias: Number(model.bias.toPrecision(6)) };
}
