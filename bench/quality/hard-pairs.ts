/**
 * The hard-pair benchmark (bench/quality/hard-pairs.json): hand-written question pairs in categories where a
 * sentence embedding blurs what matters (an action, a sibling thing, an antonym, a role, a direction, a
 * number, a unit, a time, a comparison, a quantity, a platform, a negation, a scope), each category holding
 * minimal pairs that must NOT share an answer (`same: false`) and paraphrases that should (`same: true`).
 * Every pair's split is fixed in the file, half of each category's paraphrases and half of its different
 * pairs in each (first written alternately): fit and pick on `tune`, report on `report` only.
 *
 * A pair is judged as a one-entry cache judges it: `b` stored alone, `a` asked. bench/quality.ts measures it
 * through the real Cache (measureHardPairs); scoreHardPairs gives the same scores without a cache, for tuning
 * scripts, and measureHardPairs checks that the two agree.
 */
import { readFileSync } from "node:fs";
import { normalizeScore } from "../../src/core/similarity-score.js";
import type { SimilarityEvaluation } from "../../src/core/contracts/evaluation.js";
import { table } from "../lib/output.js";
import { QualityCache } from "./cache-run.js";
import { EmbeddingCache, fillUseCache } from "./embedding-cache.js";

export const HARD_PAIRS_FILE = new URL("./hard-pairs.json", import.meta.url);

export type HardPairSplit = "tune" | "report";

export interface HardPair {
  /** The question asked. */
  a: string;
  /** The question stored. */
  b: string;
  /** Whether `b`'s answer answers `a`. */
  same: boolean;
  category: string;
  split: HardPairSplit;
}

const FIELDS = ["a", "b", "same", "category", "split"];

/** Checks the data set's shape; throws a TypeError naming the entry and field that is wrong. */
export function validateHardPairs(data: unknown, source = "hard-pairs.json"): HardPair[] {
  if (!Array.isArray(data)) throw new TypeError(`${source}: expected an array of pairs`);
  const seen = new Map<string, number>();
  return data.map((entry: unknown, index) => {
    const where = `${source} entry ${index}`;
    if (typeof entry !== "object" || entry === null || Array.isArray(entry)) throw new TypeError(`${where}: expected an object, got ${JSON.stringify(entry)}`);
    const record = entry as Record<string, unknown>;
    const extra = Object.keys(record).filter((key) => !FIELDS.includes(key));
    if (extra.length > 0) throw new TypeError(`${where}: unknown field ${extra.map((key) => JSON.stringify(key)).join(", ")}`);
    for (const field of ["a", "b", "category"]) {
      const value = record[field];
      if (typeof value !== "string" || value.trim() === "") throw new TypeError(`${where}: "${field}" must be a non-empty string, got ${JSON.stringify(value)}`);
    }
    if (typeof record.same !== "boolean") throw new TypeError(`${where}: "same" must be true or false, got ${JSON.stringify(record.same)}`);
    if (record.split !== "tune" && record.split !== "report") throw new TypeError(`${where}: "split" must be "tune" or "report", got ${JSON.stringify(record.split)}`);
    const pair = record as unknown as HardPair;
    if (pair.a === pair.b) throw new TypeError(`${where}: both questions are ${JSON.stringify(pair.a)}`);
    const key = pairKey(pair);
    const earlier = seen.get(key);
    if (earlier !== undefined) throw new TypeError(`${where}: the same pair as entry ${earlier}`);
    seen.set(key, index);
    return { a: pair.a, b: pair.b, same: pair.same, category: pair.category, split: pair.split };
  });
}

/** The two questions in either order: a pair and its mirror are one pair. */
export function pairKey(pair: Pick<HardPair, "a" | "b">): string {
  return [pair.a, pair.b].sort().join("\u0000");
}

/** The data set, validated; optionally one split only. */
export function loadHardPairs(split?: HardPairSplit, file: URL | string = HARD_PAIRS_FILE): HardPair[] {
  const pairs = validateHardPairs(JSON.parse(readFileSync(file, "utf8")), String(file).split("/").pop());
  return split ? pairs.filter((pair) => pair.split === split) : pairs;
}

