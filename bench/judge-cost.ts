/**
 * What the judge costs a semantic lookup: the preset's evaluation (the precision guard with its pair
 * network, blended with the cosine, weighed by the ambiguity share) scoring a lookup's 5 candidates, side by side
 * in one run: as the cache judges them (the evaluation's bound first, the lexical vetoes only for a candidate whose
 * bound reaches the threshold, and on a miss for the candidates that could give its nearest score, which a listener
 * such as the OpenAI adapter reports), every candidate in full, and without the lexical vetoes. The queries are QQP report
 * questions with the offline model's vectors (bench/results/cache/, embedded on first use: ~25,000 texts, ~3 minutes
 * on 2 cores), and a lookup's candidates are either its 5 nearest among the report split's 20,854 stored questions
 * (as the cache's search finds them; mostly new to the judge, whose memo holds the last 512 questions it read) or
 * 5 stored questions in a sliding window (each the candidate of five lookups in a row: read a lookup ago). Then one
 * long prompt against another (1,000 and 3,000 names each), which must cost milliseconds, not seconds.
 *
 *   npm run bench:judge [-- --lookups 4000 --rounds 3]
 *
 * Writes docs/benchmarks.md's judge-cost block and bench/results/judge-cost.json.
 */
import { fileURLToPath } from "node:url";
import { loadQqp, qqpSplits } from "./quality/data.js";
import { EmbeddingCache, fillUseCache } from "./quality/embedding-cache.js";
import { topK } from "./quality/neighbours.js";
import { parseArgs } from "./lib/args.js";
import { writeGeneratedBlock } from "./lib/docs.js";
import { median } from "./lib/measure.js";
import { environment, saveResult, table, us } from "./lib/output.js";
import { normalizeScore } from "../src/core/similarity-score.js";
import { PrecisionGuardEvaluation } from "../src/similarity/precision-guard.js";
import preset from "../src/similarity/preset-tuning.json" with { type: "json" };
import { UnambiguousEvaluation } from "../src/similarity/unambiguous.js";
import type { EvaluationCandidate, EvaluationSource } from "../src/core/contracts/evaluation.js";

const args = parseArgs();
const LOOKUPS = args.number("lookups", 4000);
const ROUNDS = args.number("rounds", 3);
const CANDIDATES = 5;
const DIMENSION = 512;
const DOC = fileURLToPath(new URL("../docs/benchmarks.md", import.meta.url));

let seed = 42;
const random = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31) * 2 - 1;
function unitVector(): Float32Array {
  const vector = Float32Array.from({ length: DIMENSION }, random);
  const norm = Math.hypot(...vector);
  return vector.map((value) => value / norm);
}

const report = qqpSplits(loadQqp()).report;
if (LOOKUPS + CANDIDATES > report.length) throw new RangeError(`--lookups: at most ${report.length - CANDIDATES} (the QQP report split's pairs)`);
const queries = report.slice(0, LOOKUPS).map((pair) => pair.text_b);
const storedQuestions = [...new Set(report.map((pair) => pair.text_a))];
const vectors = new EmbeddingCache("use", DIMENSION);
await fillUseCache(vectors, [...queries, ...storedQuestions]);
const dot = (a: Float32Array, b: Float32Array) => a.reduce((sum, value, i) => sum + value * b[i], 0);
/** A stored question as the cache hands it to the judge: its vector, its distance, an answer of its own (a rival). */
function candidateOf(query: Float32Array, question: string): EvaluationCandidate {
  const embedding = vectors.require(question);
  return { question, answer: `the answer to ${question}`, embedding, distance: 1 - dot(query, embedding) };
}
const sources: EvaluationSource[] = queries.map((question) => ({ question, embedding: vectors.require(question) }));
const nearest = topK(
  storedQuestions.map((question) => vectors.require(question)),
  sources.map((src) => src.embedding as Float32Array),
  CANDIDATES,
);
const layouts = {
  nearest: sources.map((src, i) => ({ src, candidates: nearest[i].map(({ row }) => candidateOf(src.embedding as Float32Array, storedQuestions[row])) })),
  window: sources.map((src, i) => ({ src, candidates: report.slice(i, i + CANDIDATES).map((pair) => candidateOf(src.embedding as Float32Array, pair.text_a)) })),
};
type Layout = keyof typeof layouts;
const LAYOUT_NAMES: Record<Layout, string> = { nearest: "nearest candidates", window: "candidates read a lookup ago" };

