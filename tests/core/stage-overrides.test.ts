/**
 * A request's cacheContext overrides are resolved once into its stages: an override replaces the component
 * everywhere the request uses it, the evaluation's own view of the index included.
 */
import { jest } from "@jest/globals";
import { Cache, managerFactory, put, type EvaluationContext, type SimilarityEvaluation } from "../../src/index.js";
import { runCached } from "../../src/core/pipeline.js";
import type { VectorHit } from "../../src/core/contracts/vector-index.js";
import type { CacheRecord } from "../../src/core/types.js";
import { BagOfWordsEmbedding } from "../helpers/fixtures.js";

/** Scores every candidate 1, after searching the index the way the flow hands it over (as k-reciprocal does). */
class SearchingEvaluation implements SimilarityEvaluation {
  contexts: EvaluationContext[] = [];
  range() {
    return [0, 1] as const;
  }
  async evaluation(_src: unknown, cached: { embedding?: Float32Array }, context?: EvaluationContext) {
    this.contexts.push(context ?? {});
    if (cached.embedding) await context?.search?.(cached.embedding, 2);
    return 1;
  }
}

const caches: Cache[] = [];
afterEach(async () => {
  await Promise.all(caches.splice(0).map((c) => c.close()));
});

async function cacheWith(evaluation: SimilarityEvaluation) {
  const c = await new Cache().init({
    embeddingFunc: new BagOfWordsEmbedding(),
    dataManager: managerFactory("memory,flat", {}),
    similarityEvaluation: evaluation,
    config: { similarityThreshold: 0.5 },
  });
  caches.push(c);
  await put("alpha beta gamma", "greek", { cacheObj: c });
  return c;
}

const surface = { name: "t", call: async () => "model", answerOf: (a: string) => a, fromCache: (hit: { answer: string }) => hit.answer };

describe("per-request stage overrides", () => {
  it("a searchFunc answers the evaluation's search too, not only the candidate search", async () => {
    const evaluation = new SearchingEvaluation();
    const c = await cacheWith(evaluation);
    // The override finds the same entries, but not through the data manager's own search.
    const ownSearch = c.dataManager.search.bind(c.dataManager);
    const managerSearch = jest.spyOn(c.dataManager, "search");
    const searched: number[] = [];
    const searchFunc = async (vector: Float32Array, topK: number): Promise<VectorHit[]> => {
      searched.push(topK);
      return ownSearch(vector, topK);
    };
    // The key differs from the stored question, so the answer comes from the vector search, not the exact key.
    const answer = await runCached(
      { prompt: "alpha beta gamma delta" },
      { cacheObj: c, topK: 3, cacheContext: { searchFunc } },
      surface,
    );
    expect(answer).toBe("greek");
    // One search for the candidates (topK 3), one the evaluation made (topK 2): both through the override.
    expect(searched).toEqual([3, 2]);
    expect(managerSearch).not.toHaveBeenCalled();
  });

  it("without a searchFunc the evaluation searches the cache's own index", async () => {
    const evaluation = new SearchingEvaluation();
    const c = await cacheWith(evaluation);
    const managerSearch = jest.spyOn(c.dataManager, "search");
    expect(await runCached({ prompt: "alpha beta gamma delta" }, { cacheObj: c }, surface)).toBe("greek");
    expect(managerSearch.mock.calls.map((call) => call[1])).toEqual([c.config.topK, 2]);
  });

  it("a getScalarData override fetches the candidates, and a per-request embedding hides the cache's from the evaluation", async () => {
    const evaluation = new SearchingEvaluation();
    const c = await cacheWith(evaluation);
    const fetched: number[] = [];
    const getScalarData = async (id: number): Promise<CacheRecord | null> => {
      fetched.push(id);
      const record = await c.dataManager.getScalarData(id);
      return record && { ...record, answer: "from the override" };
    };
    const embedding = new BagOfWordsEmbedding();
    const answer = await runCached(
      { prompt: "alpha beta gamma delta" },
      { cacheObj: c, cacheContext: { getScalarData, embeddingFunc: (data: string | Uint8Array) => embedding.embed(data) } },
      surface,
    );
    expect(answer).toBe("from the override");
    expect(fetched).toHaveLength(1);
    expect(evaluation.contexts.at(-1)?.embeddingFunc).toBeUndefined();
    // Without the override the evaluation may reuse the cache's stored vectors.
    await runCached({ prompt: "alpha beta gamma epsilon" }, { cacheObj: c }, surface);
    expect(evaluation.contexts.at(-1)?.embeddingFunc).toBe(c.embeddingFunc);
  });
});
