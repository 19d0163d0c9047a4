/** How the flow treats a cache fault (it never costs the caller its model answer unless the surface is strict), and stage timing. */
import type { CacheKernel } from "../cache.js";
import type { Stage } from "../report.js";
import type { SurfaceBase } from "./surface.js";

/** A cache fault: rethrown on strict surfaces, otherwise absorbed (the model answer still flows). */
export function fault(cache: CacheKernel, surface: SurfaceBase, error: unknown): void {
  if (surface.strict) throw error;
  cache.absorbFault(error);
}

/** Absorbs a cache fault: counted (a too-long value also as a skipped save) and handed to `onError`. */
export function absorbFault(cache: CacheKernel, error: unknown): void {
  cache.absorbFault(error);
}

/** Runs one stage of the flow, timed in the cache's report. */
export async function timed<T>(cache: CacheKernel, stage: Stage, run: () => Promise<T>): Promise<T> {
  const started = performance.now();
  try {
    return await run();
  } finally {
    cache.timeStage(stage, performance.now() - started);
  }
}
