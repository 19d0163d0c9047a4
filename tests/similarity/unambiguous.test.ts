import { load } from "@langchain/core/load";
import { get, put } from "../../src/core/api.js";
import { Cache } from "../../src/presets/cache.js";
import { ValidationError } from "../../src/core/errors.js";
import { managerFactory } from "../../src/presets/manager-factory.js";
import { DistanceEvaluation } from "../../src/similarity/distance.js";
import type { EvaluationCandidate, SimilarityEvaluation } from "../../src/core/contracts/evaluation.js";
import { UnambiguousEvaluation } from "../../src/similarity/unambiguous.js";
import { syntheticPair, testSimilarityEvaluation } from "../../src/testing/evaluation-contract.js";
import { BagOfWordsEmbedding } from "../helpers/fixtures.js";

testSimilarityEvaluation({
  name: "UnambiguousEvaluation(DistanceEvaluation)",
  create: () => new UnambiguousEvaluation(),
  identical: () => syntheticPair("what is the weather today in paris", "what is the weather today in paris"),
  different: () => syntheticPair("what is the weather today in paris", "how do i bake bread"),
});

/** A candidate at cosine similarity `similarity` to the query (through its search distance). */
const candidate = (question: string, similarity: number, answer = `answer to ${question}`): EvaluationCandidate => ({
  question,
  answer,
  distance: 1 - similarity,
});

describe("UnambiguousEvaluation", () => {
  const query = { question: "how do i install numpy" };
  const evaluation = new UnambiguousEvaluation({ temperature: 0.02 });
  const score = (cached: EvaluationCandidate, neighbours: EvaluationCandidate[]) => evaluation.evaluation(query, cached, { neighbours });

  it("keeps the inner score when the candidate has no rival", async () => {
    expect(await score(candidate("install numpy", 0.9), [])).toBeCloseTo(0.9, 6);
    expect(await evaluation.evaluation(query, candidate("install numpy", 0.9))).toBeCloseTo(0.9, 6);
  });

  it("halves the score of a candidate with an equally near rival, and keeps a clear winner's", async () => {
    const windows = candidate("install numpy on windows", 0.9);
    const mac = candidate("install numpy on mac", 0.9);
    expect(await score(windows, [mac])).toBeCloseTo(0.45, 6);
    // 0.2 nearer at temperature 0.02: the rival's weight is exp(-10).
    const far = candidate("bake bread", 0.7);
    expect(await score(windows, [far])).toBeCloseTo(0.9 / (1 + Math.exp(-10)), 6);
    expect(await score(far, [windows])).toBeLessThan(0.001);
  });

  it("does not count candidates with the same answer, or the same question text, as rivals", async () => {
    const first = candidate("install numpy on windows", 0.9, "pip install numpy");
    expect(await score(first, [candidate("install numpy on mac", 0.9, "pip install numpy")])).toBeCloseTo(0.9, 6);
    expect(await score(first, [candidate("Install  NumPy on Windows", 0.9, "other")])).toBeCloseTo(0.9, 6);
  });

  it("scores the query's own text at the inner score, whatever its neighbours", async () => {
    const own = candidate("How do I install NumPy", 1);
    expect(await score(own, [candidate("install numpy on mac", 0.99)])).toBeCloseTo(1, 6);
  });

  it("compares embeddings when candidates carry no search distance", async () => {
    const at = (degrees: number) => Float32Array.of(Math.cos((degrees * Math.PI) / 180), Math.sin((degrees * Math.PI) / 180));
    const src = { question: "q", embedding: at(0) };
    const near = { question: "a", answer: "1", embedding: at(10) };
    const twin = { question: "b", answer: "2", embedding: at(-10) };
    const inner = Math.cos((10 * Math.PI) / 180);
    expect(await evaluation.evaluation(src, near, { neighbours: [twin] })).toBeCloseTo(inner / 2, 6);
  });

  it("wraps any evaluation, normalising its range", async () => {
    const wide: SimilarityEvaluation = { range: () => [0, 4], evaluation: () => 3 };
    const wrapped = new UnambiguousEvaluation({ evaluation: wide });
    expect(wrapped.range()).toEqual([0, 1]);
    expect(await wrapped.evaluation(query, candidate("x", 0.9), { neighbours: [candidate("y", 0.9)] })).toBeCloseTo(0.375, 6);
  });

  it("validates its options", () => {
    expect(new UnambiguousEvaluation().temperature).toBe(0.02);
    expect(new UnambiguousEvaluation().inner).toBeInstanceOf(DistanceEvaluation);
    for (const temperature of [0, -1, Number.NaN, Infinity, "0.1"]) {
      expect(() => new UnambiguousEvaluation({ temperature: temperature as number })).toThrow(ValidationError);
    }
    expect(() => new UnambiguousEvaluation({ evaluation: {} as SimilarityEvaluation })).toThrow(ValidationError);
  });

  it("serialises with its inner evaluation and loads back", async () => {
    const original = new UnambiguousEvaluation({ evaluation: new DistanceEvaluation(), temperature: 0.05 });
    const loaded = await load<UnambiguousEvaluation>(JSON.stringify(original), {
      optionalImportsMap: { "langchain_semcache/similarity": { UnambiguousEvaluation, DistanceEvaluation } },
    });
    expect(loaded).toBeInstanceOf(UnambiguousEvaluation);
    expect(loaded.temperature).toBe(0.05);
    expect(loaded.inner).toBeInstanceOf(DistanceEvaluation);
  });
});

