/**
 * The request flow's entry: what surfaces call (runCached, runCachedStream, putAnswer) and the contracts they
 * implement. The flow itself lives in flow/, one job a file, and reads top-down from flow/run.ts:
 *   surface.ts        the options, the surface contracts, the outcome and the hit a surface sees
 *   options.ts        the checks every request's options pass, and the temperature rule
 *   stages.ts         the request's stages (pre-embed, embed, search, fetch, evaluate), overrides resolved once
 *   request.ts        prepare: cache, skip, partition, stages and key; the request's embedding, computed once
 *   lookup.ts         exact key, vector search, judgement, the post function's pick, a hit's bookkeeping
 *   save.ts           storing a value's, a stream's or a put's answer
 *   single-flight.ts  concurrent identical misses share one model call
 *   faults.ts         fail open (or throw, on strict surfaces) and stage timing
 */
export { runCached, runCachedStream } from "./flow/run.js";
export { putAnswer } from "./flow/save.js";
export { absorbFault } from "./flow/faults.js";
export { assertFlowOptions, decideSkip } from "./flow/options.js";
export type {
  CacheHit,
  CacheOutcome,
  CacheStatus,
  FlowOptions,
  RequestOptions,
  SaveContext,
  StorageControls,
  StoredAnswer,
  StreamSurface,
  ValueSurface,
} from "./flow/surface.js";
