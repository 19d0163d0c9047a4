/** Caches for the local-model adapter tests (Ollama, llama.cpp), closed after each test with the harness's closeAll. */
import { Cache, Config, DistanceEvaluation, managerFactory, type CacheInitOptions } from "../../src/index.js";
import { BagOfWordsEmbedding, tempDir } from "../helpers/fixtures.js";
import { defer } from "./openai/harness.js";

export { closeAll, collect, defer } from "./openai/harness.js";

/** Resolves when the fake server's request is aborted (the client closed its connection). */
export function aborted(signal: AbortSignal): Promise<void> {
  return signal.aborted ? Promise.resolve() : new Promise((resolve) => signal.addEventListener("abort", () => resolve(), { once: true }));
}

/** A cache closed after the test; `init` gets the test's temp folder. Default: an exact-match cache in memory. */
export async function newCache(init?: CacheInitOptions | ((dir: string) => CacheInitOptions)): Promise<Cache> {
  const dir = tempDir("semcache-local-models-");
  defer(dir.cleanup);
  const cache = new Cache();
  await cache.init(typeof init === "function" ? init(dir.path) : init);
  defer(() => cache.close());
  return cache;
}

/** A semantic cache: bag-of-words embeddings in SQLite and hnswlib, a hit from 0.8. */
export function semantic(dir: string): CacheInitOptions {
  return {
    embeddingFunc: new BagOfWordsEmbedding(),
    dataManager: managerFactory("sqlite,hnswlib", { dataDir: dir }),
    similarityEvaluation: new DistanceEvaluation(),
    config: new Config({ similarityThreshold: 0.8 }),
  };
}

/** A cache whose store fails every query once the test closes it (`cache.dataManager.scalar.close()`). */
export function sqliteOnly(onError: (error: Error) => void) {
  return (dir: string): CacheInitOptions => ({ dataManager: managerFactory("sqlite", { dataDir: dir }), onError });
}
