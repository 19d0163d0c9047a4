import { ValidationError } from "../../src/core/errors.js";
import type { CacheRecord } from "../../src/core/types.js";
import { DistanceEvaluation } from "../../src/similarity/distance.js";
import { TimeEvaluation } from "../../src/similarity/time.js";
import type { SimilarityEvaluation } from "../../src/core/contracts/evaluation.js";
import { syntheticPair, testSimilarityEvaluation } from "../../src/testing/evaluation-contract.js";

testSimilarityEvaluation({
  name: "TimeEvaluation(DistanceEvaluation)",
  create: () => new TimeEvaluation({ evaluation: new DistanceEvaluation(), timeRangeSeconds: 3600 }),
  identical: () => syntheticPair("what is the weather today in paris", "what is the weather today in paris"),
  different: () => {
    const pair = syntheticPair("what is the weather today in paris", "what is the weather today in paris");
    return { ...pair, cached: { ...pair.cached, createdAtMs: Date.now() - 7200_000 } };
  },
});

/** An inner evaluation with an unusual range, so "scores the inner minimum" is distinguishable from 0. */
const wide: SimilarityEvaluation = { range: () => [-1, 5], evaluation: () => 4 };

describe("TimeEvaluation", () => {
  const now = Date.parse("2026-11-01T12:00:00Z");
  const evaluation = new TimeEvaluation({ evaluation: wide, timeRangeSeconds: 60 });
  const candidate = (ageSeconds: number) => ({ question: "c", answer: "a", createdAtMs: now - ageSeconds * 1000 });

  it("passes young candidates to the inner evaluation and keeps its range", async () => {
    expect(evaluation.range()).toEqual([-1, 5]);
    expect(await evaluation.evaluation({ question: "q" }, candidate(59), { now })).toBe(4);
    expect(await evaluation.evaluation({ question: "q" }, candidate(60), { now })).toBe(4);
  });

  it("scores candidates older than timeRangeSeconds, or of unknown age, at the inner minimum", async () => {
    expect(await evaluation.evaluation({ question: "q" }, candidate(61), { now })).toBe(-1);
    expect(await evaluation.evaluation({ question: "q" }, { question: "c", answer: "a" }, { now })).toBe(-1);
  });

  it("reads createdAtMs from the record, and the clock when context.now is absent", async () => {
    const record = { createdAtMs: Date.now() - 1000 } as CacheRecord;
    expect(await evaluation.evaluation({ question: "q" }, { question: "c", answer: "a", record })).toBe(4);
    expect(await evaluation.evaluation({ question: "q" }, { question: "c", answer: "a", createdAtMs: Date.now() - 120_000 })).toBe(-1);
  });

  it("defaults to one day and validates its options", () => {
    expect(new TimeEvaluation({ evaluation: wide }).timeRangeSeconds).toBe(86400);
    expect(() => new TimeEvaluation({ evaluation: wide, timeRangeSeconds: 0 })).toThrow(ValidationError);
    expect(() => new TimeEvaluation({ evaluation: {} as SimilarityEvaluation })).toThrow(ValidationError);
  });
});
