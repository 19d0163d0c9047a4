/**
 * An index that keeps rounded vectors (usearch at i8 or f16) reports rounded distances. The cache judges each
 * candidate on its exact distance, from the embedding its record keeps, so whether a lookup hits follows the exact
 * distance: an index's rounding never serves an answer the threshold would refuse.
 */
import { Cache, managerFactory, put, type EmbeddingFunction, type EmbeddingInput, type EvaluationContext, type SimilarityEvaluation } from "../../src/index.js";
import { runCached } from "../../src/core/pipeline.js";
import { cosineDistance } from "../../src/core/vector-math.js";
import type { VectorHit } from "../../src/core/contracts/vector-index.js";
import { UsearchIndex, type UsearchQuantization } from "../../src/stores/vector/usearch-index.js";
import { randomUnitVector, seededRandom, vectorAtCosine } from "../../src/testing/random-vectors.js";

const DIMENSION = 64;
const STORED = "stored question";
const ASKED = "asked question";

/** A user's embedding with fixed vectors per text. */
class FixedEmbedding implements EmbeddingFunction {
  readonly dimension = DIMENSION;
  constructor(private readonly vectors: Map<string, Float32Array>) {}
  async embed(data: EmbeddingInput): Promise<Float32Array> {
    return this.vectors.get(String(data))!;
  }
}

/** Scores 1 - distance, and keeps the distances it was given. */
class DistanceRecorder implements SimilarityEvaluation {
  seen: number[] = [];
  range() {
    return [0, 1] as const;
  }
  evaluation(_src: unknown, cached: { distance?: number }) {
    this.seen.push(cached.distance!);
    return 1 - cached.distance!;
  }
}

const surface = { name: "t", call: async () => "from the model", answerOf: (a: string) => a, fromCache: (hit: { answer: string }) => hit.answer };

/** Pairs at a cosine whose i8 distance differs from the exact one by more than float noise. */
function vectors(seed: number): Map<string, Float32Array> {
  const random = seededRandom(seed);
  const stored = randomUnitVector(DIMENSION, random);
  return new Map([
    [STORED, stored],
    [ASKED, vectorAtCosine(stored, 0.9, random)],
  ]);
}

async function cacheOver(quantization: UsearchQuantization, texts: Map<string, Float32Array>, threshold = 0.5) {
  const evaluation = new DistanceRecorder();
  const c = await new Cache().init({
    embeddingFunc: new FixedEmbedding(texts),
    dataManager: managerFactory({ scalar: "memory", vector: new UsearchIndex({ dimension: DIMENSION, quantization }) }),
    similarityEvaluation: evaluation,
    config: { similarityThreshold: threshold },
  });
  await put(STORED, "the stored answer", { cacheObj: c });
  const [indexed] = await c.dataManager.search(texts.get(ASKED)!, 1);
  return { c, evaluation, indexed, exact: cosineDistance(texts.get(ASKED)!, texts.get(STORED)!) };
}

describe("judging on exact distances", () => {
  it("an i8 index reports its distance with i8's error, and the judge sees the exact one", async () => {
    const { c, evaluation, indexed, exact } = await cacheOver("i8", vectors(3));
    expect(c.dataManager.vector?.capabilities.roundedDistances).toBe(true);
    expect(Math.abs(indexed.distance - exact)).toBeGreaterThan(1e-4);
    expect(await runCached({ prompt: ASKED }, { cacheObj: c }, surface)).toBe("the stored answer");
    expect(evaluation.seen).toHaveLength(1);
    expect(evaluation.seen[0]).toBeCloseTo(exact, 6);
    await c.close();
  });

  it("a threshold between the rounded and the exact distance: the lookup follows the exact one", async () => {
    for (const seed of [3, 5, 8, 13]) {
      const texts = vectors(seed);
      const probe = await cacheOver("i8", texts);
      await probe.c.close();
      // A score of 1 - distance: the threshold sits halfway between the two readings of the same pair.
      const threshold = 1 - (probe.indexed.distance + probe.exact) / 2;
      const { c } = await cacheOver("i8", texts, threshold);
      const exactPasses = 1 - probe.exact >= threshold;
      const answer = await runCached({ prompt: ASKED }, { cacheObj: c }, surface);
      expect(answer).toBe(exactPasses ? "the stored answer" : "from the model");
      await c.close();
    }
  });

  it("an f32 index keeps exact distances and is not re-scored", async () => {
    const { c, indexed, exact } = await cacheOver("f32", vectors(3));
    expect(c.dataManager.vector?.capabilities.roundedDistances).toBe(false);
    expect(indexed.distance).toBeCloseTo(exact, 5);
    await c.close();
  });

  it("an evaluation that searches the index itself (as k-reciprocal does) gets exact distances too", async () => {
    const texts = vectors(3);
    const searched: number[] = [];
    const searching: SimilarityEvaluation = {
      range: () => [0, 1] as const,
      async evaluation(_src, _cached, context?: EvaluationContext) {
        const hits = await context!.search!(texts.get(ASKED)!, 1);
        searched.push(hits[0].distance);
        return 1;
      },
    };
    const c = await new Cache().init({
      embeddingFunc: new FixedEmbedding(texts),
      dataManager: managerFactory({ scalar: "memory", vector: new UsearchIndex({ dimension: DIMENSION, quantization: "i8" }) }),
      similarityEvaluation: searching,
      config: { similarityThreshold: 0.5 },
    });
    await put(STORED, "the stored answer", { cacheObj: c });
    const [indexed] = await c.dataManager.search(texts.get(ASKED)!, 1);
    const exact = cosineDistance(texts.get(ASKED)!, texts.get(STORED)!);
    expect(Math.abs(indexed.distance - exact)).toBeGreaterThan(1e-4);
    expect(await runCached({ prompt: ASKED }, { cacheObj: c }, surface)).toBe("the stored answer");
    expect(searched).toHaveLength(1);
    expect(searched[0]).toBeCloseTo(exact, 6);
    await c.close();
  });

  it("a searchFunc's distances are the user's: they reach the judge as given", async () => {
    const { c, evaluation } = await cacheOver("i8", vectors(3));
    const searchFunc = async (): Promise<VectorHit[]> => [{ id: 1, distance: 0.25 }];
    await runCached({ prompt: ASKED }, { cacheObj: c, cacheContext: { searchFunc } }, surface);
    expect(evaluation.seen).toEqual([0.25]);
    await c.close();
  });
});
