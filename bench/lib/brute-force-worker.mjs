// Exact top-1 for a slice of the queries (plain JavaScript: worker threads do not inherit the TypeScript loader).
import { parentPort, workerData } from "node:worker_threads";

function top1({ stored, queries, dimension, from, to }) {
  const rows = stored.length / dimension;
  const best = new Int32Array(to - from);
  for (let q = from; q < to; q++) {
    const offset = q * dimension;
    let bestDot = -Infinity;
    let bestRow = -1;
    for (let r = 0; r < rows; r++) {
      const base = r * dimension;
      // Four accumulators (the dimension is a multiple of 4) keep the multiply-adds independent.
      let a0 = 0;
      let a1 = 0;
      let a2 = 0;
      let a3 = 0;
      for (let i = 0; i < dimension; i += 4) {
        a0 += stored[base + i] * queries[offset + i];
        a1 += stored[base + i + 1] * queries[offset + i + 1];
        a2 += stored[base + i + 2] * queries[offset + i + 2];
        a3 += stored[base + i + 3] * queries[offset + i + 3];
      }
      const sum = a0 + a1 + a2 + a3;
      if (sum > bestDot) {
        bestDot = sum;
        bestRow = r;
      }
    }
    best[q - from] = bestRow;
  }
  return best;
}

parentPort.postMessage(top1(workerData));
