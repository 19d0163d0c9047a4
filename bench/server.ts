/**
 * HTTP server benchmark: /get exact-hit throughput and latency with autocannon, against the server
 * (buildServer over the offline semantic preset, and over an exact-match store) and, in the same run, a bare
 * Fastify route returning a fixed body. Each target runs in its own process; rounds alternate the targets so
 * drift hits them alike. Goal: >= 60% of the bare route's throughput on exact match, p99 under 2x.
 *
 *   npm run bench:server                                   # 5 rounds of 10 s per target, ~6 minutes
 *   npm run bench:server -- --duration 5 --rounds 1        # a quick look (does not write the docs)
 */
import { mkdtempSync, rmSync } from "node:fs";
import { cpus, tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "./lib/args.js";
import { writeGeneratedBlock } from "./lib/docs.js";
import { load, startTarget, type Load, type RunningTarget } from "./lib/http-load.js";
import { count, environment, RESULTS_DIR, table, writeJson } from "./lib/output.js";
import { benchPrompt } from "./lib/server-target.js";

const args = parseArgs();
const duration = args.number("duration", 10);
const rounds = args.number("rounds", 5);
const connections = args.number("connections", 8);
const entries = args.number("entries", 1000);
const quick = duration < 10 || rounds < 5;
const DOC = new URL("../docs/benchmarks.md", import.meta.url);
const BEGIN = "<!-- server:begin (bench/server.ts writes this section) -->";
const END = "<!-- server:end -->";

const TARGETS = [
  { name: "bare", kind: "bare", label: "bare Fastify route, fixed body" },
  { name: "semcache", kind: "semcache", label: "semcache serve, default preset (USE + SQLite + hnswlib), exact repeats" },
  { name: "exact", kind: "exact", label: "semcache serve, exact-match SQLite store" },
  { name: "no-bookkeeping", kind: "semcache", stub: "touch,report", label: "default preset, hit bookkeeping off (ablation: no last-access/hit-count writes, no report rows)" },
  { name: "bookkeeping-1s", kind: "semcache", bookkeepingMs: 1000, label: "default preset, bookkeeping written every 1 s (the default before 2026-11-24; now 5 s)" },
] as const;
type Target = (typeof TARGETS)[number];
type Name = Target["name"];

interface Measure {
  name: Name;
  round: number;
  requestsPerSecond: number;
  p50: number;
  p99: number;
  non2xx: number;
  errors: number;
  /** The server's own count (semcache targets): every request must be a hit. */
  hits?: number;
  misses?: number;
}

/** Starts a target process and resolves with its URL and a stop function. */
function startServer(target: Target, dir: string): Promise<RunningTarget> {
  const stub = "stub" in target ? ["--stub", target.stub] : [];
  const bookkeeping = "bookkeepingMs" in target ? ["--bookkeeping-ms", String(target.bookkeepingMs)] : [];
  return startTarget(target.name, ["--kind", target.kind, "--dir", dir, "--entries", String(entries), ...stub, ...bookkeeping]);
}

/** Exact hits only: the load cycles over the stored prompts. */
function hitLoad(url: string, seconds: number): Promise<Load> {
  let next = 0;
  return load(url, { seconds, connections, path: "/get", body: () => JSON.stringify({ prompt: benchPrompt(next++ % entries) }) });
}

async function measure(target: Target, round: number): Promise<Measure> {
  const dir = mkdtempSync(join(tmpdir(), "semcache-bench-server-"));
  const running = await startServer(target, dir);
  const { name } = target;
  try {
    await hitLoad(running.url, 3); // warm-up: JIT, SQLite page cache, connections
    const before = name === "bare" ? undefined : await stats(running.url);
    const { result, p50, p99 } = await hitLoad(running.url, duration);
    const after = name === "bare" ? undefined : await stats(running.url);
    const measured: Measure = {
      name,
      round,
      requestsPerSecond: result.requests.average,
      p50,
      p99,
      non2xx: result.non2xx,
      errors: result.errors,
    };
    if (before && after) {
      measured.hits = after.cache.hits - before.cache.hits;
      measured.misses = after.cache.misses - before.cache.misses;
    }
    console.log(`${name.padEnd(14)} round ${round}: ${count(measured.requestsPerSecond)} req/s, p50 ${p50.toFixed(3)} ms, p99 ${p99.toFixed(3)} ms${measured.misses === undefined ? "" : `, ${count(measured.hits ?? 0)} hits, ${measured.misses} misses`}`);
    return measured;
  } finally {
    await running.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

async function stats(url: string): Promise<{ cache: { hits: number; misses: number } }> {
  return (await (await fetch(`${url}/stats`)).json()) as { cache: { hits: number; misses: number } };
}

const measures: Measure[] = [];
for (let round = 1; round <= rounds; round++) for (const target of TARGETS) measures.push(await measure(target, round));

const mean = (values: number[]) => values.reduce((sum, value) => sum + value, 0) / values.length;
const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = sorted.length >> 1;
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
};
/**
 * A target against the bare route of the same round, then the median over rounds: other tenants' load on
 * this machine comes and goes between rounds, and one disturbed round must not decide the verdict.
 */
const versusBare = (name: Name, metric: (m: Measure) => number) =>
  median(measures.filter((m) => m.name === name).map((m) => metric(m) / metric(measures.find((b) => b.name === "bare" && b.round === m.round) ?? m)));
const summary = TARGETS.map(({ name, label }) => {
  const own = measures.filter((m) => m.name === name);
  return {
    name,
    label,
    requestsPerSecond: mean(own.map((m) => m.requestsPerSecond)),
    p50: mean(own.map((m) => m.p50)),
    p99: mean(own.map((m) => m.p99)),
    throughputShare: versusBare(name, (m) => m.requestsPerSecond),
    p99Ratio: versusBare(name, (m) => m.p99),
    failures: own.reduce((sum, m) => sum + m.non2xx + m.errors + (m.misses ?? 0), 0),
  };
});
const bare = summary[0];
const perRound = (name: Name) => measures.filter((m) => m.name === name).map((m) => count(m.requestsPerSecond)).join(" / ");
const rows = summary.map((s) => [
  s.label,
  `${count(s.requestsPerSecond)}${rounds > 1 ? ` (${perRound(s.name)})` : ""}`,
  s.p50.toFixed(2),
  s.p99.toFixed(2),
  s === bare ? "-" : `${(100 * s.throughputShare).toFixed(0)}%`,
  s === bare ? "-" : `${s.p99Ratio.toFixed(2)}x`,
  String(s.failures),
]);
const semcache = summary[1];
const { throughputShare, p99Ratio } = semcache;
const verdict =
  `Goal (default preset vs the bare route): throughput >= 60% -> ${(100 * throughputShare).toFixed(0)}% (${throughputShare >= 0.6 ? "met" : "NOT met"}); ` +
  `p99 under 2x -> ${p99Ratio.toFixed(2)}x (${p99Ratio < 2 ? "met" : "NOT met"}).`;
const env = environment();
const report = `## HTTP server

\`npm run bench:server\` on ${env.date.slice(0, 10)}, Node ${env.node}, ${env.platform}, ${cpus()[0]?.model.trim() ?? "unknown CPU"} (${cpus().length} cores; the
load generator shares them with the server). autocannon, ${connections} connections, ${duration} s per target after a 3 s warm-up,
${rounds} round(s) alternating the targets (req/s and latency: means of rounds; ratios: each round against its own bare run, median of rounds); POST /get cycling over ${count(entries)} stored prompts, so every request is
an exact hit (the "failures" column counts non-2xx answers, connection errors and cache misses: it must be 0). Each target is a
separate process with logging off; the semcache targets run the built package's \`buildServer\` (dist/) as \`semcache serve\`
does (no API keys).

${table(["target", "req/s (each round)", "p50 ms", "p99 ms", "throughput vs bare (median of rounds)", "p99 vs bare (median of rounds)", "failures"], rows)}

Latency is each 2xx response's own time as autocannon's clients measure it (send to last byte, microsecond resolution;
autocannon's own histogram floors to whole milliseconds). When other work shares the machine, rounds differ widely (see the per-round figures): compare targets within one run only.

${verdict}`;

console.log(`\n${report}\n`);
writeJson(join(RESULTS_DIR, quick ? "quick" : "", "server.json"), { env, duration, rounds, connections, entries, measures, summary });
if (quick) console.log("a quick run: docs/benchmarks.md left as it is");
else {
  writeGeneratedBlock(fileURLToPath(DOC), report, { begin: BEGIN, end: END });
  console.log(`wrote ${fileURLToPath(DOC)}`);
}
