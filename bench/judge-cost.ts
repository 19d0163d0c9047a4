/**
 * What the judge costs a semantic lookup: the preset's evaluation (the precision guard with its pair
 * network, blended with the cosine, weighed by the ambiguity share) scoring a lookup's 5 candidates, with
 * and without the lexical vetoes, side by side in one run. The questions are QQP report pairs (each query
 * against its partner and four other stored questions: new to the judge, as in a cache larger than its memo of
 * recent questions, or read a lookup ago, as a hot topic's); vectors are random unit vectors of the model's
 * dimension (the judge's cost does not depend on their values). Then one long prompt against another (1,000 and
 * 3,000 names each), which must cost milliseconds, not seconds.
 *
 *   npm run bench:judge [-- --lookups 4000 --rounds 3]
 *
 * Writes docs/benchmarks.md's judge-cost block and bench/results/judge-cost.json.
 */
import { fileURLToPath } from "node:url";
import { loadQqp, qqpSplits } from "./quality/data.js";
import { parseArgs } from "./lib/args.js";
import { writeGeneratedBlock } from "./lib/docs.js";
import { median } from "./lib/measure.js";
import { environment, saveResult, table, us } from "./lib/output.js";
import { PrecisionGuardEvaluation } from "../src/similarity/precision-guard.js";
import preset from "../src/similarity/preset-tuning.json" with { type: "json" };
import { UnambiguousEvaluation } from "../src/similarity/unambiguous.js";
import type { EvaluationCandidate } from "../src/core/contracts/evaluation.js";

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
const others = CANDIDATES - 1;
if (LOOKUPS * CANDIDATES > report.length) throw new RangeError(`--lookups: at most ${Math.floor(report.length / CANDIDATES)} (the QQP report split's questions)`);
const toCandidates = (stored: ReadonlyArray<{ text_a: string }>, i: number) =>
  stored.map((pair, k): EvaluationCandidate => ({ question: pair.text_a, answer: `answer ${i}.${k}`, embedding: unitVector(), distance: 0.1 + k * 0.02 }));
/**
 * The stored questions a lookup's candidates are: `new`, each one the judge has not read in this pass (a cache larger
 * than the judge's memo of 512 recent questions, where candidates rarely repeat); `recent`, each one a candidate of
 * five lookups in a row (a hot topic: the judge read it a lookup ago).
 */
const layouts = {
  new: report.slice(0, LOOKUPS).map((pair, i) => ({
    src: { question: pair.text_b, embedding: unitVector() },
    candidates: toCandidates([pair, ...report.slice(LOOKUPS + i * others, LOOKUPS + (i + 1) * others)], i),
  })),
  recent: report.slice(0, LOOKUPS).map((pair, i) => ({
    src: { question: pair.text_b, embedding: unitVector() },
    candidates: toCandidates([pair, ...report.slice(i + 1, i + CANDIDATES)], i),
  })),
};
type Layout = keyof typeof layouts;

const judges = {
  "preset, lexical vetoes (shipped)": new UnambiguousEvaluation({ evaluation: new PrecisionGuardEvaluation({ cosineWeight: preset.cosineWeight }), temperature: preset.temperature }),
  "preset without lexical vetoes": new UnambiguousEvaluation({
    evaluation: new PrecisionGuardEvaluation({ cosineWeight: preset.cosineWeight, lexicalVetoes: false }),
    temperature: preset.temperature,
  }),
};
type Judge = keyof typeof judges;

/** Microseconds per lookup (all its candidates judged against each other), sorted. */
async function timeLookups(judge: UnambiguousEvaluation, layout: Layout): Promise<Float64Array> {
  const lookups = layouts[layout];
  const times = new Float64Array(lookups.length);
  for (const [i, { src, candidates }] of lookups.entries()) {
    const start = process.hrtime.bigint();
    for (const [k, candidate] of candidates.entries()) await judge.evaluation(src, candidate, { neighbours: candidates.filter((_, j) => j !== k) });
    times[i] = Number(process.hrtime.bigint() - start) / 1000;
  }
  return times.sort();
}

const quantile = (sorted: Float64Array, q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
// A first pass loads the lexicon and warms the JIT; it is not counted.
for (const judge of Object.values(judges)) await timeLookups(judge, "recent");
const runs = (Object.keys(layouts) as Layout[]).flatMap((layout) => (Object.keys(judges) as Judge[]).map((judge) => ({ layout, judge })));
const runName = ({ layout, judge }: { layout: Layout; judge: Judge }) => `${judge}, ${layout === "new" ? "candidates new to the judge" : "candidates it read recently"}`;
const results = Object.fromEntries(runs.map((run) => [runName(run), { p50: [] as number[], p99: [] as number[] }])) as Record<string, { p50: number[]; p99: number[] }>;
for (let round = 0; round < ROUNDS; round++) {
  for (const run of runs) {
    const times = await timeLookups(judges[run.judge], run.layout);
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
  await judges["preset, lexical vetoes (shipped)"].evaluation(src, candidate, { neighbours: [] });
  longRows.push([`${names.toLocaleString("en")} names against ${names.toLocaleString("en")} others`, (Number(process.hrtime.bigint() - start) / 1e6).toFixed(0)]);
}
const rows = runs.map(runName).map((name) => [name, us(median(results[name].p50)), us(median(results[name].p99))]);
/** What the vetoes add to a lookup's p50 (median over rounds of each round's difference). */
const addedBy = (layout: Layout) => {
  const base = results[runName({ layout, judge: "preset without lexical vetoes" })];
  return median(results[runName({ layout, judge: "preset, lexical vetoes (shipped)" })].p50.map((p50, round) => p50 - base.p50[round]));
};
const added = { new: addedBy("new"), recent: addedBy("recent") };
const markdown = [
  `Judging one lookup's ${CANDIDATES} candidates (QQP report questions, ${LOOKUPS.toLocaleString("en")} lookups, median of ${ROUNDS} rounds; ` +
    "`npm run bench:judge`). The lexical vetoes add " +
    `**${us(added.new)} µs** to a lookup's p50 when its candidates are new to the judge, and ${us(added.recent)} µs when it read them a lookup ago (target: at most 1 ms).`,
  "",
  table(["judge", "p50 µs / lookup", "p99 µs / lookup"], rows),
  "",
  table(["long prompt (shipped judge, one candidate)", "ms"], longRows),
].join("\n");
console.log(markdown);
writeGeneratedBlock(DOC, markdown, { begin: "<!-- judge-cost:begin (bench/judge-cost.ts writes this block) -->", end: "<!-- judge-cost:end -->" });
saveResult("judge-cost", { environment: environment(), lookups: LOOKUPS, rounds: ROUNDS, results, addedP50Us: added });
