/**
 * Exact top-1 by cosine over every stored vector (all unit length, so the largest dot product), the ground
 * truth for recall. The queries are split across worker threads (each gets a copy of the matrices: shared memory reads measured
 * a third slower here).
 */
import { availableParallelism } from "node:os";
import { Worker } from "node:worker_threads";
import type { VectorSet } from "./vectors.js";

/** Index of the nearest stored row for every query. */
export async function bruteForceTop1(stored: VectorSet, queries: VectorSet): Promise<Int32Array> {
  const threads = Math.max(1, Math.min(availableParallelism(), queries.count));
  const share = Math.ceil(queries.count / threads);
  const parts = await Promise.all(
    Array.from({ length: threads }, (_, t) => {
      const workerData = {
        stored: stored.data,
        queries: queries.data,
        dimension: stored.dimension,
        from: Math.min(queries.count, t * share),
        to: Math.min(queries.count, (t + 1) * share),
      };
      return new Promise<Int32Array>((resolve, reject) => {
        const worker = new Worker(new URL("./brute-force-worker.mjs", import.meta.url), { workerData });
        worker.once("message", resolve);
        worker.once("error", reject);
      });
    }),
  );
  const result = new Int32Array(queries.count);
  let at = 0;
  for (const part of parts) {
    result.set(part, at);
    at += part.length;
  }
  return result;
}
