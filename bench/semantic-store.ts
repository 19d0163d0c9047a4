/**
 * The embedded semantic cache (managerFactory("sqlite,hnswlib")) through the public path with precomputed
 * 512-d embeddings: import rate and memory per entry (RSS after a full GC, in this fresh process), exact
 * repeats, near-duplicate queries (cosine 0.95 to one stored vector) with top-1 recall against an exact
 * brute-force scan, then the same queries with each `ef` of a sweep on the saved cache reopened.
 *   npx tsx --expose-gc bench/semantic-store.ts [--size 100000] [--data random|clustered] [--queries 1000]
 *     [--sweep 64,128,256,512] [--samples 20000]
 * Prints markdown tables and writes bench/results/semantic-<data>-<size>.json (or --json <file>).
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { get } from "../src/core/api.js";
import { Cache } from "../src/presets/cache.js";
import { managerFactory } from "../src/presets/manager-factory.js";
import { HnswIndex } from "../src/stores/vector/hnsw.js";
import { DistanceEvaluation } from "../src/similarity/distance.js";
import { parseArgs } from "./lib/args.js";
import { bruteForceTop1 } from "./lib/brute-force.js";
import { measure, memoryDelta, memorySnapshot, secondsSince } from "./lib/measure.js";
import { environment, saveResult } from "./lib/output.js";
import { PrecomputedEmbedding } from "./lib/precomputed-embedding.js";
import { sampleIndices, seededRandom } from "./lib/random.js";
import { exactHitTable, exactRows, importRows, importTable, memoryRows, memoryTable, semanticTable, sweepTable } from "./lib/report.js";
import { exactHits, importEntries } from "./lib/scenario.js";
import { answerText, questionText, queryText } from "./lib/texts.js";
import type { SemanticQueryStats, SemanticResult } from "./lib/types.js";
import { DIMENSION, nearDuplicates, QUERY_COSINE, storedVectors, type DataKind, type VectorSet } from "./lib/vectors.js";

const MANAGER = 'managerFactory("sqlite,hnswlib")';
/** Below the queries' cosine (0.95), far above any other entry's (~0.2 random, ~0.5 clustered). */
const THRESHOLD = 0.9;
const TOP_K = 5;

const args = parseArgs();
const size = args.number("size", 100_000);
const data = (args.value("data") ?? "random") as DataKind;
if (data !== "random" && data !== "clustered") throw new Error(`--data must be random or clustered, got ${data}`);
const queryCount = args.number("queries", 1000);
const warmupCount = Math.min(200, queryCount);
const samples = args.number("samples", 20_000);
const sweep = (args.value("sweep") ?? "64,128,256,512").split(",").filter(Boolean).map(Number);

/** Near-duplicate queries: measured ones (texts 0..n-1) and warm-up ones, made from distinct entries. */
interface QuerySet {
  sources: number[];
  vectors: VectorSet;
  texts: string[];
}

function querySets(stored: VectorSet, embedding: PrecomputedEmbedding): { measured: QuerySet; warm: QuerySet } {
  const sources = sampleIndices(queryCount + warmupCount, size, seededRandom(17));
  const make = (picked: number[], offset: number): QuerySet => {
    const vectors = nearDuplicates(stored, picked, 29 + offset);
    const texts = picked.map((source, j) => queryText(offset + j, source));
    texts.forEach((text, j) => embedding.set(text, vectors.row(j)));
    return { sources: picked, vectors, texts };
  };
  return { measured: make(sources.slice(0, queryCount), 0), warm: make(sources.slice(queryCount), queryCount) };
}

async function openCache(dataDir: string, embedding: PrecomputedEmbedding, ef?: number): Promise<Cache> {
  return new Cache().init({
    embeddingFunc: embedding,
    dataManager: managerFactory("sqlite,hnswlib", { dataDir, vectorParams: { dimension: DIMENSION, ...(ef === undefined ? {} : { ef }) } }),
    similarityEvaluation: new DistanceEvaluation(),
    config: { similarityThreshold: THRESHOLD, topK: TOP_K },
  });
}

/** The ef the index searches with (read at run time, so "default" rows show the shipped value). */
function efOf(cache: Cache): number {
  const index = cache.dataManager.vector;
  if (!(index instanceof HnswIndex)) throw new Error("the semantic bench expects the hnswlib index");
  return index.ef;
}

