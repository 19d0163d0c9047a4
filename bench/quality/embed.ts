/**
 * Fills the on-disk embedding cache for the quality benchmark and the guard's fitting script:
 * `npx tsx bench/quality/embed.ts [--tune N] [--tune-from M] [--workers 2]` embeds the paraphrase set, the QQP
 * report split and pairs M to N-1 of the QQP tune split (default 0 to 15,000: what scripts/fit-guard.ts uses;
 * scripts/tune-preset.ts reads pairs 50,000-59,999: `--tune 60000 --tune-from 50000`).
 */
import { EmbeddingCache, fillUseCache } from "./embedding-cache.js";
import { loadParaphrases, loadQqp, qqpSplits } from "./data.js";
import { parseArgs } from "../lib/args.js";

const args = parseArgs();

const cache = new EmbeddingCache("use", 512);
const workers = args.number("workers", 2);
const { tune, report } = qqpSplits(loadQqp(), args.number("tune", 15_000));
const stages: Array<[string, string[]]> = [
  ["paraphrase-999", loadParaphrases().flatMap((p) => [p.origin, p.similar])],
  ["qqp tune", tune.slice(args.number("tune-from", 0)).flatMap((p) => [p.text_a, p.text_b])],
  ["qqp report", report.flatMap((p) => [p.text_a, p.text_b])],
];
for (const [name, texts] of stages) {
  process.stderr.write(`${name}: ${cache.missing(texts).length} texts to embed (${cache.size} cached)\n`);
  await fillUseCache(cache, texts, workers);
}
