/** Precision and hit rate along the similarity threshold: shared with the guard fitting (scripts/fit-guard.ts, `semcache tune`). */
export { curve, pointAt, thresholdFor, thresholdGrid, type CurvePoint, type Outcome } from "../../src/similarity/guard-fit.js";
