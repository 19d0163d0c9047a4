/**
 * The statistics under the error budget (error-budget.ts): the MAP fit of a sigmoid with its Laplace covariance,
 * the standard normal CDF and quantile, and the Wilson interval of a rate. Pure functions.
 */

/** One outcome: the similarity a lookup saw (on the budget's scale) and whether the entry's answer was right for it. */
export interface Observation {
  score: number;
  right: boolean;
}

/** A fitted sigmoid: its midpoint `t`, steepness `gamma` and their 2x2 covariance [tt, tg, gg]. */
export interface SigmoidFit {
  t: number;
  gamma: number;
  covariance: readonly [number, number, number];
}

/** A proportion with its confidence interval (Wilson score interval). */
export interface RateEstimate {
  rate: number;
  lower: number;
  upper: number;
  samples: number;
  wrong: number;
  confidence: number;
}

const NEWTON_STEPS = 12;
const MIN_GAMMA = 1;

const sigmoid = (z: number) => 1 / (1 + Math.exp(-z));

/** Standard normal CDF (Abramowitz-Stegun 7.1.26 through erf; absolute error below 1.5e-7). */
export function normalCdf(x: number): number {
  const z = Math.abs(x) / Math.SQRT2;
  const k = 1 / (1 + 0.3275911 * z);
  const poly = k * (0.254829592 + k * (-0.284496736 + k * (1.421413741 + k * (-1.453152027 + k * 1.061405429))));
  const erf = 1 - poly * Math.exp(-z * z);
  return x >= 0 ? (1 + erf) / 2 : (1 - erf) / 2;
}

/** The standard normal quantile of `p` (bisection on normalCdf: called once per option, not per lookup). */
export function normalQuantile(p: number): number {
  let lo = -10;
  let hi = 10;
  for (let i = 0; i < 80; i++) {
    const mid = (lo + hi) / 2;
    if (normalCdf(mid) < p) lo = mid;
    else hi = mid;
  }
  return (lo + hi) / 2;
}

/** Wilson score interval of `wrong` out of `samples` at the two-sided `confidence`. */
export function wilsonInterval(wrong: number, samples: number, confidence: number): RateEstimate {
  if (samples === 0) return { rate: 0, lower: 0, upper: 1, samples, wrong, confidence };
  const z = normalQuantile(1 - (1 - confidence) / 2);
  const p = wrong / samples;
  const z2 = z * z;
  const centre = (p + z2 / (2 * samples)) / (1 + z2 / samples);
  const half = (z * Math.sqrt((p * (1 - p)) / samples + z2 / (4 * samples * samples))) / (1 + z2 / samples);
  return { rate: p, lower: Math.max(0, centre - half), upper: Math.min(1, centre + half), samples, wrong, confidence };
}

/** Inverse of a symmetric 2x2 matrix [a, b, c] = [[a, b], [b, c]] (a tiny ridge keeps it invertible). */
export function invert([a, b, c]: readonly [number, number, number]): [number, number, number] {
  const det = a * c - b * b || 1e-12;
  return [c / det, -b / det, a / det];
}

/**
 * MAP fit of P(right | s) = sigmoid(gamma (s - t)) to `observations` under a Gaussian prior (mean `prior`,
 * precision `precision`), by Newton steps on the expected (Fisher) Hessian; the covariance is that Hessian's
 * inverse at the optimum (Laplace). With no observations the prior is returned as is. `start`: where the
 * steps begin (a previous fit, so a refit after a few more observations converges in a step or two).
 */
export function fitSigmoid(
  observations: readonly Observation[],
  prior: { t: number; gamma: number },
  precision: readonly [number, number, number],
  start: { t: number; gamma: number } = prior,
): SigmoidFit {
  let t = observations.length === 0 ? prior.t : start.t;
  let gamma = observations.length === 0 ? prior.gamma : start.gamma;
  let hessian: [number, number, number] = [precision[0], precision[1], precision[2]];
  if (observations.length === 0) return { t, gamma, covariance: invert(hessian) };
  for (let step = 0; step < NEWTON_STEPS; step++) {
    const dt = t - prior.t;
    const dg = gamma - prior.gamma;
    // Gradient and Fisher information of the negative log posterior in (t, gamma).
    let gt = precision[0] * dt + precision[1] * dg;
    let gg = precision[1] * dt + precision[2] * dg;
    let htt = precision[0];
    let htg = precision[1];
    let hgg = precision[2];
    for (const { score, right } of observations) {
      const p = sigmoid(gamma * (score - t));
      const residual = p - (right ? 1 : 0);
      const w = p * (1 - p);
      const zt = -gamma;
      const zg = score - t;
      gt += residual * zt;
      gg += residual * zg;
      htt += w * zt * zt;
      htg += w * zt * zg;
      hgg += w * zg * zg;
    }
    hessian = [htt, htg, hgg];
    const [itt, itg, igg] = invert(hessian);
    const stepT = itt * gt + itg * gg;
    const stepG = itg * gt + igg * gg;
    // Damped: a step never moves the midpoint by more than 0.25 nor the steepness by more than half.
    const scale = Math.min(1, 0.25 / (Math.abs(stepT) || 1e-12), (0.5 * gamma) / (Math.abs(stepG) || 1e-12));
    t -= scale * stepT;
    gamma = Math.max(MIN_GAMMA, gamma - scale * stepG);
    if (Math.abs(scale * stepT) < 1e-6 && Math.abs(scale * stepG) < 1e-4) break;
  }
  return { t, gamma, covariance: invert(hessian) };
}
