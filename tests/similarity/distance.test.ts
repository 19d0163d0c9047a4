import { DimensionMismatchError } from "../../src/core/errors.js";
import { DistanceEvaluation } from "../../src/similarity/distance.js";
import { syntheticPair, testSimilarityEvaluation } from "../../src/testing/evaluation-contract.js";
import type { CacheRecord } from "../../src/core/types.js";

testSimilarityEvaluation({
  name: "DistanceEvaluation",
  create: () => new DistanceEvaluation(),
  identical: () => syntheticPair("what is the capital of france", "what is the capital of france"),
  different: () => syntheticPair("what is the capital of france", "how do i bake bread"),
});

describe("DistanceEvaluation", () => {
  const evaluation = new DistanceEvaluation();
  const src = { question: "q" };

  it("scores 1 - the search's cosine distance, clamped to [0, 1]", () => {
    expect(evaluation.evaluation(src, { question: "c", answer: "a", distance: 0.3 })).toBeCloseTo(0.7);
    expect(evaluation.evaluation(src, { question: "c", answer: "a", distance: 1.6 })).toBe(0);
    expect(evaluation.evaluation(src, { question: "c", answer: "a", distance: -1e-7 })).toBe(1);
  });

  it("prefers the search distance over recomputing from embeddings", () => {
    const cached = { question: "c", answer: "a", distance: 0.25, embedding: Float32Array.of(0, 1) };
    expect(evaluation.evaluation({ question: "q", embedding: Float32Array.of(0, 1) }, cached)).toBeCloseTo(0.75);
  });

  it("computes cosine similarity from the embeddings without a distance", () => {
    const at = (degrees: number) => Float32Array.of(Math.cos((degrees * Math.PI) / 180), Math.sin((degrees * Math.PI) / 180));
    const score = (degrees: number) =>
      evaluation.evaluation({ question: "q", embedding: at(0) }, { question: "c", answer: "a", embedding: at(degrees) });
    expect(score(0)).toBeCloseTo(1);
    expect(score(60)).toBeCloseTo(0.5);
    expect(score(90)).toBeCloseTo(0);
    expect(score(180)).toBe(0);
  });

  it("reads the embedding from the candidate's record when the candidate has none", () => {
    const record = { embedding: Float32Array.of(1, 0) } as CacheRecord;
    expect(evaluation.evaluation({ question: "q", embedding: Float32Array.of(1, 0) }, { question: "c", answer: "a", record })).toBe(1);
  });

  it("compares string keys for equality, and questions when there are no embeddings", () => {
    const cached = { question: "same", answer: "a" };
    expect(evaluation.evaluation({ question: "x", embedding: "same" }, { ...cached, embedding: "same" as never })).toBe(1);
    expect(evaluation.evaluation({ question: "same", embedding: "key" }, cached)).toBe(1);
    expect(evaluation.evaluation({ question: "other" }, cached)).toBe(0);
  });

  it("refuses embeddings of different lengths", () => {
    expect(() =>
      evaluation.evaluation({ question: "q", embedding: Float32Array.of(1, 0) }, { question: "c", answer: "a", embedding: Float32Array.of(1, 0, 0) }),
    ).toThrow(DimensionMismatchError);
  });
});