/** Embeds (once; later runs read bench/results/cache/) every question of `pairs` with the offline USE model. */
export async function embedHardPairs(pairs: readonly HardPair[], vectors = new EmbeddingCache("use", 512)): Promise<EmbeddingCache> {
  await fillUseCache(vectors, pairs.flatMap((pair) => [pair.a, pair.b]));
  return vectors;
}

/**
 * Each pair's normalised score under `evaluation`, judged as a lookup of `a` in a cache holding `b` alone
 * judges it (one candidate, no rivals, its search distance given), without building the cache. For tuning
 * scripts: `await scoreHardPairs(loadHardPairs("tune"), evaluation)`.
 */
export async function scoreHardPairs(pairs: readonly HardPair[], evaluation: SimilarityEvaluation, vectors?: EmbeddingCache): Promise<number[]> {
  const embedded = vectors ?? (await embedHardPairs(pairs));
  const scores: number[] = [];
  for (const pair of pairs) {
    const query = embedded.require(pair.a);
    const stored = embedded.require(pair.b);
    let cosine = 0;
    for (let i = 0; i < query.length; i++) cosine += query[i] * stored[i];
    const raw = await evaluation.evaluation(
      { question: pair.a, embedding: query },
      { question: pair.b, answer: "", embedding: stored, distance: 1 - cosine },
      { neighbours: [] },
    );
    scores.push(normalizeScore(evaluation, raw));
  }
  return scores;
}

/** Each pair's score through the real Cache: `b` imported alone, `a` looked up, once per evaluation. */
async function cacheScores<Kind extends string>(pairs: readonly HardPair[], evaluations: Record<Kind, SimilarityEvaluation>, vectors: EmbeddingCache): Promise<Record<Kind, number[]>> {
  const kinds = Object.keys(evaluations) as Kind[];
  const scores = Object.fromEntries(kinds.map((kind) => [kind, [] as number[]])) as Record<Kind, number[]>;
  for (const pair of pairs) {
    const cache = await QualityCache.open([pair.b], [pair.a], vectors);
    try {
      for (const kind of kinds) scores[kind].push((await cache.run([pair.a], evaluations[kind]))[0]?.score ?? 0);
    } finally {
      await cache.close();
    }
  }
  return scores;
}

/** Hits among one category's paraphrases and among its different pairs, at one threshold. */
export interface HitCounts {
  paraphrases: number;
  paraphraseHits: number;
  paraphraseHitRate: number;
  different: number;
  falseHits: number;
  falseHitRate: number;
}

export function hitCounts(pairs: readonly HardPair[], scores: readonly number[], threshold: number): HitCounts {
  const hits = (same: boolean) => pairs.filter((pair, i) => pair.same === same && scores[i] >= threshold).length;
  const paraphrases = pairs.filter((pair) => pair.same).length;
  const different = pairs.length - paraphrases;
  const paraphraseHits = hits(true);
  const falseHits = hits(false);
  return {
    paraphrases,
    paraphraseHits,
    paraphraseHitRate: paraphrases === 0 ? 0 : paraphraseHits / paraphrases,
    different,
    falseHits,
    falseHitRate: different === 0 ? 0 : falseHits / different,
  };
}

export interface HardPairResult<Kind extends string> {
  split: HardPairSplit;
  thresholds: Record<Kind, number>;
  /** Per category (then "all"), per evaluation at its threshold. */
  categories: Array<{ category: string } & Record<Kind, HitCounts>>;
  /** Largest |cache score - scoreHardPairs score| over the pairs and evaluations (expected ~1e-6). */
  directScoreGap: number;
  pairs: Array<HardPair & { scores: Record<Kind, number> }>;
}

