/** Seeded randomness, so every run (and every child process) builds the same data. */

/** mulberry32: a small, fast 32-bit generator; uniform in [0, 1). */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

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
