/**
 * One store combination through the public API, with precomputed 512-d embeddings (clustered data): 10k entries
 * imported with importData, then single put() calls and near-duplicate get() calls (cosine 0.95 to a stored
 * entry, new text, so the vector search answers, not the exact lookup).
 *   npx tsx bench/store-scenario.ts --kinds sqlite,lancedb [--options '{"vectorParams":{...}}'] [--size 10000]
 *     [--puts 500] [--hits 1000]
 * Prints one table row and writes bench/results/store-<kinds>.json (or --json <file>).
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { get, put } from "../src/core/api.js";
import { Cache } from "../src/presets/cache.js";
import { managerFactory, type ManagerFactoryOptions } from "../src/presets/manager-factory.js";
import { DistanceEvaluation } from "../src/similarity/distance.js";
import { parseArgs } from "./lib/args.js";
import { measure, secondsSince } from "./lib/measure.js";
import { environment, saveResult } from "./lib/output.js";
import { PrecomputedEmbedding } from "./lib/precomputed-embedding.js";
import { sampleIndices, seededRandom } from "./lib/random.js";
import { importEntries } from "./lib/scenario.js";
import { storesTable, type StoreResult } from "./lib/stores-report.js";
import { answerText, queryText, questionText } from "./lib/texts.js";
import { DIMENSION, nearDuplicates, storedVectors } from "./lib/vectors.js";

const args = parseArgs();
const kinds = args.value("kinds") ?? "sqlite,hnswlib";
const label = args.value("label") ?? kinds;
const options = JSON.parse(args.value("options") ?? "{}") as ManagerFactoryOptions;
const size = args.number("size", 10_000);
const puts = args.number("puts", 500);
const hits = args.number("hits", 1000);
const WARM_PUTS = 50;
const WARM_HITS = 100;

const dataDir = mkdtempSync(join(tmpdir(), "semcache-bench-stores-"));
try {
  console.log(`\n## ${label}: ${size.toLocaleString("en")} entries, ${puts} puts, ${hits} near-duplicate gets`);
  // Entries 0..size-1 are imported; the next ones are put one by one (warm-up puts last).
  const stored = storedVectors("clustered", size + puts + WARM_PUTS, 3);
  const embedding = new PrecomputedEmbedding();
  for (let i = 0; i < stored.count; i++) embedding.set(questionText(i), stored.row(i));
  const sources = sampleIndices(hits + WARM_HITS, size, seededRandom(41));
  const queries = nearDuplicates(stored, sources, 43);
  const texts = sources.map((source, j) => queryText(j, source));
  texts.forEach((text, j) => embedding.set(text, queries.row(j)));

  const open = () =>
    new Cache().init({
      embeddingFunc: embedding,
      dataManager: managerFactory(kinds, { dataDir, ...options, vectorParams: { dimension: DIMENSION, ...options.vectorParams } }),
      similarityEvaluation: new DistanceEvaluation(),
      config: { similarityThreshold: 0.9, topK: 5 },
    });
  let started = process.hrtime.bigint();
  const cache = await open();
  const openSeconds = secondsSince(started);
  const imported = await importEntries(cache, size);
  started = process.hrtime.bigint();
  await cache.flush();
  const flushSeconds = secondsSince(started);
  console.log(`  imported in ${imported.seconds.toFixed(1)} s, flushed in ${flushSeconds.toFixed(1)} s`);

  const putStats = await measure(puts, (i) => put(questionText(size + i), answerText(size + i), { cacheObj: cache }), {
    warmup: WARM_PUTS,
    warm: (i) => put(questionText(size + puts + i), answerText(size + puts + i), { cacheObj: cache }),
  });
  const answers: Array<string | null> = new Array(hits);
  const getStats = await measure(
    hits,
    async (j) => {
      answers[j] = await get(texts[j], { cacheObj: cache });
    },
    { warmup: WARM_HITS, warm: (j) => get(texts[hits + j], { cacheObj: cache }) },
  );
  const hitRate = answers.filter((answer) => answer !== null).length / hits;
  const recall = answers.filter((answer, j) => answer === answerText(sources[j])).length / hits;
  const persistent = cache.dataManager.scalar.capabilities.persistent;
  await cache.close();
  let reopenSeconds: number | undefined;
  let last = cache;
  let restartError: Error | undefined;
  if (persistent) {
    started = process.hrtime.bigint();
    last = await open();
    try {
      const answeredAfterRestart = await get(texts[0], { cacheObj: last });
      reopenSeconds = secondsSince(started);
      if (answeredAfterRestart !== answers[0]) restartError = new Error(`${label}: after a restart the first get answered ${answeredAfterRestart}, before ${answers[0]}`);
    } finally {
      await last.close();
    }
  }
  const scalar = last.dataManager.scalar as { drop?: () => Promise<void> };
  // Server scalar stores keep their tables: drop them through a fresh store of the same kind and options.
  if (typeof scalar.drop === "function") {
    const cleanup = managerFactory(kinds.split(",")[0], { dataDir, ...options }).scalar as typeof scalar & Cache["dataManager"]["scalar"];
    await cleanup.init();
    await cleanup.drop!();
    await cleanup.close();
  }
  if (restartError) throw restartError;

  const result: StoreResult = {
    label,
    kinds,
    size,
    dimension: DIMENSION,
    openSeconds,
    import: imported,
    flushSeconds,
    reopenSeconds,
    put: putStats,
    get: getStats,
    hitRate,
    recall,
    env: environment(),
  };
  console.log(`\n${storesTable([result])}`);
  saveResult(`store-${label.replace(/[^a-z0-9]+/gi, "-")}`, result, args.value("json"));
} finally {
  rmSync(dataDir, { recursive: true, force: true });
}
