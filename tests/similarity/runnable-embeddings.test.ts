/**
 * An evaluation that compares embeddings, run as a Runnable on bare questions, embeds them with its
 * `embeddings` and scores as the cache would; without `embeddings` it refuses (never a silent 0).
 */
import { get, put } from "../../src/core/api.js";
import { Cache } from "../../src/presets/cache.js";
import { ValidationError } from "../../src/core/errors.js";
import { l2Normalize } from "../../src/core/vector-math.js";
import { StringEmbedding } from "../../src/embeddings/string.js";
import { UniversalSentenceEncoderEmbeddings } from "../../src/embeddings/use.js";
import { managerFactory } from "../../src/presets/manager-factory.js";
import type { BaseSimilarityEvaluation, EvaluationPair } from "../../src/similarity/base.js";
import { DistanceEvaluation } from "../../src/similarity/distance.js";
import { PrecisionGuardEvaluation } from "../../src/similarity/precision-guard.js";
import { presetEvaluation } from "../../src/similarity/preset.js";
import { TimeEvaluation } from "../../src/similarity/time.js";
import type { SimilarityEvaluation } from "../../src/core/contracts/evaluation.js";
import { UnambiguousEvaluation } from "../../src/similarity/unambiguous.js";
import { syntheticEmbedding } from "../../src/testing/evaluation-contract.js";
import { tempDir } from "../helpers/fixtures.js";

const QUESTION = "install numpy";
const CACHED = "install numpy please";

/** A LangChain-shaped Embeddings that records the texts of each call. */
function countingEmbeddings(embed: (texts: string[]) => Promise<number[][]>) {
  const calls: string[][] = [];
  return {
    calls,
    embedQuery: async (text: string) => (calls.push([text]), (await embed([text]))[0]),
    embedDocuments: async (texts: string[]) => (calls.push([...texts]), embed(texts)),
  };
}

const synthetic = (dimension: number) => countingEmbeddings(async (texts) => texts.map((text) => [...syntheticEmbedding(text, dimension)]));

describe("vector evaluations as Runnables, with the offline USE model", () => {
  const use = new UniversalSentenceEncoderEmbeddings();
  const makers: Array<[string, (embeddings?: UniversalSentenceEncoderEmbeddings) => BaseSimilarityEvaluation]> = [
    ["PrecisionGuardEvaluation", (embeddings) => new PrecisionGuardEvaluation({ embeddings })],
    ["presetEvaluation", (embeddings) => presetEvaluation({ embeddings })],
    ["DistanceEvaluation", (embeddings) => new DistanceEvaluation({ embeddings })],
  ];

  it.each(makers)("%s({ embeddings }) scores bare questions as it scores the pair with their vectors", async (_name, make) => {
    const [query, stored] = (await use.embedDocuments([QUESTION, CACHED])).map((vector) => Float32Array.from(vector));
    // The stored side as the cache keeps it: L2-normalised.
    const withVectors = { src: { question: QUESTION, embedding: query }, cached: { question: CACHED, answer: "", embedding: l2Normalize(stored) } };
    const expected = await make().invoke(withVectors);
    expect(expected).toBeGreaterThan(0.5);
    expect(await make(use).invoke({ question: QUESTION, cachedQuestion: CACHED })).toBeCloseTo(expected, 9);
    expect(await make(use).invoke({ src: { question: QUESTION }, cached: { question: CACHED, answer: "" } })).toBeCloseTo(expected, 9);
  });

  it.each(makers)("%s({ embeddings }) batches: each pair scores as invoke scores it", async (_name, make) => {
    const evaluation = make(use);
    const pairs = [
      { question: QUESTION, cachedQuestion: CACHED },
      { question: QUESTION, cachedQuestion: "uninstall numpy" },
      { question: "What is the capital of France?", cachedQuestion: "capital of france?" },
    ];
    const scores = await evaluation.batch(pairs, {}, { maxConcurrency: 2 });
    expect(scores).toEqual(await Promise.all(pairs.map((pair) => make(use).invoke(pair))));
    expect(scores[1]).toBeLessThan(scores[0]);
  });

  it.each(makers)("%s() without embeddings rejects bare questions with a ValidationError naming `embeddings`", async (name, make) => {
    for (const input of [{ question: QUESTION, cachedQuestion: CACHED }, { src: { question: QUESTION }, cached: { question: CACHED, answer: "" } }]) {
      const error = await make().invoke(input).catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(ValidationError);
      expect((error as Error).message).toContain("`embeddings`");
      expect((error as Error).message).toContain(name === "DistanceEvaluation" ? "DistanceEvaluation" : "presetEvaluation({ embeddings })");
    }
  });

  it("scores as the cache's own lookup of the same two questions, and the lookup never calls the evaluation's embeddings", async () => {
    const dir = tempDir();
    const unused = countingEmbeddings(async () => {
      throw new Error("the cache passes its vectors");
    });
    for (const [name, make] of makers.slice(0, 2)) {
      const inCache = make(unused as never);
      const seen: Array<{ pair: EvaluationPair; score: number }> = [];
      const recording: SimilarityEvaluation = {
        range: () => inCache.range(),
        evaluation: async (src, cached, context) => {
          const score = await inCache.evaluation(src, cached, context);
          seen.push({ pair: { src, cached }, score });
          return score;
        },
      };
      const cache = await new Cache().init({
        embeddingFunc: use,
        dataManager: managerFactory("sqlite,hnswlib", { dataDir: `${dir.path}/${name}` }),
        similarityEvaluation: recording,
        config: { similarityThreshold: 0 },
      });
      try {
        await put(CACHED, "pip install numpy", { cacheObj: cache });
        expect(await get(QUESTION, { cacheObj: cache })).toBe("pip install numpy");
        expect(seen).toHaveLength(1);
        const [{ pair, score }] = seen;
        expect([pair.src.question, pair.cached.question]).toEqual([QUESTION, CACHED]);
        expect(score).toBeGreaterThan(0.5);
        expect(await make(use).invoke({ question: QUESTION, cachedQuestion: CACHED })).toBeCloseTo(score, 5);
      } finally {
        await cache.close();
      }
    }
    expect(unused.calls).toEqual([]);
    dir.cleanup();
  });
});

