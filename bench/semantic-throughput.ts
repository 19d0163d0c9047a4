/**
 * "The cache adds almost nothing" (issue 22, item 4): the server's semantic lookups a second against the offline
 * model's own texts a second, on the same machine, in one run. Every lookup is a new question, so each one is
 * embedded, searched and judged (the whole semantic path; nothing is answered from the exact key or the
 * embedding memo). The model is measured in this process on the pool the server uses (one worker per core, at
 * most 4), as one call of many texts (an import: its best batching) and as many concurrent calls of one text
 * (the way a server's requests reach it). Then `semcache serve`'s code (the built package, the default preset,
 * `--entries` stored) serves `/get` to `--connections` connections. Rounds alternate the two, so a noisy machine
 * slows both alike.
 *
 *   npm run bench:semantic                                # 3 rounds, 15 s of load each after 30 s of warm-up, ~5 minutes
 *   npm run bench:semantic -- --rounds 1 --duration 5     # a quick look
 *   npm run bench:semantic -- --warm-up 2                 # seconds of load before each side is timed (default 30)
 */
import { mkdtempSync, rmSync } from "node:fs";
import { cpus, tmpdir } from "node:os";
import { join } from "node:path";
import { UniversalSentenceEncoderEmbeddings } from "../src/embeddings/use.js";
import { DEFAULT_USE_WORKERS, stopUseWorkers, useWorkers } from "../src/embeddings/use-worker-pool.js";
import { parseArgs } from "./lib/args.js";
import { load, startTarget } from "./lib/http-load.js";
import { median } from "./lib/measure.js";
import { environment, RESULTS_DIR, table, writeJson } from "./lib/output.js";
import { questionText } from "./lib/texts.js";

const args = parseArgs();
const rounds = args.number("rounds", 3);
const seconds = args.number("duration", 15);
const connections = args.number("connections", 16);
const entries = args.number("entries", 1000);
const textCount = args.number("texts", 1024);
// Both sides run this long before they are timed: each round starts new workers on both sides, and a fresh
// server's lookups a second climb for ~40 s (152 to ~185 over eight 8-s loads), its model's for its first few
// hundred texts (docs/benchmarks.md, 2026-12-01). Timed cold, the model's concurrent rate read ~15% low.
const warmUpSeconds = args.number("warm-up", 30);

interface Round {
  modelBatchedPerSecond: number;
  modelConcurrentPerSecond: number;
  serverLookupsPerSecond: number;
  serverP50Ms: number;
  serverP99Ms: number;
}

/** `connections` callers embedding one text at a time, until `ms` have passed or `count` texts are embedded; returns how many were. */
async function concurrently(model: UniversalSentenceEncoderEmbeddings, ms: number, text: (i: number) => string, count = Infinity): Promise<number> {
  const until = performance.now() + ms;
  let next = 0;
  await Promise.all(
    Array.from({ length: connections }, async () => {
      while (next < count && performance.now() < until) await model.embedQuery(text(next++));
    }),
  );
  return next;
}

/** The model alone: texts a second for one call of `textCount` texts, and for `connections` callers of one text each. */
async function modelRates(round: number): Promise<Pick<Round, "modelBatchedPerSecond" | "modelConcurrentPerSecond">> {
  const model = new UniversalSentenceEncoderEmbeddings({ worker: true, workers: DEFAULT_USE_WORKERS });
  await model.init();
  // The pool grows under load (a call of more than one batch starts the next worker): grow it to its size before
  // timing, as its loading is not the model's speed.
  const pool = useWorkers("UniversalSentenceEncoderEmbeddings", DEFAULT_USE_WORKERS);
  do {
    await model.embedDocuments(Array.from({ length: 2 * model.batchSize }, (_, i) => `warm-up text ${round} ${i}`));
    await pool.grown();
  } while (pool.size < DEFAULT_USE_WORKERS);
  await concurrently(model, warmUpSeconds * 1000, (i) => questionText(3_000_000 * (round + 1) + i));
  const texts = Array.from({ length: textCount }, (_, i) => questionText(1_000_000 * (round + 1) + i));
  let started = performance.now();
  await model.embedDocuments(texts);
  const modelBatchedPerSecond = textCount / ((performance.now() - started) / 1000);
  started = performance.now();
  const embedded = await concurrently(model, Infinity, (i) => `${texts[i]} again`, textCount);
  const modelConcurrentPerSecond = embedded / ((performance.now() - started) / 1000);
  await stopUseWorkers();
  return { modelBatchedPerSecond, modelConcurrentPerSecond };
}

/** The server: new questions to /get from `connections` connections for `seconds`. */
async function serverRate(round: number): Promise<Pick<Round, "serverLookupsPerSecond" | "serverP50Ms" | "serverP99Ms">> {
  const dir = mkdtempSync(join(tmpdir(), "semcache-semantic-"));
  const server = await startTarget("semcache", ["--kind", "semcache", "--dir", dir, "--entries", String(entries)]);
  try {
    let asked = 0;
    const body = () => JSON.stringify({ prompt: questionText(2_000_000 * (round + 1) + asked++) });
    // The same warm-up as the model's above (its pool also grows under load).
    await load(server.url, { seconds: warmUpSeconds, connections, path: "/get", body });
    const measured = await load(server.url, { seconds, connections, path: "/get", body });
    return { serverLookupsPerSecond: measured.result["2xx"] / seconds, serverP50Ms: measured.p50, serverP99Ms: measured.p99 };
  } finally {
    await server.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

const measured: Round[] = [];
for (let round = 0; round < rounds; round++) {
  // Alternate which goes first, so a drift in the machine's load hits both.
  const model = round % 2 === 0 ? await modelRates(round) : undefined;
  const server = await serverRate(round);
  const result = { ...(model ?? (await modelRates(round))), ...server };
  measured.push(result);
  console.error(
    `round ${round + 1}/${rounds}: model ${result.modelBatchedPerSecond.toFixed(0)} texts/s batched, ${result.modelConcurrentPerSecond.toFixed(0)} concurrent; ` +
      `server ${result.serverLookupsPerSecond.toFixed(0)} lookups/s`,
  );
}

const mid = (pick: (round: Round) => number) => median(measured.map(pick));
const rows = [
  ["the model alone, one call of many texts (texts/s)", mid((r) => r.modelBatchedPerSecond).toFixed(0)],
  [`the model alone, ${connections} concurrent calls of one text (texts/s)`, mid((r) => r.modelConcurrentPerSecond).toFixed(0)],
  [`the server, new questions to /get from ${connections} connections (lookups/s)`, mid((r) => r.serverLookupsPerSecond).toFixed(0)],
  ["server lookup latency p50 / p99 (ms)", `${mid((r) => r.serverP50Ms).toFixed(1)} / ${mid((r) => r.serverP99Ms).toFixed(1)}`],
  ["server / model batched, per round (goal: >= 0.90)", measured.map((r) => (r.serverLookupsPerSecond / r.modelBatchedPerSecond).toFixed(2)).join(", ")],
  ["server / model concurrent, per round", measured.map((r) => (r.serverLookupsPerSecond / r.modelConcurrentPerSecond).toFixed(2)).join(", ")],
];
console.log(`Median of ${rounds} rounds, ${cpus().length} cores, pool of ${DEFAULT_USE_WORKERS} workers, ${entries} entries stored, ${seconds} s of load a round.\n`);
console.log(table(["measure", "value"], rows));
writeJson(join(RESULTS_DIR, "semantic-throughput.json"), { environment: environment(), rounds: measured, connections, entries, seconds });
