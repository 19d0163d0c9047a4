/**
 * Fits the precision guard (src/similarity/guard-model.json) on the QQP TUNE split only (indexes < 60,000),
 * with the offline USE model's cosines from the quality benchmark's embedding cache:
 *
 *   npx tsx bench/quality/embed.ts --tune 15000     # embeds what is missing
 *   npx tsx scripts/fit-guard.ts --pairs 15000 --fit 5000 [--precision 0.65] [--min-cosine 0.7]
 *
 * The examples are what the cache judges: each text_b's 5 nearest text_a among the segment's pairs (label 1
 * only for a label-1 pair's own partner). A logistic regression is fitted on pairs [0, fit); vetoes and the
 * recommended thresholds (bare distance and guard, for a target precision) are chosen on pairs [fit, pairs).
 */
import { writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { answerableCount, isRight, loadQqp, qqpSplits, type QqpPair } from "../bench/quality/data.js";
import { EmbeddingCache } from "../bench/quality/embedding-cache.js";
import { topK } from "../bench/quality/neighbours.js";
import { fitGuard, roundedModel, type GuardExample } from "../src/similarity/guard-fit.js";
import type { GuardModel } from "../src/similarity/guard-model.js";
import { parseArgs } from "../bench/lib/args.js";

const args = parseArgs();

const MODEL_FILE = fileURLToPath(new URL("../src/similarity/guard-model.json", import.meta.url));
const TOP_K = 5;

/** Per query (text_b), its nearest stored text_a among the segment, labelled. */
function candidates(pairs: readonly QqpPair[], vectors: EmbeddingCache): GuardExample[][] {
  const stored = pairs.map((p) => vectors.require(p.text_a));
  const queries = pairs.map((p) => vectors.require(p.text_b));
  return topK(stored, queries, TOP_K).map((neighbours, q) =>
    neighbours.map(({ row, cosine }) => ({
      query: pairs[q].text_b,
      stored: pairs[row].text_a,
      cosine,
      label: isRight(pairs[q], pairs[row].text_a) ? 1 : 0,
    })),
  );
}

const pairCount = args.number("pairs", 15_000);
// QQP's label-0 pairs are near paraphrases: no threshold on this embedding reaches 0.9 precision there.
const TARGET_PRECISION = args.number("precision", 0.65);
// Candidates far below any useful threshold teach the model little about the decision that matters.
const minCosine = args.number("min-cosine", 0);
const fitCount = args.number("fit", 5000);
const { tune } = qqpSplits(loadQqp(), pairCount);
const vectors = new EmbeddingCache("use", 512);

const fitSet = candidates(tune.slice(0, fitCount), vectors)
  .flat()
  .filter((c) => c.cosine >= minCosine);
const holdoutPairs = tune.slice(fitCount);
const { model, distance: bare, guard: guarded } = fitGuard({
  fit: fitSet,
  holdout: candidates(holdoutPairs, vectors),
  answerable: answerableCount(holdoutPairs),
  targetPrecision: TARGET_PRECISION,
  embedding: "use-lite-512",
  log: console.log,
});
const output: GuardModel = {
  ...roundedModel(model),
  fitted: {
    data: "qqp-pairs-80k.json tune split",
    fitPairs: [0, fitCount],
    holdoutPairs: [fitCount, pairCount],
    fitExamples: fitSet.length,
    minCosine,
    candidatesPerQuery: TOP_K,
    targetPrecision: TARGET_PRECISION,
    recommendedThreshold: { distance: bare.threshold, guard: guarded.threshold },
    holdout: { distance: bare, guard: guarded },
  },
};
writeFileSync(MODEL_FILE, `${JSON.stringify(output, null, 2)}\n`);
console.log(output.features.map((name, j) => `${name}: ${output.weights[j]}`).join("\n"));
console.log(`vetoes: ${output.vetoes.join(", ") || "none"}`);
console.log(`holdout at precision >= ${TARGET_PRECISION}: distance t=${bare.threshold} recall ${bare.recall.toFixed(4)}; guard t=${guarded.threshold} recall ${guarded.recall.toFixed(4)}`);