/** The measured queries through get() (answers are scored after the brute-force scan), then the bare index search. */
async function runQueries(cache: Cache, measured: QuerySet, warm: QuerySet) {
  const answers: Array<string | null> = new Array(measured.texts.length);
  const warmup = warm.texts.length;
  const latency = await measure(
    measured.texts.length,
    async (j) => {
      answers[j] = await get(measured.texts[j], { cacheObj: cache });
    },
    { warmup, warm: (j) => get(warm.texts[j], { cacheObj: cache }) },
  );
  const manager = cache.dataManager;
  const search = await measure(measured.texts.length, (j) => manager.search(measured.vectors.row(j), TOP_K), {
    warmup,
    warm: (j) => manager.search(warm.vectors.row(j), TOP_K),
  });
  return { latency, search, answers };
}

function score(
  run: Awaited<ReturnType<typeof runQueries>>,
  sources: readonly number[],
  nearest: Int32Array,
  ef: number,
  defaultEf: boolean,
): SemanticQueryStats {
  const n = sources.length;
  const share = (test: (answer: string | null, j: number) => boolean) => run.answers.filter(test).length / n;
  return {
    ef,
    defaultEf,
    get: run.latency,
    search: run.search,
    hitRate: share((answer) => answer !== null),
    recall: share((answer, j) => answer === answerText(sources[j])),
    agreement: share((answer, j) => answer === answerText(nearest[j])),
  };
}

const dataDir = mkdtempSync(join(tmpdir(), "semcache-bench-semantic-"));
try {
  console.log(`\n## semantic cache: ${MANAGER}, ${size.toLocaleString("en")} ${data} entries, ${queryCount} near-duplicate queries`);
  let started = process.hrtime.bigint();
  const stored = storedVectors(data, size, data === "random" ? 1 : 2);
  const embedding = new PrecomputedEmbedding();
  for (let i = 0; i < size; i++) embedding.set(questionText(i), stored.row(i));
  const { measured, warm } = querySets(stored, embedding);
  console.log(`  data ready in ${secondsSince(started).toFixed(1)} s`);

  const cache = await openCache(dataDir, embedding);
  const before = await memorySnapshot();
  const imported = await importEntries(cache, size, true);
  const after = await memorySnapshot();
  const exactRepeat = await exactHits(cache, size, samples);
  const firstRun = await runQueries(cache, measured, warm);
  const ef = efOf(cache);
  cache.dataManager.hit = () => undefined;
  cache.dataManager.report = () => undefined;
  const withoutBookkeeping = (await runQueries(cache, measured, warm)).latency;
  started = process.hrtime.bigint();
  await cache.close();
  const saveSeconds = secondsSince(started);

  started = process.hrtime.bigint();
  const nearest = await bruteForceTop1(stored, measured.vectors);
  console.log(`  brute force over ${measured.texts.length} queries in ${secondsSince(started).toFixed(1)} s`);
  const semantic = score(firstRun, measured.sources, nearest, ef, true);

  const swept: SemanticQueryStats[] = [];
  for (const sweptEf of sweep) {
    started = process.hrtime.bigint();
    const reopened = await openCache(dataDir, embedding, sweptEf);
    const openSeconds = secondsSince(started);
    const run = await runQueries(reopened, measured, warm);
    swept.push({ ...score(run, measured.sources, nearest, efOf(reopened), false), openSeconds });
    await reopened.close();
  }

  const vectorBytes = DIMENSION * Float32Array.BYTES_PER_ELEMENT;
  const memory = memoryDelta(size, before, after);
  const result: SemanticResult = {
    scenario: "semantic",
    manager: MANAGER,
    data,
    size,
    queries: queryCount,
    queryCosine: QUERY_COSINE,
    threshold: THRESHOLD,
    topK: TOP_K,
    import: imported,
    memory: { ...memory, vectorBytes, beyondVectorPerEntry: memory.rssPerEntry - vectorBytes },
    exactRepeat,
    semantic,
    withoutBookkeeping,
    bruteForceRecall: measured.sources.filter((source, j) => nearest[j] === source).length / queryCount,
    saveSeconds,
    sweep: swept,
    env: environment(),
  };
  console.log(
    [semanticTable([result]), sweepTable([result]), exactHitTable(exactRows([result])), importTable(importRows([result])), memoryTable(memoryRows([result]))]
      .map((block) => `\n${block}`)
      .join("\n"),
  );
  saveResult(`semantic-${data}-${size}`, result, args.value("json"));
} finally {
  rmSync(dataDir, { recursive: true, force: true });
}
