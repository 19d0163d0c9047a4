/**
 * Quickstart: a semantic cache in front of a model call, on the embedded default (an offline sentence model,
 * an SQLite file and an in-process HNSW index: no service, no network, no key).
 * Run: npx tsx examples/quickstart.ts
 * In your project, import from "langchain-semcache" instead of "../src/index.js".
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { cached, initSimilarCache } from "../src/index.js";

// A stand-in for a slow model call (a local model, an SDK call...).
async function askModel(question: string): Promise<string> {
  await new Promise((resolve) => setTimeout(resolve, 300));
  return `(model) an answer to: ${question}`;
}

async function main() {
  const dataDir = mkdtempSync(join(tmpdir(), "semcache-quickstart-")); // use a folder of your own to keep the cache
  const cache = await initSimilarCache({ dataDir });
  const ask = cached(askModel, { requestOptions: { cacheObj: cache } });

  for (const question of [
    "How do I reset my password?",
    "How do I reset my password?", // exact repeat: answered before embedding
    "How can I reset my password?", // reworded: answered by similarity
    "What is the capital of France?", // different question: the model is called
  ]) {
    const started = performance.now();
    const answer = await ask(question);
    console.log(`${(performance.now() - started).toFixed(1).padStart(7)} ms  ${question.padEnd(32)} -> ${answer}`);
  }
  console.log("report:", { hits: cache.report.hits, misses: cache.report.misses });
  await cache.close();
  rmSync(dataDir, { recursive: true, force: true });
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
