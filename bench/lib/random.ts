/** Seeded randomness, so every run (and every child process) builds the same data. */

export { seededRandom } from "../../src/testing/vector-index-contract.js";

/** Standard normal samples (Box-Muller) from a uniform source. */
export function gaussian(random: () => number): () => number {
  let spare: number | undefined;
  return () => {
    if (spare !== undefined) {
      const value = spare;
      spare = undefined;
      return value;
    }
    const u = 1 - random();
    const radius = Math.sqrt(-2 * Math.log(u));
    const angle = 2 * Math.PI * random();
    spare = radius * Math.sin(angle);
    return radius * Math.cos(angle);
  };
}

/** `count` distinct integers from [0, limit), in random order. */
export function sampleIndices(count: number, limit: number, random: () => number): number[] {
  if (count > limit) throw new RangeError(`cannot sample ${count} distinct values below ${limit}`);
  const chosen = new Set<number>();
  while (chosen.size < count) chosen.add(Math.floor(random() * limit));
  return [...chosen];
}
