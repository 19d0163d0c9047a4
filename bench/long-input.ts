/**
 * One long prompt must not stall everyone else's lookups (issue 19, item 4). The server over the default
 * preset (USE on a worker thread, SQLite, hnswlib, the guard) answers ordinary semantic lookups (POST /get of
 * questions not stored word for word: each one embedded, searched and judged) at a steady rate, alone and
 * while another client sends long messages at a steady rate through the proxy to a local fake model API:
 * - 200,000-character messages: over the question limit, so they skip the cache before embedding and go
 *   upstream (x-semcache: SKIP);
 * - 2,900-character messages: under the limit, so each is embedded whole; the worker's fair batching bounds
 *   how long a lookup waits behind one.
 * Rounds alternate the phases. The acceptance figure is the lookup p99 with 200,000-character messages minus
 * the baseline p99 (at most 50 ms).
 *
 *   npm run bench:long-input                                 # 3 rounds of 15 s per phase, ~3 minutes
 *   npm run bench:long-input -- --duration 5 --rounds 1     # a quick look (does not write the docs)
 */
import { mkdtempSync, rmSync } from "node:fs";
import { cpus, tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { startFakeOpenAI } from "../src/testing/index.js";
import { parseArgs } from "./lib/args.js";
import { writeGeneratedBlock } from "./lib/docs.js";
import { quantile, startTarget } from "./lib/http-load.js";
import { count, environment, RESULTS_DIR, table, writeJson } from "./lib/output.js";

const args = parseArgs();
const durationSeconds = args.number("duration", 15);
const rounds = args.number("rounds", 3);
const lookupRate = args.number("rate", 10);
const longRate = args.number("long-rate", 5);
const entries = args.number("entries", 300);
const quick = durationSeconds < 15 || rounds < 3;
const DOC = fileURLToPath(new URL("../docs/benchmarks.md", import.meta.url));
const MARKERS = { begin: "<!-- long-input:begin (bench/long-input.ts writes this section) -->", end: "<!-- long-input:end -->" };

const PHASES = [
  { name: "baseline", label: "lookups alone", longLength: 0 },
  { name: "long-200k", label: "with 200,000-character proxy messages", longLength: 200_000 },
  { name: "long-2900", label: "with 2,900-character proxy messages (embedded)", longLength: 2_900 },
] as const;

interface Measure {
  phase: string;
  round: number;
  lookups: number;
  p50: number;
  p99: number;
  max: number;
  longAnswered: number;
  longP50: number;
  longStatuses: Record<string, number>;
  failures: number;
}

const TOPICS = ["volcanoes", "bridges", "comets", "libraries"];
let asked = 0;
let longSent = 0;

/** A stored question reworded (never stored word for word), so each lookup embeds, searches and judges. */
function lookupPrompt(): string {
  const i = asked++;
  return `Tell me fact number ${i % entries} about how ${TOPICS[i % 4]} were historically made (asked ${i}).`;
}

/** A new long message each time (a repeated one would be answered from the cache once it is short enough to store). */
function longMessage(length: number): string {
  return `Message ${longSent++}: ${"please read this long report about rivers, ledgers and weather before answering. ".repeat(Math.ceil(length / 80))}`.slice(0, length);
}

/** Sends a lookup every 1/lookupRate s until `stop`; resolves with each answer's milliseconds. */
async function lookups(url: string, stop: Promise<void>): Promise<{ times: number[]; failures: number }> {
  const times: number[] = [];
  let failures = 0;
  let stopped = false;
  void stop.then(() => (stopped = true));
  const sent: Promise<void>[] = [];
  while (!stopped) {
    const started = performance.now();
    sent.push(
      fetch(`${url}/get`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ prompt: lookupPrompt() }) })
        .then(async (response) => {
          await response.arrayBuffer();
          if (response.ok) times.push(performance.now() - started);
          else failures++;
        })
        .catch(() => void failures++),
    );
    await new Promise((resolve) => setTimeout(resolve, 1000 / lookupRate));
  }
  await Promise.all(sent);
  return { times, failures };
}

/** Sends a proxy message of `length` characters every 1/longRate s until `stop` (none for length 0). */
async function longMessages(url: string, length: number, stop: Promise<void>) {
  const times: number[] = [];
  const statuses: Record<string, number> = {};
  let failures = 0;
  let stopped = false;
  void stop.then(() => (stopped = true));
  const send = async () => {
    const body = JSON.stringify({ model: "gpt-4o", messages: [{ role: "user", content: longMessage(length) }] });
    const started = performance.now();
    try {
      const response = await fetch(`${url}/v1/chat/completions`, { method: "POST", headers: { "content-type": "application/json", authorization: "Bearer sk-bench" }, body });
      await response.arrayBuffer();
      if (!response.ok) failures++;
      else times.push(performance.now() - started);
      const status = response.headers.get("x-semcache") ?? String(response.status);
      statuses[status] = (statuses[status] ?? 0) + 1;
    } catch {
      failures++;
    }
  };
  const sent: Promise<void>[] = [];
  while (length > 0 && !stopped) {
    sent.push(send());
    await new Promise((resolve) => setTimeout(resolve, 1000 / longRate));
  }
  await Promise.all(sent);
  return { times, statuses, failures };
}

