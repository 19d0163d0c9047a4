/** Steps shared by the scenarios: importing entries through importData, and exact hits through get(). */
import { get } from "../../src/core/api.js";
import type { Cache } from "../../src/presets/cache.js";
import { keyHash } from "../../src/core/keys.js";
import { measure, secondsSince } from "./measure.js";
import { seededRandom } from "./random.js";
import { answerText, questionText } from "./texts.js";
import type { ExactHitStats, ImportStats } from "./types.js";

/** Rows per importData call: a user importing a file in pages (one SQLite transaction each). */
export const IMPORT_CHUNK = 1000;

/** Imports entries 0..size-1 (texts generated per chunk, so only the cache keeps them). */
export async function importEntries(cache: Cache, size: number, progress = false): Promise<ImportStats> {
  const started = process.hrtime.bigint();
  for (let from = 0; from < size; from += IMPORT_CHUNK) {
    const indices = Array.from({ length: Math.min(IMPORT_CHUNK, size - from) }, (_, k) => from + k);
    await cache.importData(indices.map(questionText), indices.map(answerText));
    const done = from + indices.length;
    if (progress && done % 10_000 === 0) console.log(`  imported ${done.toLocaleString("en")} in ${secondsSince(started).toFixed(1)} s`);
  }
  const seconds = secondsSince(started);
  return { rows: size, chunk: IMPORT_CHUNK, seconds, rowsPerSecond: size / seconds };
}

/**
 * `samples` get() calls on stored questions (random entries), then the scalar store's own findByKey on the
 * same keys (hashed up front): the difference is what the request flow adds. Every answer is checked.
 */
export async function exactHits(cache: Cache, size: number, samples: number): Promise<ExactHitStats> {
  const random = seededRandom(7919);
  const picks = Array.from({ length: samples }, () => Math.floor(random() * size));
  const questions = picks.map(questionText);
  const hashes = questions.map((question) => keyHash("", question));
  const warmup = Math.min(2000, samples);
  const answers: Array<string | null> = new Array(samples);
  const getStats = await measure(samples, async (i) => {
    answers[i] = await get(questions[i], { cacheObj: cache });
  }, { warmup });
  const wrong = picks.filter((entry, i) => answers[i] !== answerText(entry)).length;
  if (wrong > 0) throw new Error(`exact hits: ${wrong} of ${samples} get() calls did not return the stored answer`);
  const scalar = cache.dataManager.scalar;
  const findStats = await measure(samples, (i) => scalar.findByKey(hashes[i]), { warmup });
  return { get: getStats, findByKey: findStats };
}
