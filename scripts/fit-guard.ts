/**
 * Fits the precision guard (src/similarity/guard-model.json) on the QQP TUNE split only (indexes < 60,000),
 * with the offline USE model's cosines from the quality benchmark's embedding cache:
 *
 *   npx tsx bench/quality/embed.ts --tune 60000     # embeds what is missing
 *   npx tsx scripts/fit-guard.ts [--pairs 60000] [--fit 50000] [--hidden 32 (0: no network)] [--epochs 8] [--precision 0.7]
 *
 * The examples are what the cache judges: each text_b's 5 nearest text_a among its block of 5,000 pairs
 * (--block; label 1 only for a label-1 pair's own partner or the very same text). A logistic regression
 * over the guard features (and, with --hidden N, a pair network over the features and both embeddings) is
 * fitted on pairs [0, fit); vetoes and the recommended thresholds (bare distance and guard, for a target
 * precision) are chosen on pairs [fit, pairs). The model records the digest of the word lists its features read
 * (GUARD_LISTS) and of the lexicon; tests/similarity/precision-guard.test.ts fails when either changes without a new fit.
 */
import { writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { loadQqp, qqpSplits } from "../bench/quality/data.js";
import { EmbeddingCache } from "../bench/quality/embedding-cache.js";
import { answerableInBlocks, candidates, TOP_K } from "../bench/quality/tune-candidates.js";
import { fitGuard, roundedModel } from "../src/similarity/guard-fit.js";
import { guardListsDigest, type GuardModel } from "../src/similarity/guard-model.js";
import { parseArgs } from "../bench/lib/args.js";

const args = parseArgs();

const MODEL_FILE = fileURLToPath(new URL("../src/similarity/guard-model.json", import.meta.url));

const pairCount = args.number("pairs", 60_000);
// On QQP's hard pairs; the tune holdout's 5,000-pair pools are easier than a full cache, so the report split
// comes out lower (docs/benchmarks.md, Quality). Raise the cache's threshold for more precision.
const TARGET_PRECISION = args.number("precision", 0.7);
// Candidates far below any useful threshold teach the model little about the decision that matters.
const minCosine = args.number("min-cosine", 0);
const fitCount = args.number("fit", 50_000);
const { tune } = qqpSplits(loadQqp(), pairCount);
const vectors = new EmbeddingCache("use", 512);

const block = args.number("block", 5000);
const hidden = args.number("hidden", 32);
const epochs = args.number("epochs", 8);
const fitSet = candidates(tune.slice(0, fitCount), vectors, block)
  .flat()
  .filter((c) => c.cosine >= minCosine);
const holdoutPairs = tune.slice(fitCount);
const { model, distance: bare, guard: guarded } = fitGuard({
  fit: fitSet,
  holdout: candidates(holdoutPairs, vectors, block),
  answerable: answerableInBlocks(holdoutPairs, block),
  targetPrecision: TARGET_PRECISION,
  embedding: "use-lite-512",
  log: console.log,
  network: hidden > 0 ? { hidden, epochs } : undefined,
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
    candidateBlock: block,
    network: hidden > 0 ? { hidden, epochs } : undefined,
    targetPrecision: TARGET_PRECISION,
    recommendedThreshold: { distance: bare.threshold, guard: guarded.threshold },
    listsDigest: guardListsDigest(),
    holdout: { distance: bare, guard: guarded },
  },
};
writeFileSync(MODEL_FILE, `${JSON.stringify(output, null, 2)}\n`);
console.log(output.features.map((name, j) => `${name}: ${output.weights[j]}`).join("\n"));
if (output.network) console.log(`pair network: ${output.network.hidden} hidden units over ${output.features.length} features + 2 x ${output.network.dimension} embedding dimensions`);
console.log(`vetoes: ${output.vetoes.join(", ") || "none"}`);
console.log(`holdout at precision >= ${TARGET_PRECISION}: distance t=${bare.threshold} recall ${bare.recall.toFixed(4)}; guard t=${guarded.threshold} recall ${guarded.recall.toFixed(4)}`);