/** Scores the split's pairs through the real Cache with each evaluation, and counts hits at each threshold. */
export async function measureHardPairs<Kind extends string>(
  evaluations: Record<Kind, SimilarityEvaluation>,
  thresholds: Record<Kind, number>,
  vectors: EmbeddingCache,
  split: HardPairSplit = "report",
): Promise<HardPairResult<Kind>> {
  const pairs = loadHardPairs(split);
  const kinds = Object.keys(evaluations) as Kind[];
  console.error(`hard pairs (${split}): ${pairs.length} pairs`);
  await embedHardPairs(pairs, vectors);
  const scores = await cacheScores(pairs, evaluations, vectors);
  let directScoreGap = 0;
  for (const kind of kinds) {
    const direct = await scoreHardPairs(pairs, evaluations[kind], vectors);
    direct.forEach((score, i) => (directScoreGap = Math.max(directScoreGap, Math.abs(score - scores[kind][i]))));
  }
  if (directScoreGap > 1e-4) console.error(`  warning: scoreHardPairs differs from the cache's scores by up to ${directScoreGap}`);
  const categories = [...new Set(pairs.map((pair) => pair.category)), "all"].map((category) => {
    const members = pairs.flatMap((pair, i) => (category === "all" || pair.category === category ? [i] : []));
    const counts = kinds.map((kind) => [kind, hitCounts(members.map((i) => pairs[i]), members.map((i) => scores[kind][i]), thresholds[kind])]);
    return { category, ...Object.fromEntries(counts) } as { category: string } & Record<Kind, HitCounts>;
  });
  return {
    split,
    thresholds,
    categories,
    directScoreGap,
    pairs: pairs.map((pair, i) => ({ ...pair, scores: Object.fromEntries(kinds.map((kind) => [kind, scores[kind][i]])) as Record<Kind, number> })),
  };
}

const rate = (hits: number, of: number) => (of === 0 ? "-" : `${(hits / of).toFixed(2)} (${hits}/${of})`);

/** One row per category: its pairs, then each evaluation's paraphrase hit rate and false-hit rate. */
export function hardPairsTable<Kind extends string>(result: HardPairResult<Kind>): string {
  const kinds = Object.keys(result.thresholds) as Kind[];
  return table(
    ["category", "paraphrases", "different", ...kinds.flatMap((kind) => [`${kind}: paraphrase hits`, `${kind}: false hits`])],
    result.categories.map((row) => {
      const { paraphrases, different } = row[kinds[0]];
      const name = row.category === "all" ? "**all**" : row.category;
      return [name, String(paraphrases), String(different), ...kinds.flatMap((kind) => [rate(row[kind].paraphraseHits, paraphrases), rate(row[kind].falseHits, different)])];
    }),
  );
}

export const HARD_PAIRS_BEGIN = "<!-- hard-pairs:begin (bench/quality.ts writes this part; --hard-pairs-only rewrites it alone) -->";
export const HARD_PAIRS_END = "<!-- hard-pairs:end -->";

/** The part of docs/benchmarks.md's Quality section on the hard pairs, between its own markers. */
export function hardPairsSection<Kind extends string>(result: HardPairResult<Kind>): string {
  const all = loadHardPairs();
  const thresholds = Object.entries(result.thresholds).map(([kind, value]) => `${kind} ${value}`).join(", ");
  return `${HARD_PAIRS_BEGIN}
### Hard pairs (${result.split} split)

bench/quality/hard-pairs.json holds ${all.length} hand-written question pairs in ${new Set(all.map((p) => p.category)).size} categories. Each category has
minimal pairs that must not share an answer ("How do I sort a list in Python?" / "How do I reverse a list in
Python?") and paraphrases that should ("What is the largest planet in the solar system?" / "Which planet in
our solar system is the biggest?"); ${all.filter((p) => p.same).length} of the ${all.length} pairs are paraphrases. The split is fixed in the file,
half of each category's paraphrases and half of its different pairs each: the tune pairs are for fitting a
judge, the ${result.pairs.length} ${result.split} pairs below only for this table. Each pair is one lookup of \`a\` in a real
\`Cache\` holding \`b\` alone (one candidate, so the preset's share is 1), at the recommended thresholds
(${thresholds}).
Paraphrase hits = paraphrases served / paraphrases; false hits = different pairs served / different pairs,
each one a wrong answer served. \`npm run bench:quality -- --hard-pairs-only\` reruns this part alone (~30 s).

${hardPairsTable(result)}
${HARD_PAIRS_END}`;
}

/** `doc` with its hard-pairs part replaced by `section`, or inserted before `before` (the Quality section's end). */
export function withHardPairsSection(doc: string, section: string, before: string): string {
  const at = doc.indexOf(HARD_PAIRS_BEGIN);
  if (at >= 0) return doc.slice(0, at) + section + doc.slice(doc.indexOf(HARD_PAIRS_END) + HARD_PAIRS_END.length);
  const end = doc.indexOf(before);
  return end >= 0 ? `${doc.slice(0, end).trimEnd()}\n\n${section}\n${doc.slice(end)}` : `${doc.trimEnd()}\n\n${section}\n`;
}
