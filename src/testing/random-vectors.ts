/** Seeded random vectors for tests: the vector index suite's, and any test that wants the same. */
import { dot, l2Normalize } from "../core/vector-math.js";

export { seededRandom } from "../core/random.js";

/** A random unit vector (Gaussian components, so directions are uniform). */
export function randomUnitVector(dimension: number, random: () => number): Float32Array {
  const vector = new Float32Array(dimension);
  for (let i = 0; i < dimension; i++) {
    const u = random() || Number.MIN_VALUE;
    vector[i] = Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * random());
  }
  return l2Normalize(vector);
}

/** A unit vector whose cosine similarity to the unit vector `base` is `cosine`. */
export function vectorAtCosine(base: Float32Array, cosine: number, random: () => number): Float32Array {
  const noise = randomUnitVector(base.length, random);
  const along = dot(noise, base);
  const orthogonal = l2Normalize(noise.map((value, i) => value - along * base[i]));
  const sine = Math.sqrt(1 - cosine * cosine);
  return l2Normalize(base.map((value, i) => cosine * value + sine * orthogonal[i]));
}
