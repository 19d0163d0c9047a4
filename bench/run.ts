/**
 * Runs every benchmark, each scenario in a fresh Node process (one scenario's heap never skews another's),
 * then prints the report tables, writes them as JSON to bench/results/ and into docs/benchmarks.md.
 *   npm run bench              # 10k and 100k entries, ~10 minutes on 2 cores
 *   npm run bench -- --quick   # 10k only, no driver comparison: writes bench/results/quick/, not the docs
 *   npm run bench -- --scale   # only the vector index at scale (bench/scale.ts; its options pass through)
 */
import { spawnSync } from "node:child_process";
import { cpus } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "./lib/args.js";
import { runScenario } from "./lib/child.js";
import { writeGeneratedBlock } from "./lib/docs.js";
import { secondsSince } from "./lib/measure.js";
import { environment, RESULTS_DIR, writeJson } from "./lib/output.js";
import { driversTable, exactHitTable, exactRows, importRows, importTable, memoryRows, memoryTable, semanticTable, sweepTable } from "./lib/report.js";
import type { DriversResult, ExactResult, SemanticResult } from "./lib/types.js";

if (parseArgs().flag("scale")) {
  // Tens of minutes at 100k entries: run on request only, never as part of the default run.
  const passed = process.argv.slice(2).filter((arg) => arg !== "--scale");
  const child = spawnSync(process.execPath, ["--import", "tsx", join(fileURLToPath(import.meta.url), "..", "scale.ts"), ...passed], { stdio: "inherit" });
  process.exit(child.status ?? 1);
}

const quick = parseArgs().flag("quick");
const largest = quick ? 10_000 : 100_000;
const sizes = quick ? [10_000] : [10_000, 100_000];
const resultsDir = quick ? join(RESULTS_DIR, "quick") : RESULTS_DIR;
const docsPath = join(fileURLToPath(import.meta.url), "..", "..", "docs", "benchmarks.md");
const started = process.hrtime.bigint();

const exact: ExactResult[] = [];
for (const size of sizes) {
  for (const store of ["memory", "sqlite"]) exact.push(await runScenario<ExactResult>("exact-store.ts", ["--store", store, "--size", String(size)]));
}
const ablation: ExactResult[] = [];
for (const stub of ["touch", "touch,report"]) {
  ablation.push(await runScenario<ExactResult>("exact-store.ts", ["--store", "sqlite", "--size", String(largest), "--stub", stub]));
}
const semanticRuns: Array<[string, number]> = sizes.flatMap((size) => [["random", size] as [string, number], ["clustered", size] as [string, number]]);
const semantic: SemanticResult[] = [];
for (const [data, size] of semanticRuns) {
  semantic.push(await runScenario<SemanticResult>("semantic-store.ts", ["--data", data, "--size", String(size)]));
}
const drivers = quick ? undefined : await runScenario<DriversResult>("sqlite-drivers.ts", []);

const atLargest = <T extends { size: number }>(results: readonly T[]) => results.filter((r) => r.size === largest);
const exactHit = exactRows([...atLargest(exact), ...atLargest(semantic).filter((r) => r.data === "random")]);
const sqliteDefault = exactRows(atLargest(exact).filter((r) => r.manager.includes("sqlite")));
const ablationRows = [...sqliteDefault, ...exactRows(ablation)];
const imports = importRows([...exact, ...semantic]);
const memory = memoryRows([...atLargest(exact), ...atLargest(semantic)]);
const env = environment();
const minutes = secondsSince(started) / 60;

const sections = [
  `Run with \`npm run bench${quick ? " -- --quick" : ""}\` on ${env.date.slice(0, 10)}, Node ${env.node}, ${env.platform}, ` +
    `${cpus()[0]?.model.trim() ?? "unknown CPU"}, ${minutes.toFixed(1)} minutes in all. ` +
    `${cpus().length} cores, numbers vary 20-40% run to run; ratios within one run hold.`,
  `### 1. Exact-match hit latency (${largest.toLocaleString("en")} entries)\n\n${exactHitTable(exactHit)}`,
  `Where the SQLite tail goes (ablation: the data manager's hit bookkeeping turned into no-ops):\n\n${exactHitTable(ablationRows)}`,
  `### 2. Semantic hit latency and top-1 recall (sqlite + hnswlib)\n\n${semanticTable(semantic)}`,
  `The same queries on the saved cache reopened with each \`ef\`:\n\n${sweepTable(semantic)}`,
  `### 3. Import throughput\n\n${importTable(imports)}`,
  `### 4. Memory per entry (${largest.toLocaleString("en")} entries, fresh process, RSS after a full GC)\n\n${memoryTable(memory)}`,
  ...(drivers
    ? [`### 5. SQLite drivers (${drivers.rows.toLocaleString("en")} rows, ${drivers.dimension}-d embeddings, SQLite ${drivers.sqliteVersion})\n\n${driversTable(drivers)}`]
    : []),
];
const block = sections.join("\n\n");
console.log(`\n# Benchmark report\n\n${block}\n`);

writeJson(join(resultsDir, "exact-hit.json"), { env, rows: exactHit, ablation: ablationRows, results: [...exact, ...ablation] });
writeJson(join(resultsDir, "semantic-hit.json"), { env, results: semantic });
writeJson(join(resultsDir, "import.json"), { env, rows: imports });
writeJson(join(resultsDir, "memory.json"), { env, rows: memory });
if (drivers) writeJson(join(resultsDir, "sqlite-drivers.json"), drivers);
if (!quick) {
  writeGeneratedBlock(docsPath, block);
  console.log(`wrote ${docsPath}`);
}
console.log(`wrote ${resultsDir}/{exact-hit,semantic-hit,import,memory${drivers ? ",sqlite-drivers" : ""}}.json`);
