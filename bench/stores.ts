/**
 * Put and hit latency and throughput per store kind at 10k entries, side by side in one run: each combination in a
 * fresh Node process (bench/store-scenario.ts), then one table printed, written to bench/results/stores.json and
 * into docs/benchmarks.md between its markers.
 *   npm run bench:stores                                   # every combination that can run here (~5-6 minutes)
 *   npm run bench:stores -- --only lancedb,chroma --size 2000   # a quick look (does not write the docs)
 * The server scalar stores run when their URL is set (SEMCACHE_POSTGRES_URL, SEMCACHE_MYSQL_URL,
 * SEMCACHE_REDIS_URL, or the SEMCACHE_TEST_* ones .ci/run sets); Chroma's bundled server is started here.
 */
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { cpus, tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type { ManagerFactoryOptions } from "../src/presets/manager-factory.js";
import { startChromaServer, type ChromaServer } from "../tests/helpers/local-services.js";
import { parseArgs } from "./lib/args.js";
import { runScenario } from "./lib/child.js";
import { writeGeneratedBlock } from "./lib/docs.js";
import { secondsSince } from "./lib/measure.js";
import { environment, RESULTS_DIR, writeJson } from "./lib/output.js";
import { storesTable, type StoreResult } from "./lib/stores-report.js";

interface Combination {
  label: string;
  kinds: string;
  options?: (services: Services) => ManagerFactoryOptions;
  /** Why it cannot run here, when it cannot. */
  missing?: () => string | undefined;
}

interface Services {
  chroma?: ChromaServer;
}

const MARKERS = { begin: "<!-- stores:begin (bench/stores.ts writes this section) -->", end: "<!-- stores:end -->" };
const run = randomBytes(3).toString("hex");
const urlOf = (kind: string): string | undefined => process.env[`SEMCACHE_${kind}_URL`] ?? process.env[`SEMCACHE_TEST_${kind}_URL`];
const needs = (kind: string) => () => (urlOf(kind) ? undefined : `set SEMCACHE_${kind}_URL`);

const COMBINATIONS: Combination[] = [
  { label: "sqlite + usearch (embedded default)", kinds: "sqlite,usearch" },
  { label: "sqlite + hnswlib", kinds: "sqlite,hnswlib" },
  { label: "memory + hnswlib", kinds: "memory,hnswlib" },
  {
    label: "postgres + hnswlib",
    kinds: "postgres,hnswlib",
    options: () => ({ scalarParams: { url: urlOf("POSTGRES"), tablePrefix: `bench_${run}_` } }),
    missing: needs("POSTGRES"),
  },
  {
    label: "mysql (MariaDB) + hnswlib",
    kinds: "mysql,hnswlib",
    options: () => ({ scalarParams: { url: urlOf("MYSQL"), tablePrefix: `bench_${run}_` } }),
    missing: needs("MYSQL"),
  },
  {
    label: "redis + hnswlib",
    kinds: "redis,hnswlib",
    options: () => ({ scalarParams: { url: urlOf("REDIS"), namespace: `bench_${run}` } }),
    missing: needs("REDIS"),
  },
  { label: "sqlite + pgvector (PGlite, in process)", kinds: "sqlite,pgvector", options: () => ({ vectorParams: { embedded: true } }) },
  { label: "sqlite + lancedb (embedded)", kinds: "sqlite,lancedb" },
  {
    label: "sqlite + chroma (local server)",
    kinds: "sqlite,chroma",
    options: ({ chroma }) => ({ vectorParams: { url: chroma!.url, collection: `bench_${run}` } }),
  },
];

const args = parseArgs();
const size = args.number("size", 10_000);
const only = args.value("only")?.split(",");
const selected = COMBINATIONS.filter((combination) => !only || only.some((name) => combination.kinds.includes(name)));
const writesDocs = size === 10_000 && !only;
const started = process.hrtime.bigint();
const services: Services = {};
const chromaDir = mkdtempSync(join(tmpdir(), "semcache-bench-chroma-"));
const results: StoreResult[] = [];
const skipped: string[] = [];
try {
  if (selected.some((combination) => combination.kinds.includes("chroma"))) services.chroma = await startChromaServer(chromaDir);
  for (const combination of selected) {
    const reason = combination.missing?.();
    if (reason) {
      skipped.push(`${combination.label}: not run (${reason})`);
      continue;
    }
    const options = JSON.stringify(combination.options?.(services) ?? {});
    const scenarioArgs = ["--kinds", combination.kinds, "--label", combination.label, "--options", options, "--size", String(size)];
    // One combination failing (a server gone) is reported, not the end of the run.
    try {
      results.push(await runScenario<StoreResult>("store-scenario.ts", scenarioArgs));
    } catch (error) {
      skipped.push(`${combination.label}: failed (${(error as Error).message.split("\n")[0]})`);
    }
  }
} finally {
  await services.chroma?.stop();
  rmSync(chromaDir, { recursive: true, force: true });
}

const env = environment();
const minutes = secondsSince(started) / 60;
const block = [
  `\`npm run bench:stores\` on ${env.date.slice(0, 10)}, Node ${env.node}, ${env.platform}, ${cpus()[0]?.model.trim() ?? "unknown CPU"} ` +
    `(${cpus().length} cores), ${minutes.toFixed(1)} minutes in all. ${size.toLocaleString("en")} clustered 512-d entries imported ` +
    "with `importData` (pages of 1,000), then 500 single `put()` calls and 1,000 near-duplicate `get()` calls (cosine 0.95 " +
    "to a stored entry under a new text, so the vector search answers), each awaited and timed; threshold 0.9, topK 5.",
  storesTable(results),
  ...(skipped.length > 0 ? [skipped.map((line) => `- ${line}`).join("\n")] : []),
].join("\n\n");
console.log(`\n# Store kinds\n\n${block}\n`);
writeJson(join(RESULTS_DIR, "stores.json"), { env, size, results, skipped });
if (writesDocs) {
  const docs = join(fileURLToPath(import.meta.url), "..", "..", "docs", "benchmarks.md");
  writeGeneratedBlock(docs, `## Store kinds side by side\n\n${block}`, MARKERS);
  console.log(`wrote ${docs}`);
}
console.log(`wrote ${join(RESULTS_DIR, "stores.json")}`);
