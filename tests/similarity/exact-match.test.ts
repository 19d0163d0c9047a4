import { ExactMatchEvaluation } from "../../src/similarity/exact-match.js";
import { testSimilarityEvaluation } from "../../src/testing/evaluation-contract.js";

const pair = (a: string, b: string) => ({ src: { question: a }, cached: { question: b, answer: "x" } });

testSimilarityEvaluation({
  name: "ExactMatchEvaluation",
  create: () => new ExactMatchEvaluation(),
  identical: () => pair("What is the capital of France?", "What is the capital of France?"),
  different: () => pair("What is the capital of France?", "what is the capital of France?"),
  pair,
});

describe("ExactMatchEvaluation", () => {
  it("scores 1 only for the very same question", () => {
    const evaluation = new ExactMatchEvaluation();
    expect(evaluation.evaluation(...spread(pair("a b", "a b")))).toBe(1);
    expect(evaluation.evaluation(...spread(pair("a b", "a  b")))).toBe(0);
    expect(evaluation.evaluation(...spread(pair("a b", "a b ")))).toBe(0);
  });
});

function spread(p: ReturnType<typeof pair>) {
  return [p.src, p.cached] as const;
}
