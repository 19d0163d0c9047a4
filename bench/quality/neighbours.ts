/** Exact top-k neighbours by dot product (unit vectors: cosine), for tuning simulations outside the cache. */

export interface Neighbour {
  row: number;
  cosine: number;
}

/** For each query, its k stored rows with the highest cosine, best first. */
export function topK(stored: readonly Float32Array[], queries: readonly Float32Array[], k: number): Neighbour[][] {
  return queries.map((query) => {
    const best: Neighbour[] = [];
    stored.forEach((vector, row) => {
      let dot = 0;
      for (let i = 0; i < query.length; i++) dot += query[i] * vector[i];
      if (best.length < k || dot > best[best.length - 1].cosine) {
        best.push({ row, cosine: dot });
        best.sort((a, b) => b.cosine - a.cosine);
        if (best.length > k) best.pop();
      }
    });
    return best;
  });
}
