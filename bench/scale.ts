/**
 * The embedded vector index at scale: hnswlib (HnswIndex as shipped) against UsearchIndex at f32, f16 and i8, on
 * sentence-like clustered and on random 512-d unit vectors. Each data set is made once (with its exact top-1 per
 * query, the truth for recall), then each index runs in a fresh process (bench/scale-variant.ts).
 *   npm run bench:scale                          # 100,000 entries, both data sets, every index
 *   npm run bench:scale -- --entries 1000000 --data sentence --indexes usearch-f16,usearch-i8
 *   npm run bench:scale -- --entries 1000000 --data sentence --indexes usearch-i8 --connectivity 32   # a denser graph
 *   npm run bench:scale -- --data sentence --indexes usearch-i8,usearch-i8-thread   # in process against in its own thread
 *   npm run bench:scale -- --data sentence --indexes usearch-i8-thread,usearch-i8-shards2   # one thread against two shards
 *   npm run bench:scale -- --write-docs          # also writes the table into docs/benchmarks.md
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "./lib/args.js";
import { bruteForceTop1 } from "./lib/brute-force.js";
import { runScenario } from "./lib/child.js";
import { writeGeneratedBlock } from "./lib/docs.js";
import { secondsSince } from "./lib/measure.js";
import { environment, RESULTS_DIR, table, writeJson } from "./lib/output.js";
import { sampleIndices, seededRandom } from "./lib/random.js";
import { nearDuplicates, sentenceLikeVectors, storedVectors, type VectorSet } from "./lib/vectors.js";
import type { ScaleResult, ScaleTruth } from "./scale-variant.js";

const args = parseArgs();
const entries = args.number("entries", 100_000);
const queryCount = args.number("queries", 1000);
const dataKinds = (args.value("data") ?? "sentence,random").split(",");
const indexes = (args.value("indexes") ?? "hnswlib,usearch-f32,usearch-f16,usearch-i8").split(",");
const extra = ["expansion-search", "also-expansion-search", "connectivity", "expansion-add"].flatMap((name) => (args.value(name) === undefined ? [] : [`--${name}`, args.value(name)!]));
const started = process.hrtime.bigint();

function dataSet(kind: string): VectorSet {
  if (kind === "sentence") return sentenceLikeVectors(entries, 41);
  if (kind === "random") return storedVectors("random", entries, 41);
  throw new Error(`--data takes sentence and random, got ${kind}`);
}

/** Writes the vectors, queries and exact answers for one data kind into `dir`. */
async function prepare(kind: string, dir: string): Promise<void> {
  const stored = dataSet(kind);
  const sources = sampleIndices(queryCount, entries, seededRandom(43));
  const queries = nearDuplicates(stored, sources, 47);
  const top1 = await bruteForceTop1(stored, queries);
  const cosine = Array.from(top1, (row, q) => {
    const a = stored.row(row);
    const b = queries.row(q);
    let dot = 0;
    for (let i = 0; i < a.length; i++) dot += a[i] * b[i];
    return dot;
  });
  writeFileSync(join(dir, "stored.f32"), stored.data);
  writeFileSync(join(dir, "queries.f32"), queries.data);
  const truth: ScaleTruth = { data: kind, entries, queries: queryCount, top1: Array.from(top1), cosine };
  writeFileSync(join(dir, "truth.json"), JSON.stringify(truth));
  const own = Array.from(top1).filter((row, q) => row === sources[q]).length;
  console.error(`${kind}: ${entries.toLocaleString("en")} entries ready; ${own} of ${queryCount} queries' nearest is their source`);
}

const results: ScaleResult[] = [];
for (const kind of dataKinds) {
  const dir = mkdtempSync(join(tmpdir(), "semcache-scale-"));
  try {
    await prepare(kind, dir);
    for (const index of indexes) results.push(await runScenario<ScaleResult>("scale-variant.ts", ["--dir", dir, "--index", index, ...extra]));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const num = (value: number, digits = 0) => value.toLocaleString("en", { maximumFractionDigits: digits, minimumFractionDigits: digits });
const times = (value: number, base: number | undefined) => (base === undefined ? "" : ` (${(value / base).toFixed(2)}x)`);
const rows = results.map((r) => {
  const base = results.find((b) => b.index === "hnswlib" && b.data === r.data);
  return [
    r.data,
    r.index,
    `${num(r.buildRowsPerSecond)}${times(r.buildRowsPerSecond, base?.buildRowsPerSecond)}`,
    num(r.buildStallMaxMs),
    `${num(r.searchWhileBuildingP50Ms, 1)} / ${num(r.searchWhileBuildingMaxMs, 1)}`,
    `${num(r.rssPerEntry)} B${times(r.rssPerEntry, base?.rssPerEntry)}`,
    `${num(r.fileBytesPerEntry)} B`,
    num(r.saveSeconds, 2),
    `${num(r.loadSeconds, 2)} (${num(r.loadStallMaxMs)})`,
    r.viewSeconds === undefined ? "-" : `${num(r.viewSeconds, 3)} (${num(r.viewSearchP50Us ?? NaN)} us)`,
    `${num(r.searchP50Us)} / ${num(r.searchP99Us)}`,
    num(r.recallAt1, 3),
    r.recallAtK === undefined ? "-" : num(r.recallAtK, 3),
    `${num(r.distanceErrorP99, 4)} / ${num(r.distanceErrorMax, 4)}`,
  ];
});
/** The same saved indexes searched at other candidate list sizes (--also-expansion-search), when asked for. */
function alsoTable(): string[] {
  const rows = results.flatMap((r) =>
    (r.alsoExpansionSearch ?? []).map((a) => [r.data, r.index, num(a.expansionSearch), num(a.recallAt1, 3), num(a.recallAtK, 3), `${num(a.searchP50Us)} / ${num(a.searchP99Us)}`]),
  );
  if (rows.length === 0) return [];
  return ["The same saved indexes, memory-mapped, searched at other candidate list sizes:", table(["data", "index", "expansionSearch", "recall@1", "in top 5", "search p50 / p99 us"], rows)];
}

const env = environment();
const minutes = secondsSince(started) / 60;
const passed = process.argv.slice(2).filter((arg) => arg !== "--write-docs");
const command = passed.length === 0 ? "npm run bench:scale" : `npm run bench:scale -- ${passed.join(" ")}`;
const block = [
  `\`${command}\` on ${env.date.slice(0, 10)}, Node ${env.node}, ${env.platform}, ${minutes.toFixed(1)} minutes in all; ` +
    `${num(entries)} entries of 512-d unit vectors, ${num(queryCount)} near-duplicate queries (cosine 0.95 to a stored entry) at topK 5. ` +
    "Ratios in brackets are to hnswlib on the same data.",
  table(
    ["data", "index", "build rows/s (batches of 1,000)", "longest stall while building, ms", "search while building p50 / max, ms", "RSS per entry", "file per entry", "save s", "load s (longest stall, ms)", "view s (search p50)", "search p50 / p99 us", "recall@1", "in top 5", "distance error p99 / max"],
    rows,
  ),
  ...alsoTable(),
].join("\n\n");
console.log(`\n${block}\n`);
writeJson(join(RESULTS_DIR, `scale-${entries}.json`), { env, results });
if (args.flag("write-docs")) {
  const docs = join(fileURLToPath(import.meta.url), "..", "..", "docs", "benchmarks.md");
  writeGeneratedBlock(docs, block, {
    begin: "<!-- bench:scale:begin: generated by `npm run bench:scale -- --write-docs`, edit outside these markers -->",
    end: "<!-- bench:scale:end -->",
  });
  console.log(`wrote ${docs}`);
}
