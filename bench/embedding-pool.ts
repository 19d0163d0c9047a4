/**
 * The offline model on one worker thread against a pool (issue 22, "the model at full speed"): texts embedded a
 * second, for an import (one call of many texts) and for lookups (many concurrent calls of one text each, as a
 * server's requests arrive). Each round starts the workers afresh and lets the pool grow to its size (loading
 * not timed), then times the load; the pool sizes take turns, round by round, so a noisy machine slows both alike.
 *
 *   npx tsx bench/embedding-pool.ts                     # pools of 1 and of one worker per core (at most 4), 3 rounds
 *   npx tsx bench/embedding-pool.ts --sizes 1,2 --rounds 5 --texts 512 --concurrency 32
 */
import { cpus } from "node:os";
import { join } from "node:path";
import { UniversalSentenceEncoderEmbeddings } from "../src/embeddings/use.js";
import { DEFAULT_USE_WORKERS, stopUseWorkers, useWorkers } from "../src/embeddings/use-worker-pool.js";
import { parseArgs } from "./lib/args.js";
import { median } from "./lib/measure.js";
import { environment, RESULTS_DIR, table, writeJson } from "./lib/output.js";
import { questionText } from "./lib/texts.js";

const args = parseArgs();
const sizes = (args.value("sizes") ?? `1,${DEFAULT_USE_WORKERS}`).split(",").map(Number);
const rounds = args.number("rounds", 3);
const textCount = args.number("texts", 512);
const concurrency = args.number("concurrency", 32);

const texts = Array.from({ length: textCount }, (_, i) => questionText(i));

/** Texts a second for one call of all texts. */
async function importRate(model: UniversalSentenceEncoderEmbeddings): Promise<number> {
  const started = performance.now();
  await model.embedDocuments(texts);
  return textCount / ((performance.now() - started) / 1000);
}

/** Texts a second for `concurrency` callers asking one text at a time until all texts are embedded. */
async function lookupRate(model: UniversalSentenceEncoderEmbeddings): Promise<number> {
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < textCount) await model.embedQuery(texts[next++]);
    }),
  );
  return textCount / ((performance.now() - started) / 1000);
}

const results = new Map<number, { imports: number[]; lookups: number[] }>(sizes.map((size) => [size, { imports: [], lookups: [] }]));
for (let round = 0; round < rounds; round++) {
  for (const size of sizes) {
    const model = new UniversalSentenceEncoderEmbeddings({ worker: true, workers: size });
    await model.init();
    // The pool grows under load: a call of more than one batch starts the next worker; wait for all of them.
    const pool = useWorkers("UniversalSentenceEncoderEmbeddings", size);
    do {
      await model.embedDocuments(texts.slice(0, 2 * model.batchSize));
      await pool.grown();
    } while (pool.size < size);
    const imported = await importRate(model);
    const looked = await lookupRate(model);
    results.get(size)!.imports.push(imported);
    results.get(size)!.lookups.push(looked);
    console.log(`round ${round + 1}, ${size} worker(s): import ${imported.toFixed(0)} texts/s, lookups ${looked.toFixed(0)} texts/s`);
    await stopUseWorkers();
  }
}

const base = results.get(sizes[0])!;
console.log(`\n\`npx tsx bench/embedding-pool.ts\` on ${new Date().toISOString().slice(0, 10)}, Node ${process.version}, ${cpus().length} cores, ${textCount} texts, ${concurrency} concurrent lookups, median of ${rounds}\n`);
console.log(
  table(
    ["workers", "import texts/s", "vs first", "lookup texts/s", "vs first"],
    sizes.map((size) => {
      const { imports, lookups } = results.get(size)!;
      return [String(size), median(imports).toFixed(0), `${(median(imports) / median(base.imports)).toFixed(2)}x`, median(lookups).toFixed(0), `${(median(lookups) / median(base.lookups)).toFixed(2)}x`];
    }),
  ),
);
writeJson(join(RESULTS_DIR, "embedding-pool.json"), { ...environment(), textCount, concurrency, rounds, results: Object.fromEntries(results) });
