import { createHash } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { EmbeddingFunction, EmbeddingInput } from "../../src/core/contracts/embedding.js";
import type { CacheStats } from "../../src/server/cache-service.js";
import { isWholeCacheStats, type NamespaceStatsView } from "../../src/server/client.js";

/** A fresh temporary folder, removed by the returned cleanup. */
export function tempDir(prefix = "semcache-test-"): { path: string; cleanup: () => void } {
  const path = mkdtempSync(join(tmpdir(), prefix));
  return { path, cleanup: () => rmSync(path, { recursive: true, force: true }) };
}

/** A fresh temporary folder for each test of the calling block, removed after the test; `path` is the current one. */
export function tempDirEachTest(prefix: string): { readonly path: string } {
  let current: ReturnType<typeof tempDir> | undefined;
  beforeEach(() => {
    current = tempDir(prefix);
  });
  afterEach(() => {
    current?.cleanup();
    current = undefined;
  });
  return {
    get path() {
      if (current === undefined) throw new Error("tempDirEachTest: the folder exists only while a test runs");
      return current.path;
    },
  };
}

/**
 * A small deterministic text embedding for tests: hashed bag of words (256-d, three buckets a word, so two
 * words practically never get the same vector). Texts sharing most words are close; texts sharing none are
 * nearly orthogonal. Counts its calls.
 */
export class BagOfWordsEmbedding implements EmbeddingFunction {
  readonly dimension = 256;
  calls = 0;

  async embed(data: EmbeddingInput): Promise<Float32Array> {
    this.calls++;
    const text = typeof data === "string" ? data : Buffer.from(data).toString("utf8");
    const vector = new Float32Array(this.dimension);
    for (const word of text.toLowerCase().match(/[a-z0-9]+/g) ?? []) {
      const digest = createHash("md5").update(word).digest();
      vector[digest[0]] += 1;
      vector[digest[1]] += 0.5;
      vector[digest[2]] += 0.25;
    }
    return vector;
  }
}

/** A model stand-in: answers "answer to <prompt>" and counts its calls. */
export function countingModel(answer: (prompt: string) => string = (p) => `answer to ${p}`, delayMs = 5) {
  const model = {
    calls: 0,
    async call(prompt: string): Promise<string> {
      model.calls++;
      if (delayMs > 0) await new Promise((resolve) => setTimeout(resolve, delayMs));
      return answer(prompt);
    },
  };
  return model;
}

/** The whole cache's figures from CacheClient.stats() (an admin's view, or in process); fails on a tenant's view. */
export function wholeStats(stats: CacheStats | NamespaceStatsView): CacheStats {
  if (!isWholeCacheStats(stats)) throw new Error(`expected the whole cache's figures, got namespace "${stats.namespace}"'s`);
  return stats;
}
