/**
 * An evaluation may offer a cheap bound on its score (`scoreBound`): the cache judges a candidate in full only when
 * the bound reaches the threshold, so a costly judgement (the preset's lexical vetoes) is spent only where it can
 * decide a hit. The bound never changes which candidates hit, nor the score a miss reports.
 */
import { Cache, managerFactory, put, type CacheOutcome, type EmbeddingFunction, type EmbeddingInput, type SimilarityEvaluation } from "../../src/index.js";
import { runCached } from "../../src/core/pipeline.js";
import { randomUnitVector, seededRandom, vectorAtCosine } from "../../src/testing/random-vectors.js";
import { tempDir } from "../helpers/fixtures.js";

const DIMENSION = 32;
const random = seededRandom(7);
const asked = randomUnitVector(DIMENSION, random);
const vectors = new Map([
  ["asked question", asked],
  ["near question", vectorAtCosine(asked, 0.9, random)],
  ["farther question", vectorAtCosine(asked, 0.8, random)],
]);

class FixedEmbedding implements EmbeddingFunction {
  readonly dimension = DIMENSION;
  async embed(data: EmbeddingInput): Promise<Float32Array> {
    return vectors.get(String(data))!;
  }
}

type Scores = Record<string, { bound: number; full: number }>;

/** Answers each stored question's bound and full score from `scores`, counting the full judgements by question. */
class BoundedEvaluation implements SimilarityEvaluation {
  boundCalls = 0;
  judgedInFull: string[] = [];
  constructor(private readonly scores: Scores) {}
  range() {
    return [0, 1] as const;
  }
  scoreBound(_src: unknown, cached: { question: string }) {
    this.boundCalls++;
    return this.scores[cached.question].bound;
  }
  evaluation(_src: unknown, cached: { question: string }) {
    this.judgedInFull.push(cached.question);
    return this.scores[cached.question].full;
  }
}

async function lookup(scores: Scores, options: { reportOutcome?: boolean; evaluationFunc?: () => number } = {}) {
  const evaluation = new BoundedEvaluation(scores);
  const dir = tempDir();
  const cache = await new Cache().init({
    embeddingFunc: new FixedEmbedding(),
    dataManager: managerFactory("sqlite,hnswlib", { dataDir: dir.path, vectorParams: { dimension: DIMENSION } }),
    similarityEvaluation: evaluation,
    config: { similarityThreshold: 0.6 },
  });
  for (const question of Object.keys(scores)) await put(question, `the answer to the ${question}`, { cacheObj: cache });
  const outcomes: CacheOutcome[] = [];
  const answer = await runCached(
    { prompt: "asked question" },
    { cacheObj: cache, noStore: true, ...(options.evaluationFunc ? { cacheContext: { evaluationFunc: options.evaluationFunc } } : {}) },
    {
      name: "test",
      call: async () => "from the model",
      answerOf: (a: string) => a,
      fromCache: (hit) => hit.answer,
      ...(options.reportOutcome === false ? {} : { onOutcome: (o: CacheOutcome) => outcomes.push(o) }),
    },
  );
  await cache.close();
  dir.cleanup();
  return { answer, outcome: outcomes[0], evaluation };
}

describe("an evaluation's score bound", () => {
  it("under the threshold: the candidate misses without its full judgement when nobody asks how near it came", async () => {
    const { answer, evaluation } = await lookup({ "near question": { bound: 0.5, full: 0.3 } }, { reportOutcome: false });
    expect(answer).toBe("from the model");
    expect([evaluation.boundCalls, evaluation.judgedInFull]).toEqual([1, []]);
  });

  it("a miss reports its nearest full score, judging the ruled-out candidates best bound first while one could beat it", async () => {
    const two = { "near question": { bound: 0.5, full: 0.45 }, "farther question": { bound: 0.4, full: 0.35 } };
    const first = await lookup(two);
    expect(first.outcome).toMatchObject({ status: "MISS", score: 0.45 });
    expect(first.evaluation.judgedInFull).toEqual(["near question"]);
    // The best bound's candidate vetoed (0): the next one could still beat it.
    const vetoed = await lookup({ ...two, "near question": { bound: 0.5, full: 0 } });
    expect(vetoed.outcome).toMatchObject({ status: "MISS", score: 0.35 });
    expect(vetoed.evaluation.judgedInFull).toEqual(["near question", "farther question"]);
  });

  it("at or over the threshold: the full judgement decides (a hit, or a miss the bound alone would not have made)", async () => {
    const hit = await lookup({ "near question": { bound: 0.9, full: 0.8 } });
    expect(hit.answer).toBe("the answer to the near question");
    expect(hit.outcome).toMatchObject({ status: "HIT", score: 0.8 });
    const vetoed = await lookup({ "near question": { bound: 0.9, full: 0 } });
    expect(vetoed.answer).toBe("from the model");
    expect(vetoed.outcome).toMatchObject({ status: "MISS", score: 0 });
    expect(vetoed.evaluation.judgedInFull).toEqual(["near question"]);
  });

  it("a per-request evaluation function replaces the evaluation, bound and all", async () => {
    const { answer, evaluation } = await lookup({ "near question": { bound: 0.1, full: 0.1 } }, { evaluationFunc: () => 0.95 });
    expect(answer).toBe("the answer to the near question");
    expect([evaluation.boundCalls, evaluation.judgedInFull]).toEqual([0, []]);
  });
});