describe("UnambiguousEvaluation in a cache lookup", () => {
  const caches: Cache[] = [];
  afterEach(async () => {
    await Promise.all(caches.splice(0).map((c) => c.close()));
  });

  async function cacheWith(evaluation: SimilarityEvaluation): Promise<Cache> {
    const cache = await new Cache().init({
      embeddingFunc: new BagOfWordsEmbedding(),
      dataManager: managerFactory("memory,memory"),
      similarityEvaluation: evaluation,
      config: { similarityThreshold: 0.7 },
    });
    caches.push(cache);
    return cache;
  }

  it("misses a question that two stored questions with different answers match about equally", async () => {
    const bare = await cacheWith(new DistanceEvaluation());
    const guarded = await cacheWith(new UnambiguousEvaluation());
    for (const cacheObj of [bare, guarded]) {
      await put("how do i install numpy on windows", "Use the Windows installer.", { cacheObj });
      await put("how do i install numpy on linux", "Use your package manager.", { cacheObj });
    }
    const question = "how do i install numpy on";
    expect(await get(question, { cacheObj: bare })).not.toBeNull();
    expect(await get(question, { cacheObj: guarded })).toBeNull();
    // A clear match still hits, and so does an exact repeat.
    expect(await get("how do i install numpy on windows please", { cacheObj: guarded })).toBe("Use the Windows installer.");
    expect(await get("how do i install numpy on linux", { cacheObj: guarded })).toBe("Use your package manager.");
  });

  it("hits when the near questions share the answer, and ignores entries of other partitions", async () => {
    const shared = await cacheWith(new UnambiguousEvaluation());
    await put("how do i install numpy on windows", "pip install numpy", { cacheObj: shared });
    await put("how do i install numpy on linux", "pip install numpy", { cacheObj: shared });
    expect(await get("how do i install numpy on", { cacheObj: shared })).toBe("pip install numpy");

    const partitioned = await cacheWith(new UnambiguousEvaluation());
    await put("how do i install numpy on windows", "Use the Windows installer.", { cacheObj: partitioned, partition: { model: "a" } });
    await put("how do i install numpy on linux", "Use your package manager.", { cacheObj: partitioned, partition: { model: "b" } });
    expect(await get("how do i install numpy on", { cacheObj: partitioned, partition: { model: "a" } })).toBe("Use the Windows installer.");
  });
});
