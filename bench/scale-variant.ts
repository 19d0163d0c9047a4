/**
 * One vector index at scale, in its own process (bench/scale.ts runs one per variant): build from the data set in
 * --dir (written by scale.ts), then memory, save, load (and view), search latency and recall@1 against exact top-1.
 *   tsx bench/scale-variant.ts --dir <folder> --index usearch-i8 [--expansion-search 128] [--also-expansion-search 512,1024]
 *     [--connectivity 32] [--expansion-add 256] [--json out.json]
 * An index name ending in "-thread" (usearch-i8-thread) runs the usearch index in its own thread (ThreadedUsearchIndex),
 * one ending in "-shards<N>" (usearch-i8-shards2) spreads it over N shards, each in a thread of its own (ShardedIndex).
 * While building, a search every PROBE_EVERY_MS measures how long a request that needs the index waits.
 * --also-expansion-search (usearch): the saved index opened memory-mapped again at each of these candidate list
 * sizes, for recall and latency without building it again. --connectivity and --expansion-add (usearch) shape the
 * graph while building.
 */
import { readFileSync, readdirSync, rmSync, statSync } from "node:fs";
import { join } from "node:path";
import { monitorEventLoopDelay } from "node:perf_hooks";
import type { VectorIndex } from "../src/core/contracts/vector-index.js";
import { HnswIndex } from "../src/stores/vector/hnsw.js";
import { createVectorIndex } from "../src/stores/vector/kinds.js";
import { ThreadedUsearchIndex } from "../src/stores/vector/threaded-usearch-index.js";
import { UsearchIndex, type UsearchQuantization } from "../src/stores/vector/usearch-index.js";
import { parseArgs } from "./lib/args.js";
import { measure, memoryDelta, memorySnapshot, secondsSince } from "./lib/measure.js";
import { saveResult } from "./lib/output.js";
import { DIMENSION, VectorSet } from "./lib/vectors.js";

/** What scale.ts writes next to the vectors: each query's exact nearest row and its cosine. */
export interface ScaleTruth {
  data: string;
  entries: number;
  queries: number;
  top1: number[];
  cosine: number[];
}

export interface ScaleResult {
  index: string;
  data: string;
  entries: number;
  buildSeconds: number;
  buildRowsPerSecond: number;
  /** The event loop's longest wait while building: how long a server's other requests could stall. */
  buildStallMaxMs: number;
  /** A search started every PROBE_EVERY_MS while building: its wall time from the timer's due time, p50 and max. */
  searchWhileBuildingP50Ms: number;
  searchWhileBuildingMaxMs: number;
  /** The event loop's longest wait while the saved index loads. */
  loadStallMaxMs: number;
  rssPerEntry: number;
  fileBytesPerEntry: number;
  saveSeconds: number;
  loadSeconds: number;
  /** usearch only: opening the saved file memory-mapped. */
  viewSeconds?: number;
  viewSearchP50Us?: number;
  searchP50Us: number;
  searchP99Us: number;
  recallAt1: number;
  /**
   * The exact nearest among the topK results at all: what a cache needs, since it judges every candidate on its
   * exact distance (an index with rounded vectors may rank a near-tie first).
   */
  recallAtK: number;
  /** usearch with --also-expansion-search: recall and latency at other search-time candidate list sizes. */
  alsoExpansionSearch?: Array<{ expansionSearch: number; recallAt1: number; recallAtK: number; searchP50Us: number; searchP99Us: number }>;
  /** |reported distance - exact cosine distance| of the exact neighbour when found first: p99 and max. */
  distanceErrorP99: number;
  distanceErrorMax: number;
  gc: boolean;
}

const BATCH = 1000;
const TOP_K = 5;
/** Seldom enough that the probes' own searches take ~2% of the build at a million entries. */
const PROBE_EVERY_MS = 50;

