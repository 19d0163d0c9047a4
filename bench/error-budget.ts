/**
 * The error budget against a fixed threshold, replayed on QQP through the real Cache (sqlite + hnswlib, offline
 * USE vectors from bench/results/cache/). A stream asks every question of a split's pairs once, in a seeded
 * random order: the first of two duplicates to arrive misses and is stored (the "model" answers a question with
 * its own text), the second may hit it. A hit is right when QQP says the two questions are the same (a label-1
 * pair of the split) or they are the very same text; any other hit is wrong (an unlabelled pair counts as
 * different, as in bench:quality). The error budget's answer judge is that same truth: the fresh answer (the
 * query) against the stored one (the stored question).
 *
 *   npm run bench:error-budget                          # report split (60,000+), budgets 0.02 0.05 0.1
 *   npm run bench:error-budget -- --split tune          # tune pairs 50,000-59,999: where settings are chosen
 *   npm run bench:error-budget -- --budgets 0.05 --seed 2
 *
 * The fixed threshold it compares with is tuned on the TUNE stream (the lowest threshold of a 0.0025 grid whose
 * false-hit rate there is within the budget), then measured on the report stream. For context, the report
 * stream's own best fixed threshold at the error the budget actually reached is also shown (read off, never
 * used to set anything).
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Cache } from "../src/presets/cache.js";
import { seededRandom } from "../src/core/random.js";
import { runCached } from "../src/core/pipeline.js";
import { managerFactory } from "../src/presets/manager-factory.js";
import { DistanceEvaluation } from "../src/similarity/distance.js";
import { ErrorBudgetEvaluation, type ErrorBudgetStats } from "../src/similarity/error-budget-evaluation.js";
import type { SimilarityEvaluation } from "../src/core/contracts/evaluation.js";
import { parseArgs } from "./lib/args.js";
import { count, fraction, table, writeJson, RESULTS_DIR } from "./lib/output.js";
import { PrecomputedEmbedding } from "./lib/precomputed-embedding.js";
import { loadQqp, QQP_REPORT_START, type QqpPair } from "./quality/data.js";
import { EmbeddingCache } from "./quality/embedding-cache.js";

const args = parseArgs();
const TUNE = [50_000, QQP_REPORT_START] as const;
const seed = args.number("seed", 1);
const split = args.value("split") ?? "report";
const budgets = (() => {
  const at = process.argv.indexOf("--budgets");
  const listed = at < 0 ? [] : process.argv.slice(at + 1).filter((_, i, all) => !all.slice(0, i + 1).some((a) => a.startsWith("--")));
  return listed.length > 0 ? listed.map(Number) : [0.02, 0.05, 0.1];
})();
/** The cache's threshold under the error budget: a floor below which nothing is served nor learned. */
const FLOOR = args.number("floor", 0.6);

/** The error budget's settings (chosen on the tune stream; each can be overridden to explore them there). */
const SETTINGS = {
  confidence: args.number("confidence", 0.5),
  auditShare: args.number("audit-share", 0.02),
  entrySpread: args.number("entry-spread", 0.5),
  prior: { t: args.number("prior-t", 3), gamma: args.number("prior-gamma", 2), tStd: args.number("prior-t-std", 2), gammaStd: args.number("prior-gamma-std", 5) },
};
/** Only the error budget (no fixed-threshold grid): for trying settings on the tune stream. */
const BUDGET_ONLY = args.flag("budget-only");

interface Stream {
  questions: string[];
  /** Whether two texts ask the same thing by QQP's labels (or are the same text). */
  same(a: string, b: string): boolean;
}

function streamOf(pairs: readonly QqpPair[], order: number): Stream {
  const key = (a: string, b: string) => (a < b ? `${a}\u0000${b}` : `${b}\u0000${a}`);
  const duplicates = new Set(pairs.filter((p) => p.label === 1).map((p) => key(p.text_a, p.text_b)));
  const questions = pairs.flatMap((p) => [p.text_a, p.text_b]);
  const random = seededRandom(order);
  for (let i = questions.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [questions[i], questions[j]] = [questions[j], questions[i]];
  }
  return { questions, same: (a, b) => a === b || duplicates.has(key(a, b)) };
}

