/**
 * An evaluation may offer a cheap bound on its score (`scoreBound`): the cache judges a candidate in full only when
 * the bound reaches the threshold, so a costly judgement (the preset's lexical vetoes) is spent only where it can
 * decide a hit. The bound never changes which candidates hit.
 */
import { Cache, managerFactory, put, type CacheOutcome, type EmbeddingFunction, type EmbeddingInput, type SimilarityEvaluation } from "../../src/index.js";
import { runCached } from "../../src/core/pipeline.js";
import { randomUnitVector, seededRandom, vectorAtCosine } from "../../src/testing/random-vectors.js";
import { tempDir } from "../helpers/fixtures.js";

const DIMENSION = 32;
const random = seededRandom(7);
const stored = randomUnitVector(DIMENSION, random);
const vectors = new Map([
  ["stored question", stored],
  ["asked question", vectorAtCosine(stored, 0.9, random)],
]);

class FixedEmbedding implements EmbeddingFunction {
  readonly dimension = DIMENSION;
  async embed(data: EmbeddingInput): Promise<Float32Array> {
    return vectors.get(String(data))!;
  }
}

/** Answers `bound` from scoreBound and `full` from evaluation, counting both. */
class BoundedEvaluation implements SimilarityEvaluation {
  boundCalls = 0;
  fullCalls = 0;
  constructor(
    private readonly bound: number,
    private readonly full: number,
  ) {}
  range() {
    return [0, 1] as const;
  }
  scoreBound() {
    this.boundCalls++;
    return this.bound;
  }
  evaluation() {
    this.fullCalls++;
    return this.full;
  }
}

async function lookup(evaluation: SimilarityEvaluation, options: { evaluationFunc?: () => number } = {}) {
  const dir = tempDir();
  const cache = await new Cache().init({
    embeddingFunc: new FixedEmbedding(),
    dataManager: managerFactory("sqlite,hnswlib", { dataDir: dir.path, vectorParams: { dimension: DIMENSION } }),
    similarityEvaluation: evaluation,
    config: { similarityThreshold: 0.6 },
  });
  await put("stored question", "the stored answer", { cacheObj: cache });
  const outcomes: CacheOutcome[] = [];
  const answer = await runCached(
    { prompt: "asked question" },
    { cacheObj: cache, noStore: true, ...(options.evaluationFunc ? { cacheContext: { evaluationFunc: options.evaluationFunc } } : {}) },
    { name: "test", call: async () => "from the model", answerOf: (a: string) => a, fromCache: (hit) => hit.answer, onOutcome: (o) => outcomes.push(o) },
  );
  await cache.close();
  dir.cleanup();
  return { answer, outcome: outcomes[0] };
}

describe("an evaluation's score bound", () => {
  it("under the threshold: the candidate misses without its full judgement, and the miss reports the bound", async () => {
    const evaluation = new BoundedEvaluation(0.4, 0.3);
    const { answer, outcome } = await lookup(evaluation);
    expect(answer).toBe("from the model");
    expect([evaluation.boundCalls, evaluation.fullCalls]).toEqual([1, 0]);
    expect(outcome).toMatchObject({ status: "MISS", score: 0.4 });
  });

  it("at or over the threshold: the full judgement decides (a hit, or a miss the bound alone would not have made)", async () => {
    const hit = new BoundedEvaluation(0.9, 0.8);
    expect((await lookup(hit)).answer).toBe("the stored answer");
    expect([hit.boundCalls, hit.fullCalls]).toEqual([1, 1]);
    const vetoed = new BoundedEvaluation(0.9, 0);
    const { answer, outcome } = await lookup(vetoed);
    expect(answer).toBe("from the model");
    expect([vetoed.boundCalls, vetoed.fullCalls]).toEqual([1, 1]);
    expect(outcome).toMatchObject({ status: "MISS", score: 0 });
  });

  it("a per-request evaluation function replaces the evaluation, bound and all", async () => {
    const evaluation = new BoundedEvaluation(0.1, 0.1);
    const { answer } = await lookup(evaluation, { evaluationFunc: () => 0.95 });
    expect(answer).toBe("the stored answer");
    expect([evaluation.boundCalls, evaluation.fullCalls]).toEqual([0, 0]);
  });
});