const args = parseArgs();
const dir = args.value("dir");
const variant = args.value("index") ?? "usearch-i8";
if (dir === undefined) throw new Error("--dir <folder written by bench/scale.ts> is required");
const expansionSearch = args.value("expansion-search") === undefined ? undefined : args.number("expansion-search", 0);
const alsoExpansionSearch = (args.value("also-expansion-search") ?? "").split(",").filter(Boolean).map(Number);
if (alsoExpansionSearch.some((size) => !Number.isInteger(size) || size < 1)) throw new Error("--also-expansion-search takes positive integers, e.g. 512,1024");
// The graph's shape while building (UsearchIndex's defaults when not given: connectivity 32, expansionAdd 128).
const connectivity = args.value("connectivity") === undefined ? undefined : args.number("connectivity", 0);
const expansionAdd = args.value("expansion-add") === undefined ? undefined : args.number("expansion-add", 0);
for (const [name, given] of [["also-expansion-search", alsoExpansionSearch.length > 0], ["connectivity", connectivity !== undefined], ["expansion-add", expansionAdd !== undefined]] as const) {
  if (given && variant === "hnswlib") console.error(`  --${name} applies to usearch only: not for hnswlib`);
}

function readSet(file: string): VectorSet {
  const bytes = readFileSync(join(dir!, file));
  const set = new VectorSet(bytes.byteLength / 4 / DIMENSION);
  set.data.set(new Float32Array(bytes.buffer, bytes.byteOffset, bytes.byteLength / 4));
  return set;
}

const stored = readSet("stored.f32");
const queries = readSet("queries.f32");
const truth = JSON.parse(readFileSync(join(dir, "truth.json"), "utf8")) as ScaleTruth;
const indexDir = join(dir, `index-${variant}`);
rmSync(indexDir, { recursive: true, force: true });

function create(view = false, searchList = expansionSearch): VectorIndex {
  if (variant === "hnswlib") return new HnswIndex({ dimension: DIMENSION, path: indexDir });
  const threaded = variant.endsWith("-thread");
  const shards = Number(/-shards(\d+)$/.exec(variant)?.[1] ?? 1);
  const quantization = variant.replace(/^usearch-/, "").replace(/-(thread|shards\d+)$/, "") as UsearchQuantization;
  const options = { dimension: DIMENSION, path: indexDir, quantization, expansionSearch: searchList, connectivity, expansionAdd, view };
  if (shards > 1) return createVectorIndex("usearch", { ...options, shards });
  return threaded ? new ThreadedUsearchIndex(options) : new UsearchIndex(options);
}

/** Searches `target` every PROBE_EVERY_MS until stopped; each wait counts from when its timer was due. */
function probeSearches(target: VectorIndex): { stop(): Promise<number[]> } {
  const waits: number[] = [];
  let stopped = false;
  const running = new Set<Promise<unknown>>();
  let sent = 0;
  // Node schedules an interval's next run from when its callback ran: that run was due PROBE_EVERY_MS later.
  let lastRun = performance.now();
  const timer = setInterval(() => {
    if (stopped) return;
    const start = lastRun + PROBE_EVERY_MS;
    lastRun = performance.now();
    const probe = target.search(queries.row(sent++ % queries.count), TOP_K).then(() => waits.push(performance.now() - start));
    running.add(probe);
    void probe.finally(() => running.delete(probe));
  }, PROBE_EVERY_MS);
  return {
    async stop() {
      stopped = true;
      clearInterval(timer);
      await Promise.all(running);
      return waits.sort((a, b) => a - b);
    },
  };
}

async function loadStall(op: () => Promise<unknown>): Promise<number> {
  const stalls = monitorEventLoopDelay({ resolution: 1 });
  stalls.enable();
  await op();
  // A stall is recorded when the histogram's timer runs late: let it run once after the op.
  await new Promise((resolve) => setTimeout(resolve, 5));
  stalls.disable();
  return stalls.max / 1e6;
}

/** The bytes of the files in `path` and its folders (a sharded index keeps one folder a shard). */
function folderBytes(path: string): number {
  return readdirSync(path, { withFileTypes: true }).reduce(
    (sum, entry) => sum + (entry.isDirectory() ? folderBytes(join(path, entry.name)) : statSync(join(path, entry.name)).size),
    0,
  );
}

async function timed(op: () => Promise<unknown>): Promise<number> {
  const start = process.hrtime.bigint();
  await op();
  return secondsSince(start);
}