interface Outcome {
  hits: number;
  wrong: number;
  modelCalls: number;
  falseHitRate: number;
  hitRate: number;
  seconds: number;
  budget?: ErrorBudgetStats;
}

/** Replays the stream through a fresh cache judging with `evaluation` at `threshold`. */
async function replay(stream: Stream, embedding: PrecomputedEmbedding, evaluation: SimilarityEvaluation, threshold: number): Promise<Outcome> {
  const dir = mkdtempSync(join(tmpdir(), "semcache-error-budget-"));
  const cache = await new Cache().init({
    embeddingFunc: embedding,
    dataManager: managerFactory("sqlite,hnswlib", { dataDir: dir, maxSize: stream.questions.length * 2 }),
    similarityEvaluation: evaluation,
    config: { similarityThreshold: threshold, topK: 5, autoFlush: 0 },
  });
  const started = performance.now();
  let hits = 0;
  let wrong = 0;
  let modelCalls = 0;
  try {
    for (const question of stream.questions) {
      const served = await runCached<string | null>({ prompt: question }, { cacheObj: cache }, {
        name: "replay",
        strict: true,
        call: async () => (modelCalls++, null),
        answerOf: () => question,
        fromCache: (hit) => hit.answer,
      });
      if (served !== null) {
        hits++;
        if (!stream.same(question, served)) wrong++;
      }
      if (evaluation instanceof ErrorBudgetEvaluation) await evaluation.settled();
    }
  } finally {
    await cache.close();
    rmSync(dir, { recursive: true, force: true });
  }
  const n = stream.questions.length;
  return {
    hits,
    wrong,
    modelCalls,
    falseHitRate: hits === 0 ? 0 : wrong / hits,
    hitRate: hits / n,
    seconds: (performance.now() - started) / 1000,
    budget: evaluation instanceof ErrorBudgetEvaluation ? evaluation.stats : undefined,
  };
}

const budgetEvaluation = (stream: Stream, maxErrorRate: number) =>
  new ErrorBudgetEvaluation({
    evaluation: new DistanceEvaluation(),
    maxErrorRate,
    minScore: FLOOR,
    random: seededRandom(seed + 100),
    ...SETTINGS,
    answerJudge: ({ fresh, stored }) => stream.same(fresh, stored),
  });

/** Every fixed threshold of the grid on one stream, from the top down until the false-hit rate passes the largest budget. */
async function fixedCurve(stream: Stream, embedding: PrecomputedEmbedding, largest: number): Promise<Array<{ threshold: number } & Outcome>> {
  const curve: Array<{ threshold: number } & Outcome> = [];
  for (let threshold = 1; threshold >= 0.8; threshold = Math.round((threshold - 0.0025) * 10_000) / 10_000) {
    const outcome = await replay(stream, embedding, new DistanceEvaluation(), threshold);
    curve.push({ threshold, ...outcome });
    console.error(`  fixed ${threshold.toFixed(4)}: ${outcome.hits} hits, false-hit rate ${fraction(outcome.falseHitRate)}`);
    if (outcome.falseHitRate > largest * 1.5) break;
  }
  return curve;
}

/** The lowest threshold whose false-hit rate is within `budget` (the curve is walked from the top down). */
function tunedThreshold(curve: ReadonlyArray<{ threshold: number } & Outcome>, budget: number): number {
  let chosen = 1;
  for (const point of curve) if (point.falseHitRate <= budget) chosen = point.threshold;
  return chosen;
}

