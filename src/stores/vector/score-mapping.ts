/**
 * Vector stores report closeness in different units. The cache works in cosine distance (1 - cosine
 * similarity, in [0, 2]); for the unit vectors it stores, every common unit converts exactly.
 */

/**
 * What a store's score means. Besides the plain units: "cosine-similarity-scaled" is (1 + cos) / 2
 * (Elasticsearch, OpenSearch's Lucene engine, Atlas Vector Search); "inverse-l2-squared" is 1 / (1 + squared L2)
 * (Elasticsearch l2_norm, OpenSearch l2); "inverse-cosine-distance" is 1 / (1 + (1 - cos)) (OpenSearch's
 * nmslib and Faiss engines); "negative-inner-product" is -dot (pgvector's <#>).
 */
export type ScoreKind =
  | "cosine-distance"
  | "cosine-similarity"
  | "l2"
  | "l2-squared"
  | "inner-product"
  | "cosine-similarity-scaled"
  | "inverse-l2-squared"
  | "inverse-cosine-distance"
  | "negative-inner-product";

export const SCORE_KINDS: readonly ScoreKind[] = Object.freeze([
  "cosine-distance",
  "cosine-similarity",
  "l2",
  "l2-squared",
  "inner-product",
  "cosine-similarity-scaled",
  "inverse-l2-squared",
  "inverse-cosine-distance",
  "negative-inner-product",
]);

/** Rounding can leave a distance a hair outside [0, 2]. */
export function clampCosineDistance(distance: number): number {
  return Math.min(2, Math.max(0, distance));
}

/** A store's score for two unit vectors, as cosine distance. */
export function toCosineDistance(kind: ScoreKind, score: number): number {
  switch (kind) {
    case "cosine-distance":
      return clampCosineDistance(score);
    case "cosine-similarity":
    case "inner-product":
      return clampCosineDistance(1 - score);
    case "l2":
      // |a - b|^2 = 2 - 2cos for unit vectors.
      return clampCosineDistance((score * score) / 2);
    case "l2-squared":
      return clampCosineDistance(score / 2);
    case "cosine-similarity-scaled":
      return clampCosineDistance(2 - 2 * score);
    case "inverse-l2-squared":
      return clampCosineDistance((1 / score - 1) / 2);
    case "inverse-cosine-distance":
      return clampCosineDistance(1 / score - 1);
    case "negative-inner-product":
      return clampCosineDistance(1 + score);
  }
}