const before = await memorySnapshot();
const index = create();
await index.init();
const buildStart = process.hrtime.bigint();
// Resolution 1 ms: the histogram's max is a stall plus up to one resolution.
const stalls = monitorEventLoopDelay({ resolution: 1 });
stalls.enable();
// Probes start once the index has an entry (an empty index answers without searching).
let probes: ReturnType<typeof probeSearches> | undefined;
const buildSeconds = await timed(async () => {
  for (let from = 0; from < stored.count; from += BATCH) {
    const items = [];
    for (let i = from; i < Math.min(stored.count, from + BATCH); i++) items.push({ id: i + 1, vector: stored.row(i) });
    await index.add(items);
    probes ??= probeSearches(index);
    if (from % 100_000 === 0 && from > 0) console.error(`  ${variant}: ${from.toLocaleString("en")} rows, ${secondsSince(buildStart).toFixed(0)} s`);
  }
});
stalls.disable();
const probeWaits = (await probes?.stop()) ?? [];
const memory = memoryDelta(stored.count, before, await memorySnapshot());

async function searchAll(target: VectorIndex): Promise<{ p50: number; p99: number; recall: number; recallAtK: number; errors: number[] }> {
  const firsts: Array<{ id: number; distance: number } | undefined> = new Array(queries.count);
  let foundInTopK = 0;
  const stats = await measure(queries.count, async (q) => {
    const hits = await target.search(queries.row(q), TOP_K);
    firsts[q] = hits[0];
    if (hits.some((hit) => hit.id === truth.top1[q] + 1)) foundInTopK++;
  }, { warmup: 100, warm: (q) => target.search(queries.row(q % queries.count), TOP_K) });
  let found = 0;
  const errors: number[] = [];
  firsts.forEach((hit, q) => {
    if (hit?.id !== truth.top1[q] + 1) return;
    found++;
    errors.push(Math.abs(hit.distance - (1 - truth.cosine[q])));
  });
  errors.sort((a, b) => a - b);
  return { p50: stats.p50, p99: stats.p99, recall: found / queries.count, recallAtK: foundInTopK / queries.count, errors };
}

const searched = await searchAll(index);
const saveSeconds = await timed(() => index.flush());
const fileBytesPerEntry = folderBytes(indexDir) / stored.count;
await index.close();

const loaded = create();
let loadSeconds = 0;
const loadStallMaxMs = await loadStall(async () => (loadSeconds = await timed(() => loaded.init())));
if ((await loaded.count()) !== stored.count) throw new Error(`${variant}: loaded ${await loaded.count()} of ${stored.count} entries`);
await loaded.close();

let viewSeconds: number | undefined;
let viewSearchP50Us: number | undefined;
if (variant !== "hnswlib") {
  const viewed = create(true);
  viewSeconds = await timed(() => viewed.init());
  viewSearchP50Us = (await searchAll(viewed)).p50;
  await viewed.close();
}
const also: NonNullable<ScaleResult["alsoExpansionSearch"]> = [];
if (variant !== "hnswlib") {
  for (const size of alsoExpansionSearch) {
    const viewed = create(true, size);
    await viewed.init();
    const { p50, p99, recall, recallAtK } = await searchAll(viewed);
    also.push({ expansionSearch: size, recallAt1: recall, recallAtK, searchP50Us: p50, searchP99Us: p99 });
    await viewed.close();
  }
}
rmSync(indexDir, { recursive: true, force: true });

const at = (sorted: number[], q: number) => sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * q))] ?? NaN;
const result: ScaleResult = {
  index: variant,
  data: truth.data,
  entries: stored.count,
  buildSeconds,
  buildRowsPerSecond: stored.count / buildSeconds,
  buildStallMaxMs: stalls.max / 1e6,
  searchWhileBuildingP50Ms: at(probeWaits, 0.5),
  searchWhileBuildingMaxMs: probeWaits.at(-1) ?? NaN,
  loadStallMaxMs,
  rssPerEntry: memory.rssPerEntry,
  fileBytesPerEntry,
  saveSeconds,
  loadSeconds,
  viewSeconds,
  viewSearchP50Us,
  searchP50Us: searched.p50,
  searchP99Us: searched.p99,
  recallAt1: searched.recall,
  recallAtK: searched.recallAtK,
  alsoExpansionSearch: also.length > 0 ? also : undefined,
  distanceErrorP99: at(searched.errors, 0.99),
  distanceErrorMax: searched.errors.at(-1) ?? NaN,
  gc: memory.gc,
};
console.error(`  ${variant} on ${truth.data}: ${JSON.stringify(result)}`);
saveResult(`scale-${variant}-${truth.data}`, result, args.value("json"));