const all = loadQqp();
const tunePairs = all.slice(...TUNE);
const reportPairs = all.slice(QQP_REPORT_START);
const vectors = new EmbeddingCache("use", 512);
const embedding = new PrecomputedEmbedding();
for (const pair of [...tunePairs, ...(split === "tune" ? [] : reportPairs)]) {
  embedding.set(pair.text_a, vectors.require(pair.text_a));
  embedding.set(pair.text_b, vectors.require(pair.text_b));
}
const tuneStream = streamOf(tunePairs, seed);
console.error(`tune stream (pairs ${TUNE[0]}-${TUNE[1] - 1}): ${count(tuneStream.questions.length)} questions; fixed thresholds`);
const tuneCurve = BUDGET_ONLY ? [] : await fixedCurve(tuneStream, embedding, Math.max(...budgets));
const rows: string[][] = [];
const results: Record<string, unknown> = { split, seed, floor: FLOOR, settings: SETTINGS, tuneCurve: tuneCurve.map(({ budget: _, ...p }) => p) };
const target = split === "tune" ? tuneStream : streamOf(reportPairs, seed);
const targetCurve = split === "tune" || BUDGET_ONLY ? tuneCurve : await fixedCurve(target, embedding, Math.max(...budgets));
results.targetCurve = targetCurve.map(({ budget: _, ...p }) => p);
for (const budget of budgets) {
  const tuned = tunedThreshold(tuneCurve, budget);
  const fixed = BUDGET_ONLY
    ? { hits: 0, wrong: 0, falseHitRate: 0, modelCalls: 0 }
    : (targetCurve.find((p) => p.threshold === tuned) ?? (await replay(target, embedding, new DistanceEvaluation(), tuned)));
  console.error(`budget ${budget}: error-budget replay on the ${split} stream`);
  const learned = await replay(target, embedding, budgetEvaluation(target, budget), FLOOR);
  // Context only: the target stream's best fixed threshold at the false-hit rate the budget reached.
  const matched = targetCurve.filter((p) => p.falseHitRate <= Math.max(learned.falseHitRate, 1e-9)).reduce<(typeof targetCurve)[number] | undefined>((best, p) => (!best || p.hits > best.hits ? p : best), undefined);
  const b = learned.budget!;
  rows.push(
    [String(budget), `fixed ${tuned.toFixed(4)} (tuned on tune)`, count(fixed.hits), count(fixed.wrong), fraction(fixed.falseHitRate), count(fixed.modelCalls), "-", "-"],
    [String(budget), "error budget", count(learned.hits), count(learned.wrong), fraction(learned.falseHitRate), count(learned.modelCalls), `${fraction(b.estimate.rate)} [${fraction(b.estimate.lower)}, ${fraction(b.estimate.upper)}] n=${b.estimate.samples}`, fraction(b.sampleShare)],
    [String(budget), matched ? `fixed ${matched.threshold.toFixed(4)} (${split}'s own best at that error)` : "fixed (none at that error)", matched ? count(matched.hits) : "-", matched ? count(matched.wrong) : "-", matched ? fraction(matched.falseHitRate) : "-", matched ? count(matched.modelCalls) : "-", "-", "-"],
  );
  results[`budget-${budget}`] = { tunedThreshold: tuned, fixed: { ...fixed, budget: undefined }, errorBudget: learned, matched: matched && { ...matched, budget: undefined } };
  console.error(`  ${learned.hits} hits, ${learned.wrong} wrong (${fraction(learned.falseHitRate)}); pooled threshold ${b.pooledThreshold.toFixed(4)}; explored ${b.explored}, audited ${b.audited}, estimate ${fraction(b.estimate.rate)} (n=${b.estimate.samples}); ${learned.seconds.toFixed(0)} s`);
}
if (!BUDGET_ONLY) writeJson(`${RESULTS_DIR}/error-budget-${split}.json`, results);
console.log(`QQP ${split} stream: ${count(target.questions.length)} questions (seed ${seed}), USE vectors, sqlite + hnswlib, topK 5; error budget over the cosine, floor ${FLOOR}\n`);
console.log(table(["budget", "mode", "hits", "wrong hits", "false-hit rate", "model calls", "estimate [95% interval]", "sample share"], rows));