describe("embedding a pair for a Runnable call", () => {
  it("embeds only the missing sides, in one batched call, and remembers them", async () => {
    const embeddings = synthetic(16);
    const evaluation = new DistanceEvaluation({ embeddings });
    await evaluation.invoke({ question: "what is the capital of france", cachedQuestion: "capital of france" });
    expect(embeddings.calls).toEqual([["what is the capital of france", "capital of france"]]);
    await evaluation.invoke({ src: { question: "bake bread", embedding: syntheticEmbedding("bake bread") }, cached: { question: "how do i bake bread", answer: "" } });
    expect(embeddings.calls.at(-1)).toEqual(["how do i bake bread"]);
    await evaluation.invoke({ question: "what is the capital of france", cachedQuestion: "capital of france" });
    expect(embeddings.calls).toHaveLength(2);
  });

  it("embeds nothing the pair carries; the guard's pair network reads both vectors, not a distance alone", async () => {
    const embeddings = synthetic(512);
    const withDistance = { src: { question: "a b" }, cached: { question: "c d", answer: "", distance: 0.25 } };
    expect(await new DistanceEvaluation({ embeddings }).invoke(withDistance)).toBeCloseTo(0.75, 6);
    // The guard's pair network reads both vectors, so a distance alone is not enough for it.
    await new PrecisionGuardEvaluation({ embeddings }).invoke(withDistance);
    expect(embeddings.calls).toEqual([["a b", "c d"]]);
    // The same text scores 1 from the text alone.
    expect(await new PrecisionGuardEvaluation().invoke({ question: "Install numpy", cachedQuestion: "install  numpy" })).toBe(1);
    expect(await presetEvaluation().invoke({ question: "Install numpy", cachedQuestion: "install  numpy" })).toBe(1);
    // An exact-match cache's string key stands for its question.
    expect(await new DistanceEvaluation().invoke({ src: { question: "a", embedding: "a" }, cached: { question: "a", answer: "" } })).toBe(1);
  });

  it("refuses a distance-only pair for the guard without embeddings: its pair network needs the vectors", async () => {
    const withDistance = { src: { question: "a b" }, cached: { question: "c d", answer: "", distance: 0.25 } };
    await expect(new PrecisionGuardEvaluation().invoke(withDistance)).rejects.toThrow(/cached\.embedding/);
  });

  it("completes the inner evaluation's pair through UnambiguousEvaluation and a fresh TimeEvaluation", async () => {
    const bare = { src: { question: "a b" }, cached: { question: "c d", answer: "", createdAtMs: Date.now() } };
    await expect(new UnambiguousEvaluation().invoke(bare)).rejects.toBeInstanceOf(ValidationError);
    await expect(new TimeEvaluation({ evaluation: new DistanceEvaluation() }).invoke(bare)).rejects.toBeInstanceOf(ValidationError);
    const embeddings = synthetic(16);
    const time = new TimeEvaluation({ evaluation: new DistanceEvaluation({ embeddings }) });
    expect(await time.invoke(bare)).toBe(await new DistanceEvaluation({ embeddings }).invoke(bare));
    expect(await new UnambiguousEvaluation({ evaluation: new DistanceEvaluation({ embeddings }) }).invoke(bare)).toBe(await time.invoke(bare));
    // A stale candidate scores the minimum without embedding anything.
    const calls = embeddings.calls.length;
    expect(await time.invoke({ ...bare, cached: { ...bare.cached, createdAtMs: 0 } })).toBe(0);
    expect(embeddings.calls).toHaveLength(calls);
  });

  it("refuses rival neighbours it cannot measure, for UnambiguousEvaluation's share", async () => {
    const evaluation = new UnambiguousEvaluation();
    const cached = { question: "install numpy on windows", answer: "a", distance: 0.1 };
    const pair = (rival: Record<string, unknown>) => ({
      src: { question: "install numpy" },
      cached,
      context: { neighbours: [{ question: "install numpy on mac", answer: "b", ...rival }] },
    });
    await expect(evaluation.invoke(pair({}))).rejects.toThrow(/neighbours/);
    expect(await evaluation.invoke(pair({ distance: 0.1 }))).toBeCloseTo(0.45, 6);
    // Not a rival (the same answer): nothing to measure.
    expect(await evaluation.invoke({ ...pair({}), context: { neighbours: [{ question: "install numpy on mac", answer: "a" }] } })).toBeCloseTo(0.9, 6);
  });

  it("refuses embeddings that return string keys", async () => {
    await expect(new DistanceEvaluation({ embeddings: new StringEmbedding() }).invoke({ question: "a", cachedQuestion: "b" })).rejects.toThrow(/must return vectors/);
  });

  it("serialises with plain options only: an embeddings client is not copied into a trace", () => {
    const embeddings = synthetic(16);
    expect(JSON.parse(JSON.stringify(presetEvaluation()))).toMatchObject({ type: "constructor" });
    expect(JSON.parse(JSON.stringify(new DistanceEvaluation()))).toMatchObject({ type: "constructor" });
    for (const evaluation of [presetEvaluation({ embeddings }), new DistanceEvaluation({ embeddings }), new PrecisionGuardEvaluation({ embeddings })]) {
      expect(JSON.parse(JSON.stringify(evaluation))).toMatchObject({ type: "not_implemented" });
    }
  });
});
