/** One pass of queries through the real Cache pipeline, recording each query's best candidate at threshold 0. */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Cache } from "../../src/presets/cache.js";
import { runCached } from "../../src/core/pipeline.js";
import { managerFactory } from "../../src/presets/manager-factory.js";
import type { SimilarityEvaluation } from "../../src/core/contracts/evaluation.js";
import { PrecomputedEmbedding } from "../lib/precomputed-embedding.js";
import type { EmbeddingCache } from "./embedding-cache.js";

/** What a query got: the stored entry's index (its answer) and the normalised score, or null (nothing scored). */
export type Returned = { index: number; score: number } | null;

/** A cache holding `stored` (answer = index), queried once per evaluation. */
export class QualityCache {
  private constructor(
    private readonly cache: Cache,
    private readonly dir: string,
  ) {}

  static async open(stored: readonly string[], queries: readonly string[], vectors: EmbeddingCache): Promise<QualityCache> {
    const embedding = new PrecomputedEmbedding();
    for (const text of [...stored, ...queries]) embedding.set(text, vectors.require(text));
    const dir = mkdtempSync(join(tmpdir(), "semcache-quality-"));
    const cache = await new Cache().init({
      embeddingFunc: embedding,
      dataManager: managerFactory("sqlite,hnswlib", { dataDir: dir, maxSize: stored.length * 2 }),
      config: { similarityThreshold: 0, topK: 5 },
    });
    await cache.importData(stored, stored.map((_, i) => String(i)));
    return new QualityCache(cache, dir);
  }

  /** Each query's returned entry under `evaluation`; every threshold's result follows from the scores. */
  async run(queries: readonly string[], evaluation: SimilarityEvaluation): Promise<Returned[]> {
    this.cache.similarityEvaluation = evaluation;
    const out: Returned[] = [];
    for (const prompt of queries) {
      out.push(
        await runCached<Returned>(
          { prompt },
          { cacheObj: this.cache, searchOnly: true },
          { name: "quality", strict: true, call: async () => null, answerOf: () => null, fromCache: (hit) => ({ index: Number(hit.answer), score: hit.score }) },
        ),
      );
    }
    return out;
  }

  async close(): Promise<void> {
    await this.cache.close();
    rmSync(this.dir, { recursive: true, force: true });
  }
}
