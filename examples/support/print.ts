/** How the examples show what happened: timings and the cache's marker on an answer. */

/** Runs `fn`, returning its result and the milliseconds it took. */
export async function timed<T>(fn: () => Promise<T>): Promise<[T, number]> {
  const started = performance.now();
  const result = await fn();
  return [result, performance.now() - started];
}

export function ms(value: number): string {
  return `${value.toFixed(1)} ms`;
}

/**
 * The cache's verdict on an answer, from its metadata (`response_metadata` of a chat message,
 * `generationInfo` of a text generation): SemanticCache marks a hit `{ score, id }`, the wrappers
 * `{ hit: true, score, id }`, and mark answers that cost no model call of their own with `hit: false`.
 */
export function outcome(metadata: Record<string, unknown> | undefined): string {
  const marker = metadata?.semcache as { hit?: boolean; shared?: boolean; score?: number; id?: number } | undefined;
  if (!marker) return "MISS (the model answered)";
  if (marker.shared) return "SHARED (a concurrent identical call's answer)";
  if (marker.hit === false) return "NOT CACHED (searchOnly: no model call)";
  return `HIT (score ${marker.score?.toFixed(3)}, entry ${marker.id})`;
}
