/**
 * Fills the on-disk embedding cache for the quality benchmark and the guard's fitting script:
 * `npx tsx bench/quality/embed.ts [--tune N] [--workers 2]` embeds the paraphrase set, the QQP report split
 * and the first N pairs of the QQP tune split (default 15,000: what scripts/fit-guard.ts uses).
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
  ["qqp tune", tune.flatMap((p) => [p.text_a, p.text_b])],
  ["qqp report", report.flatMap((p) => [p.text_a, p.text_b])],
];
for (const [name, texts] of stages) {
  process.stderr.write(`${name}: ${cache.missing(texts).length} texts to embed (${cache.size} cached)\n`);
  await fillUseCache(cache, texts, workers);
}