const shipped = new UnambiguousEvaluation({ evaluation: new PrecisionGuardEvaluation({ cosineWeight: preset.cosineWeight }), temperature: preset.temperature });
const judges = {
  "preset as the cache judges it (bound first)": { evaluation: shipped, bounded: true, reportsMiss: false },
  "the same, a miss's nearest score reported": { evaluation: shipped, bounded: true, reportsMiss: true },
  "preset, every candidate judged in full": { evaluation: shipped, bounded: false, reportsMiss: false },
  "preset without lexical vetoes": {
    evaluation: new UnambiguousEvaluation({ evaluation: new PrecisionGuardEvaluation({ cosineWeight: preset.cosineWeight, lexicalVetoes: false }), temperature: preset.temperature }),
    bounded: false,
    reportsMiss: false,
  },
};
type Judge = keyof typeof judges;
/** Candidates judged in full by the cache's path (their bound reached the threshold), per layout, in the last pass. */
const judgedInFull: Record<Layout, number> = { nearest: 0, window: 0 };
/** The same, with a miss's nearest score reported. */
const judgedInFullReported: Record<Layout, number> = { nearest: 0, window: 0 };

/** Microseconds per lookup (all its candidates judged against each other), sorted. */
async function timeLookups(judge: Judge, layout: Layout): Promise<Float64Array> {
  const { evaluation, bounded, reportsMiss } = judges[judge];
  const lookups = layouts[layout];
  const times = new Float64Array(lookups.length);
  let full = 0;
  for (const [i, { src, candidates }] of lookups.entries()) {
    const start = process.hrtime.bigint();
    let nearest = -1;
    const ruledOut: Array<{ bound: number; inFull: () => number | Promise<number> }> = [];
    for (const [k, candidate] of candidates.entries()) {
      const context = { neighbours: candidates.filter((_, j) => j !== k) };
      const inFull = () => evaluation.evaluation(src, candidate, context);
      const bound = bounded ? normalizeScore(evaluation, await evaluation.scoreBound(src, candidate, context)) : 1;
      if (bound < preset.threshold) ruledOut.push({ bound, inFull });
      else nearest = Math.max(nearest, normalizeScore(evaluation, await inFull()));
    }
    // A miss reported to a listener (the OpenAI adapter, the server's score header) gives its nearest full score:
    // the ruled-out candidates judged best bound first, while one could still beat it (src/core/flow/lookup.ts).
    if (reportsMiss && nearest < preset.threshold) {
      for (const { bound, inFull } of ruledOut.sort((a, b) => b.bound - a.bound)) {
        if (bound <= nearest) break;
        nearest = Math.max(nearest, normalizeScore(evaluation, await inFull()));
        full++;
      }
    }
    full += candidates.length - ruledOut.length;
    times[i] = Number(process.hrtime.bigint() - start) / 1000;
  }
  if (bounded) (reportsMiss ? judgedInFullReported : judgedInFull)[layout] = full;
  return times.sort();
}

