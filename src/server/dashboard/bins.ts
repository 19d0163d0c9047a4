/**
 * The dashboard's histogram bins. Latency: 44 bins whose upper bounds grow by sqrt(2) from 0.025 ms (the last
 * one open-ended, past ~74 s), so a percentile read from them is within about 20% of the truth while an exact
 * hit's 0.08 ms and a model call's 3 s land in bins of their own. Scores: 20 bins of 0.05 over [0, 1].
 */

export const LATENCY_BINS = 44;
const LATENCY_FIRST_MS = 0.025;
const LOG_SQRT2 = Math.log(Math.SQRT2);

/** Upper bound (milliseconds) of latency bin `bin` (Infinity for the last). */
export function latencyUpperMs(bin: number): number {
  return bin >= LATENCY_BINS - 1 ? Number.POSITIVE_INFINITY : LATENCY_FIRST_MS * Math.SQRT2 ** bin;
}

/** The bin of a latency: the first whose upper bound is at least `ms`. */
export function latencyBin(ms: number): number {
  if (!(ms > LATENCY_FIRST_MS)) return 0;
  const bin = Math.ceil(Math.log(ms / LATENCY_FIRST_MS) / LOG_SQRT2 - 1e-9);
  return bin < LATENCY_BINS - 1 ? bin : LATENCY_BINS - 1;
}

/**
 * The `q` quantile (0 to 1) of a latency histogram, interpolated geometrically inside its bin; undefined with no
 * observation.
 */
export function latencyQuantileMs(counts: ArrayLike<number>, q: number): number | undefined {
  let total = 0;
  for (let i = 0; i < LATENCY_BINS; i++) total += counts[i];
  if (total === 0) return undefined;
  const rank = Math.max(1, Math.ceil(q * total));
  let seen = 0;
  for (let bin = 0; bin < LATENCY_BINS; bin++) {
    const inBin = counts[bin];
    if (seen + inBin < rank) {
      seen += inBin;
      continue;
    }
    const lower = bin === 0 ? LATENCY_FIRST_MS / Math.SQRT2 : latencyUpperMs(bin - 1);
    // The open last bin has no upper bound: its lower bound is all that is known.
    if (bin === LATENCY_BINS - 1) return lower;
    const upper = latencyUpperMs(bin);
    return lower * (upper / lower) ** ((rank - seen) / inBin);
  }
  return undefined;
}

export const SCORE_BINS = 20;
export const SCORE_BIN_WIDTH = 1 / SCORE_BINS;

/** The bin of a normalised score in [0, 1] (1 falls in the last bin). */
export function scoreBin(score: number): number {
  if (!(score > 0)) return 0;
  const bin = Math.floor(score * SCORE_BINS + 1e-9);
  return bin < SCORE_BINS ? bin : SCORE_BINS - 1;
}