async function measure(url: string, phase: (typeof PHASES)[number], round: number): Promise<Measure> {
  let finish!: () => void;
  const finished = new Promise<void>((resolve) => (finish = resolve));
  const long = longMessages(url, phase.longLength, finished);
  const looked = lookups(url, finished);
  setTimeout(finish, durationSeconds * 1000);
  const [{ times, failures }, longRun] = await Promise.all([looked, long]);
  const sorted = Float64Array.from(times).sort();
  const measured: Measure = {
    phase: phase.name,
    round,
    lookups: times.length,
    p50: quantile(sorted, 0.5),
    p99: quantile(sorted, 0.99),
    max: sorted[sorted.length - 1] ?? Number.NaN,
    longAnswered: longRun.times.length,
    longP50: quantile(Float64Array.from(longRun.times).sort(), 0.5),
    longStatuses: longRun.statuses,
    failures: failures + longRun.failures,
  };
  console.log(
    `${phase.name.padEnd(10)} round ${round}: ${times.length} lookups, p50 ${measured.p50.toFixed(1)} ms, p99 ${measured.p99.toFixed(1)} ms, max ${measured.max.toFixed(1)} ms; ` +
      `${measured.longAnswered} long answered (p50 ${measured.longP50.toFixed(0)} ms, ${JSON.stringify(measured.longStatuses)}); ${measured.failures} failures`,
  );
  return measured;
}

const upstream = await startFakeOpenAI({ streamDelayMs: 0 });
const dir = mkdtempSync(join(tmpdir(), "semcache-bench-long-"));
const running = await startTarget("semcache", ["--kind", "semcache", "--dir", dir, "--entries", String(entries), "--upstream", upstream.baseURL]);
const measures: Measure[] = [];
try {
  // Warm-up: the model's first batches and the server's first requests are slower.
  await measure(running.url, PHASES[0], 0);
  for (let round = 1; round <= rounds; round++) for (const phase of PHASES) measures.push(await measure(running.url, phase, round));
} finally {
  await running.stop();
  await upstream.close();
  rmSync(dir, { recursive: true, force: true });
}

const mean = (values: number[]) => values.reduce((sum, value) => sum + value, 0) / values.length;
const baselineP99 = mean(measures.filter((m) => m.phase === "baseline").map((m) => m.p99));
const rows = PHASES.map(({ name, label }) => {
  const own = measures.filter((m) => m.phase === name);
  const p99 = mean(own.map((m) => m.p99));
  const statuses = Object.entries(own.reduce<Record<string, number>>((all, m) => {
    for (const [status, n] of Object.entries(m.longStatuses)) all[status] = (all[status] ?? 0) + n;
    return all;
  }, {})).map(([status, n]) => `${count(n)} ${status}`);
  return [
    label,
    count(mean(own.map((m) => m.lookups))),
    mean(own.map((m) => m.p50)).toFixed(1),
    `${p99.toFixed(1)} (${own.map((m) => m.p99.toFixed(1)).join(" / ")})`,
    name === "baseline" ? "-" : `${p99 - baselineP99 >= 0 ? "+" : ""}${(p99 - baselineP99).toFixed(1)}`,
    Math.max(...own.map((m) => m.max)).toFixed(1),
    name === "baseline" ? "-" : statuses.join(", "),
    name === "baseline" ? "-" : mean(own.map((m) => m.longP50)).toFixed(0),
    String(own.reduce((sum, m) => sum + m.failures, 0)),
  ];
});
const env = environment();
const report = `## Long prompts and everyone else's lookups

\`npm run bench:long-input\` on ${env.date.slice(0, 10)}, Node ${env.node}, ${env.platform}, ${cpus()[0]?.model.trim() ?? "unknown CPU"} (${cpus().length} cores, shared with the clients and the fake model API).
The default preset (USE on a worker thread) with ${count(entries)} stored questions answers POST /get of a reworded question (embedded, searched,
judged) every ${(1000 / lookupRate).toFixed(0)} ms, alone and while another client sends a long message through /v1/chat/completions to a local
fake model API every ${(1000 / longRate).toFixed(0)} ms. ${durationSeconds} s per phase after a warm-up, ${rounds} round(s) alternating the phases (means of rounds). "p99 vs baseline" is the acceptance
figure (at most +50 ms); "long answered" counts the proxy's answers over all rounds by x-semcache status.

${table(["phase", "lookups", "p50 ms", "p99 ms (each round)", "p99 vs baseline ms", "max ms", "long answered", "long p50 ms", "failures"], rows)}`;

console.log(`\n${report}\n`);
writeJson(join(RESULTS_DIR, quick ? "quick" : "", "long-input.json"), { env, durationSeconds, rounds, lookupRate, longRate, entries, measures });
if (quick) console.log("a quick run: docs/benchmarks.md left as it is");
else {
  writeGeneratedBlock(DOC, report, MARKERS);
  console.log(`wrote ${DOC}`);
}
