import { ValidationError } from "../../src/core/errors.js";
import { cosineSimilarity, l2Normalize } from "../../src/core/vector-math.js";
import { KReciprocalEvaluation } from "../../src/similarity/k-reciprocal.js";
import type { EvaluationContext } from "../../src/core/contracts/evaluation.js";
import type { VectorHit } from "../../src/core/contracts/vector-index.js";
import { syntheticEmbedding, syntheticPair, testSimilarityEvaluation } from "../../src/testing/evaluation-contract.js";

/** A brute-force cosine index over real vectors, standing in for the cache's vector store. */
function bruteForce(vectors: Float32Array[]): EvaluationContext["search"] {
  return async (query: Float32Array, topK: number): Promise<VectorHit[]> =>
    vectors
      .map((vector, id) => ({ id, distance: 1 - cosineSimilarity(query, vector) }))
      .sort((a, b) => a.distance - b.distance)
      .slice(0, topK);
}

/** A unit vector in the plane at `degrees` (the angle sets the cosine distance exactly). */
const at = (degrees: number) => Float32Array.of(Math.cos((degrees * Math.PI) / 180), Math.sin((degrees * Math.PI) / 180), 0);
const distanceAt = (degrees: number) => 1 - Math.cos((degrees * Math.PI) / 180);

const STORED = ["what is the capital of france", "capital city of france", "how do i bake bread", "bread baking at home", "sort a list in python"];

testSimilarityEvaluation({
  name: "KReciprocalEvaluation",
  create: () => new KReciprocalEvaluation({ topK: 2 }),
  identical: () => ({ ...syntheticPair("capital of france", "capital of france"), context: { search: bruteForce(STORED.map((q) => syntheticEmbedding(q))) } }),
  different: () => ({ ...syntheticPair("capital of france", "how do i bake bread"), context: { search: bruteForce(STORED.map((q) => syntheticEmbedding(q))) } }),
  pair: (a, b) => ({
    ...syntheticPair(a, b),
    context: { search: bruteForce([...STORED.map((q) => syntheticEmbedding(q)), syntheticEmbedding(b)]) },
  }),
});

describe("KReciprocalEvaluation", () => {
  // The candidate at 0 degrees has neighbours at 5, 10 and 15 degrees: with topK 3 its 3rd neighbour is at 15.
  const index = [at(0), at(5), at(10), at(15), at(120)];
  const context = { search: bruteForce(index) };
  const evaluation = new KReciprocalEvaluation({ topK: 3 });
  const compare = (queryDegrees: number, ctx: EvaluationContext = context, withDistance = false) =>
    evaluation.evaluation(
      { question: "query", embedding: at(queryDegrees) },
      { question: "stored", answer: "a", embedding: at(0), ...(withDistance ? { distance: distanceAt(queryDegrees) } : {}) },
      ctx,
    );

  it("scores a mutually near pair by distance, nearer = higher, on [0, maxDistance]", async () => {
    expect(evaluation.range()).toEqual([0, 2]);
    expect(await compare(12)).toBeCloseTo(2 - distanceAt(12), 6);
    expect(await compare(12, context, true)).toBeCloseTo(2 - distanceAt(12), 6);
    expect(await compare(15)).toBeCloseTo(2 - distanceAt(15), 6);
  });

  it("scores 0 when the query is farther than the candidate's topK-th neighbour", async () => {
    expect(await compare(30)).toBe(0);
    expect(await compare(16, context, true)).toBe(0);
    // With topK 1 the bar is the nearest neighbour (5 degrees): 12 degrees no longer passes.
    const strict = new KReciprocalEvaluation({ topK: 1 });
    expect(await strict.evaluation({ question: "q", embedding: at(12) }, { question: "c", answer: "a", embedding: at(0) }, context)).toBe(0);
  });

  it("does not reject a candidate that has fewer than topK neighbours", async () => {
    const small = { search: bruteForce([at(0), at(90)]) };
    expect(await compare(60, small)).toBeCloseTo(2 - distanceAt(60), 6);
  });

  it("scores identical questions at the maximum", async () => {
    expect(await evaluation.evaluation({ question: "same" }, { question: "same", answer: "a" }, context)).toBe(2);
  });

  it("reads similarities, larger = nearer, when positive", async () => {
    const bySimilarity: EvaluationContext["search"] = async (query, topK) =>
      index
        .map((vector, id) => ({ id, distance: cosineSimilarity(query, vector) }))
        .sort((a, b) => b.distance - a.distance)
        .slice(0, topK);
    const positive = new KReciprocalEvaluation({ topK: 3, maxDistance: 1, positive: true });
    const score = (degrees: number) =>
      positive.evaluation({ question: "q", embedding: at(degrees) }, { question: "c", answer: "a", embedding: at(0) }, { search: bySimilarity });
    expect(await score(12)).toBeCloseTo(Math.cos((12 * Math.PI) / 180), 6);
    expect(await score(30)).toBe(0);
  });

  it("works on real higher-dimensional embeddings", async () => {
    const vectors = STORED.map((q) => syntheticEmbedding(q));
    const query = l2Normalize(syntheticEmbedding("capital of france"));
    const near = await evaluation.evaluation(
      { question: "capital of france", embedding: query },
      { question: STORED[1], answer: "Paris", embedding: vectors[1] },
      { search: bruteForce(vectors) },
    );
    expect(near).toBeGreaterThan(1);
  });

  it("needs context.search, vector embeddings and valid options", async () => {
    await expect(compare(12, {})).rejects.toThrow(ValidationError);
    await expect(evaluation.evaluation({ question: "q", embedding: "key" }, { question: "c", answer: "a" }, context)).rejects.toThrow(
      ValidationError,
    );
    expect(() => new KReciprocalEvaluation({ topK: 0 })).toThrow(ValidationError);
    expect(() => new KReciprocalEvaluation({ maxDistance: -1 })).toThrow(ValidationError);
  });
});
