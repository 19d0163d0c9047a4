/**
 * Quickstart: put a cache in front of a model call, on the embedded default (no service, no network).
 * Run: npx tsx examples/quickstart.ts
 * In your project, import from "langchain-semcache" instead of "../src/index.js".
 */
import { Cache, cached, get, managerFactory, put } from "../src/index.js";

// A stand-in for a slow model call (a local model, an SDK call...).
async function askModel(question: string): Promise<string> {
  await new Promise((resolve) => setTimeout(resolve, 300));
  return `(model) You asked: ${question}`;
}

async function main() {
  // 1. Zero config: an in-memory exact-match cache.
  const cache = await new Cache().init();
  const ask = cached(askModel, { requestOptions: { cacheObj: cache } });
  for (const question of ["What is a semantic cache?", "What is a semantic cache?"]) {
    const started = performance.now();
    const answer = await ask(question);
    console.log(`${(performance.now() - started).toFixed(1).padStart(6)} ms  ${answer}`);
  }
  console.log("report:", { hits: cache.report.hits, misses: cache.report.misses });

  // 2. The simple API on a persistent store: SQLite file + in-process HNSW index in ./semcache_data.
  const persistent = await new Cache().init({ dataManager: managerFactory("sqlite,hnswlib", { dataDir: "./semcache_data" }) });
  await put("Which port does the server use?", "8000 by default", { cacheObj: persistent });
  console.log("get:", await get("Which port does the server use?", { cacheObj: persistent }));
  console.log("miss:", await get("Something never stored", { cacheObj: persistent }));
  await persistent.close();
  await cache.close();
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
