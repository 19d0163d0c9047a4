/** Precision and hit rate of a cache along the similarity threshold, from one pass at threshold 0. */

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