const quantile = (sorted: Float64Array, q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
// A first pass loads the lexicon and warms the JIT; it is not counted.
for (const judge of Object.keys(judges) as Judge[]) await timeLookups(judge, "window");
const runs = (Object.keys(layouts) as Layout[]).flatMap((layout) => (Object.keys(judges) as Judge[]).map((judge) => ({ layout, judge })));
const runName = ({ layout, judge }: { layout: Layout; judge: Judge }) => `${judge}, ${LAYOUT_NAMES[layout]}`;
const results = Object.fromEntries(runs.map((run) => [runName(run), { p50: [] as number[], p99: [] as number[] }])) as Record<string, { p50: number[]; p99: number[] }>;
for (let round = 0; round < ROUNDS; round++) {
  for (const run of runs) {
    const times = await timeLookups(run.judge, run.layout);
    results[runName(run)].p50.push(quantile(times, 0.5));
    results[runName(run)].p99.push(quantile(times, 0.99));
  }
}
/** A long prompt naming `names` places, different from `offset` on: a pasted document, not a question. */
const longPrompt = (names: number, offset: number) =>
  `Summarise the trips to ${Array.from({ length: names }, (_, i) => `Town${(i + offset).toString(36)}`).join(", then to ")}.`;
// A long prompt against another must cost milliseconds, not seconds: the judge reads names and words pairwise.
const longRows: string[][] = [];
for (const names of [1000, 3000]) {
  const src = { question: longPrompt(names, 0), embedding: unitVector() };
  const candidate: EvaluationCandidate = { question: longPrompt(names, names), answer: "answer", embedding: unitVector(), distance: 0.1 };
  const start = process.hrtime.bigint();
  await shipped.evaluation(src, candidate, { neighbours: [] });
  longRows.push([`${names.toLocaleString("en")} names against ${names.toLocaleString("en")} others`, (Number(process.hrtime.bigint() - start) / 1e6).toFixed(0)]);
}
const rows = runs.map(runName).map((name) => [name, us(median(results[name].p50)), us(median(results[name].p99))]);
/** What the vetoes add to a lookup's p50 as `judge` reads them (median over rounds of each round's difference). */
const addedBy = (layout: Layout, judge: Judge) => {
  const base = results[runName({ layout, judge: "preset without lexical vetoes" })];
  return median(results[runName({ layout, judge })].p50.map((p50, round) => p50 - base.p50[round]));
};
const added = {
  nearest: addedBy("nearest", "preset as the cache judges it (bound first)"),
  nearestReported: addedBy("nearest", "the same, a miss's nearest score reported"),
  nearestInFull: addedBy("nearest", "preset, every candidate judged in full"),
  window: addedBy("window", "preset as the cache judges it (bound first)"),
};
const share = (counts: Record<Layout, number>, layout: Layout) => `${((100 * counts[layout]) / (LOOKUPS * CANDIDATES)).toFixed(1)}%`;
const markdown = [
  `Judging one lookup's ${CANDIDATES} candidates (QQP report questions with the offline model's vectors, ${LOOKUPS.toLocaleString("en")} lookups, median of ${ROUNDS} rounds; ` +
    "`npm run bench:judge`). As the cache judges them, the lexical vetoes add " +
    `**${us(added.nearest)} µs** to a lookup's p50 with its nearest candidates (${us(added.nearestReported)} µs where a miss's nearest score is reported, ` +
    `${us(added.nearestInFull)} µs if every candidate were judged in full), and ${us(added.window)} µs with candidates read a lookup ago (target: at most 1 ms). ` +
    `The vetoes were read for ${share(judgedInFull, "nearest")} of the nearest candidates (${share(judgedInFullReported, "nearest")} with misses reported) and ` +
    `${share(judgedInFull, "window")} of the others: the rest had a bound under the threshold (${preset.threshold}).`,
  "",
  table(["judge", "p50 µs / lookup", "p99 µs / lookup"], rows),
  "",
  table(["long prompt (shipped judge, one candidate)", "ms"], longRows),
].join("\n");
console.log(markdown);
writeGeneratedBlock(DOC, markdown, { begin: "<!-- judge-cost:begin (bench/judge-cost.ts writes this block) -->", end: "<!-- judge-cost:end -->" });
saveResult("judge-cost", { environment: environment(), lookups: LOOKUPS, rounds: ROUNDS, results, addedP50Us: added, judgedInFull, judgedInFullReported });
