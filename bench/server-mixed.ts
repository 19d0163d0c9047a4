/**
 * HTTP server under mixed load: exact hits from autocannon while another client sends new questions (misses,
 * each embedded by the model) at a steady rate. Compares the default preset, whose model runs on a worker
 * thread, with the same preset running the model on the event loop's thread, where every embedding stalls
 * the hits in flight. Rounds alternate the targets.
 *
 *   npm run bench:server-mixed                              # 3 rounds of 10 s per target, ~3 minutes
 *   npm run bench:server-mixed -- --duration 5 --rounds 1   # a quick look (does not write the docs)
 */
import { mkdtempSync, rmSync } from "node:fs";
import { cpus, tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "./lib/args.js";
import { writeGeneratedBlock } from "./lib/docs.js";
import { load, quantile, startTarget } from "./lib/http-load.js";
import { count, environment, RESULTS_DIR, table, writeJson } from "./lib/output.js";
import { benchPrompt } from "./lib/server-target.js";

const args = parseArgs();
const duration = args.number("duration", 10);
const rounds = args.number("rounds", 3);
const connections = args.number("connections", 8);
const entries = args.number("entries", 1000);
const missRate = args.number("miss-rate", 10);
const quick = duration < 10 || rounds < 3;
const DOC = fileURLToPath(new URL("../docs/benchmarks.md", import.meta.url));
const MARKERS = { begin: "<!-- server-mixed:begin (bench/server-mixed.ts writes this section) -->", end: "<!-- server-mixed:end -->" };

const TARGETS = [
  { kind: "semcache", label: "default preset (model on a worker thread)" },
  { kind: "semcache-in-process", label: "same preset, model on the event loop's thread" },
] as const;

interface Measure {
  kind: string;
  round: number;
  hitsPerSecond: number;
  hitP50: number;
  hitP99: number;
  missesAnswered: number;
  missP50: number;
  failures: number;
}

/** Sends a new question every 1/missRate s until `stop` resolves; resolves with each answer's milliseconds. */
async function missLoad(url: string, round: number, stop: Promise<void>): Promise<{ times: number[]; failures: number }> {
  const times: number[] = [];
  let failures = 0;
  let stopped = false;
  void stop.then(() => (stopped = true));
  const sent: Promise<void>[] = [];
  for (let i = 0; !stopped; i++) {
    const prompt = `A question never asked before, number ${i} of round ${round}: how do ${["otters", "glaciers", "violins"][i % 3]} age?`;
    const started = performance.now();
    sent.push(
      fetch(`${url}/get`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ prompt }) })
        .then(async (response) => {
          const body = (await response.json()) as { answer: string | null };
          if (response.ok && body.answer === null) times.push(performance.now() - started);
          else failures++;
        })
        .catch(() => void failures++),
    );
    await new Promise((resolve) => setTimeout(resolve, 1000 / missRate));
  }
  await Promise.all(sent);
  return { times, failures };
}

async function measure(target: (typeof TARGETS)[number], round: number): Promise<Measure> {
  const dir = mkdtempSync(join(tmpdir(), "semcache-bench-mixed-"));
  const running = await startTarget(target.kind, ["--kind", target.kind, "--dir", dir, "--entries", String(entries)]);
  let next = 0;
  const hitBody = () => JSON.stringify({ prompt: benchPrompt(next++ % entries) });
  try {
    await load(running.url, { seconds: 3, connections, path: "/get", body: hitBody }); // warm-up
    let finish!: () => void;
    const finished = new Promise<void>((resolve) => (finish = resolve));
    const misses = missLoad(running.url, round, finished);
    const hits = await load(running.url, { seconds: duration, connections, path: "/get", body: hitBody });
    finish();
    const { times, failures } = await misses;
    const measured: Measure = {
      kind: target.kind,
      round,
      hitsPerSecond: hits.result.requests.average,
      hitP50: hits.p50,
      hitP99: hits.p99,
      missesAnswered: times.length,
      missP50: quantile(Float64Array.from(times).sort(), 0.5),
      failures: failures + hits.result.non2xx + hits.result.errors,
    };
    console.log(`${target.kind.padEnd(20)} round ${round}: ${count(measured.hitsPerSecond)} hits/s, hit p50 ${measured.hitP50.toFixed(2)} ms, p99 ${measured.hitP99.toFixed(2)} ms; ${times.length} misses, p50 ${measured.missP50.toFixed(1)} ms`);
    return measured;
  } finally {
    await running.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

const measures: Measure[] = [];
for (let round = 1; round <= rounds; round++) for (const target of TARGETS) measures.push(await measure(target, round));

const mean = (values: number[]) => values.reduce((sum, value) => sum + value, 0) / values.length;
const rows = TARGETS.map(({ kind, label }) => {
  const own = measures.filter((m) => m.kind === kind);
  return [
    label,
    count(mean(own.map((m) => m.hitsPerSecond))),
    mean(own.map((m) => m.hitP50)).toFixed(2),
    `${mean(own.map((m) => m.hitP99)).toFixed(2)} (${own.map((m) => m.hitP99.toFixed(1)).join(" / ")})`,
    count(mean(own.map((m) => m.missesAnswered))),
    mean(own.map((m) => m.missP50)).toFixed(1),
    String(own.reduce((sum, m) => sum + m.failures, 0)),
  ];
});
const env = environment();
const report = `## HTTP server under mixed load

\`npm run bench:server-mixed\` on ${env.date.slice(0, 10)}, Node ${env.node}, ${env.platform}, ${cpus()[0]?.model.trim() ?? "unknown CPU"} (${cpus().length} cores, shared with the load generator).
autocannon, ${connections} connections, ${duration} s per target after a 3 s warm-up, ${rounds} round(s) alternating the targets (means of rounds): POST /get
cycling over ${count(entries)} stored prompts (exact hits) while another client sends a new question (a miss: embedded, searched, judged)
every ${(1000 / missRate).toFixed(0)} ms. Latency is each response's own time; "failures" counts non-2xx answers, connection errors and misses that hit.

${table(["target", "hits/s", "hit p50 ms", "hit p99 ms (each round)", "misses answered", "miss p50 ms", "failures"], rows)}`;

console.log(`\n${report}\n`);
writeJson(join(RESULTS_DIR, quick ? "quick" : "", "server-mixed.json"), { env, duration, rounds, connections, entries, missRate, measures });
if (quick) console.log("a quick run: docs/benchmarks.md left as it is");
else {
  writeGeneratedBlock(DOC, report, MARKERS);
  console.log(`wrote ${DOC}`);
}
