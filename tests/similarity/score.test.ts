import { DimensionMismatchError, ValidationError } from "../../src/core/errors.js";
import { clamp, embeddingSimilarity, normalizeScore } from "../../src/core/similarity-score.js";
import type { SimilarityEvaluation } from "../../src/core/contracts/evaluation.js";

const withRange = (min: number, max: number): SimilarityEvaluation => ({
  range: () => [min, max],
  evaluation: () => min,
});

describe("normalizeScore", () => {
  it("maps the range onto [0, 1]", () => {
    expect(normalizeScore(withRange(0, 1), 0.8)).toBeCloseTo(0.8);
    expect(normalizeScore(withRange(0, 4), 3)).toBeCloseTo(0.75);
    expect(normalizeScore(withRange(-1, 1), 0)).toBeCloseTo(0.5);
  });

  it("clamps scores outside the range, and a NaN score is 0", () => {
    expect(normalizeScore(withRange(0, 2), 5)).toBe(1);
    expect(normalizeScore(withRange(0, 2), -1)).toBe(0);
    expect(normalizeScore(withRange(0, 2), Number.NaN)).toBe(0);
  });

  it("rejects an empty or inverted range", () => {
    expect(() => normalizeScore(withRange(1, 1), 1)).toThrow(ValidationError);
    expect(() => normalizeScore(withRange(2, 0), 1)).toThrow(ValidationError);
    expect(() => normalizeScore(withRange(0, Infinity), 1)).toThrow(ValidationError);
  });
});

describe("clamp and embeddingSimilarity", () => {
  it("clamps", () => {
    expect(clamp(3, 0, 2)).toBe(2);
    expect(clamp(-3, 0, 2)).toBe(0);
    expect(clamp(Number.NaN, -1, 2)).toBe(-1);
  });

  it("compares vectors by cosine (negative is 0), strings by equality, and is undefined without both", () => {
    const a = Float32Array.of(1, 0);
    expect(embeddingSimilarity(a, Float32Array.of(1, 1))).toBeCloseTo(Math.SQRT1_2);
    expect(embeddingSimilarity(a, Float32Array.of(-1, 0))).toBe(0);
    expect(embeddingSimilarity("k", "k")).toBe(1);
    expect(embeddingSimilarity("k", "j")).toBe(0);
    expect(embeddingSimilarity("k", a)).toBe(0);
    expect(embeddingSimilarity(undefined, a)).toBeUndefined();
    expect(() => embeddingSimilarity(a, Float32Array.of(1, 0, 0))).toThrow(DimensionMismatchError);
  });
});
