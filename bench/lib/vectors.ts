/**
 * The benchmark's vectors: unit 512-d rows of one matrix (contiguous, for a fast brute-force scan), stored
 * either spread uniformly on the sphere (random: the worst case for HNSW) or around cluster centres, plus
 * near-duplicate queries at a fixed cosine to one stored row.
 */
import { gaussian, seededRandom } from "./random.js";

export const DIMENSION = 512;

export type DataKind = "random" | "clustered";

/** Rows of a row-major matrix. */
export class VectorSet {
  readonly data: Float32Array;

  constructor(
    readonly count: number,
    readonly dimension = DIMENSION,
  ) {
    this.data = new Float32Array(count * dimension);
  }

  row(i: number): Float32Array {
    return this.data.subarray(i * this.dimension, (i + 1) * this.dimension);
  }
}

function normalizeInPlace(vector: Float32Array): Float32Array {
  let sum = 0;
  for (let i = 0; i < vector.length; i++) sum += vector[i] * vector[i];
  const scale = 1 / Math.sqrt(sum);
  for (let i = 0; i < vector.length; i++) vector[i] *= scale;
  return vector;
}

function fillGaussianUnit(target: Float32Array, normal: () => number): Float32Array {
  for (let i = 0; i < target.length; i++) target[i] = normal();
  return normalizeInPlace(target);
}

/** Stored entries per cluster centre in the clustered variant. */
export const CLUSTER_SIZE = 100;
/** Cosine of a clustered entry to its centre (entries of one cluster sit at about its square, 0.5, to each other). */
const CLUSTER_COSINE = Math.SQRT1_2;

/**
 * `count` unit vectors. Random: uniform on the sphere (neighbours at cosine ~0 +- 0.04). Clustered: one
 * centre per CLUSTER_SIZE entries, each entry at cosine 0.71 to its centre and ~0.5 to its siblings, a
 * crowded neighbourhood closer to what sentence embeddings look like.
 */
export function storedVectors(kind: DataKind, count: number, seed: number): VectorSet {
  const normal = gaussian(seededRandom(seed));
  const set = new VectorSet(count);
  if (kind === "random") {
    for (let i = 0; i < count; i++) fillGaussianUnit(set.row(i), normal);
    return set;
  }
  const centres = new VectorSet(Math.ceil(count / CLUSTER_SIZE));
  for (let c = 0; c < centres.count; c++) fillGaussianUnit(centres.row(c), normal);
  const noise = new Float32Array(DIMENSION);
  for (let i = 0; i < count; i++) {
    const centre = centres.row(Math.floor(i / CLUSTER_SIZE));
    mixOrthogonal(set.row(i), centre, fillGaussianUnit(noise, normal), CLUSTER_COSINE);
  }
  return set;
}

/**
 * Writes into `target` the unit vector at exactly `cosine` to the unit vector `base`, in the direction of
 * `noise` (made orthogonal to `base` first).
 */
function mixOrthogonal(target: Float32Array, base: Float32Array, noise: Float32Array, cosine: number): Float32Array {
  let along = 0;
  for (let i = 0; i < base.length; i++) along += noise[i] * base[i];
  for (let i = 0; i < base.length; i++) target[i] = noise[i] - along * base[i];
  normalizeInPlace(target);
  const sine = Math.sqrt(1 - cosine * cosine);
  for (let i = 0; i < base.length; i++) target[i] = cosine * base[i] + sine * target[i];
  return normalizeInPlace(target);
}

/** Cosine of every query to the stored vector it was made from. */
export const QUERY_COSINE = 0.95;

/** One near-duplicate query per source row: a unit vector at QUERY_COSINE to it, in a random direction. */
export function nearDuplicates(stored: VectorSet, sources: readonly number[], seed: number): VectorSet {
  const normal = gaussian(seededRandom(seed));
  const queries = new VectorSet(sources.length, stored.dimension);
  const noise = new Float32Array(stored.dimension);
  sources.forEach((source, j) => {
    mixOrthogonal(queries.row(j), stored.row(source), fillGaussianUnit(noise, normal), QUERY_COSINE);
  });
  return queries;
}

/** Cluster centres of the sentence-like variant: topics, each holding entries/SENTENCE_CENTRES paraphrase-ish rows. */
export const SENTENCE_CENTRES = 2000;

/**
 * `count` unit vectors around SENTENCE_CENTRES random centres (entry i in cluster i mod centres), each at a cosine
 * drawn uniformly from [0.8, 0.95] to its centre: siblings sit at ~0.64-0.9 to each other, a denser
 * neighbourhood than `storedVectors("clustered")`, closer to sentence embeddings of one topic.
 */
export function sentenceLikeVectors(count: number, seed: number): VectorSet {
  const random = seededRandom(seed);
  const normal = gaussian(random);
  const centres = new VectorSet(Math.min(SENTENCE_CENTRES, count));
  for (let c = 0; c < centres.count; c++) fillGaussianUnit(centres.row(c), normal);
  const set = new VectorSet(count);
  const noise = new Float32Array(DIMENSION);
  for (let i = 0; i < count; i++) {
    mixOrthogonal(set.row(i), centres.row(i % centres.count), fillGaussianUnit(noise, normal), 0.8 + 0.15 * random());
  }
  return set;
}
