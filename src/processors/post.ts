import type { PostProcessContext } from "../core/contracts/processors.js";

/** The best hit (hits arrive sorted best first). */
export function first<T extends { score: number }>(hits: readonly T[]): T | null {
  return hits[0] ?? null;
}

/** Every hit: the first answers, the rest are exposed as candidates. */
export function nop<T extends { score: number }>(hits: readonly T[]): readonly T[] {
  return hits;
}

/** A uniformly random hit (context.random, so tests can seed it). */
export function randomOne<T extends { score: number }>(hits: readonly T[], context: PostProcessContext): T | null {
  if (hits.length === 0) return null;
  return hits[Math.min(hits.length - 1, Math.floor(context.random() * hits.length))];
}

/**
 * The default: at temperature <= 0 the highest score; above it a hit sampled with probability
 * softmax(score / T), so a higher temperature spreads answers over more of the similar entries.
 */
export function temperatureSoftmax<T extends { score: number }>(hits: readonly T[], context: PostProcessContext): T | null {
  if (hits.length === 0) return null;
  let best = 0;
  for (let i = 1; i < hits.length; i++) if (hits[i].score > hits[best].score) best = i;
  if (!(context.temperature > 0)) return hits[best];
  // Shifted by the maximum so exp() cannot overflow.
  const weights = hits.map((hit) => Math.exp((hit.score - hits[best].score) / context.temperature));
  let remaining = context.random() * weights.reduce((sum, weight) => sum + weight, 0);
  for (let i = 0; i < hits.length; i++) {
    remaining -= weights[i];
    if (remaining < 0) return hits[i];
  }
  return hits[hits.length - 1];
}
