import { first, nop, randomOne, temperatureSoftmax } from "../../src/processors/post.js";
import type { PostProcessFunc } from "../../src/core/contracts/processors.js";
import { seededRandom } from "../../src/testing/vector-index-contract.js";

// Every function fits the pipeline's slot (checked by tsc).
const _slots: PostProcessFunc[] = [first, nop, randomOne, temperatureSoftmax];


const hits = [
  { id: "a", score: 0.9 },
  { id: "b", score: 0.5 },
  { id: "c", score: 0.1 },
];

function frequencies(temperature: number, draws: number): Record<string, number> {
  const context = { temperature, random: seededRandom(7) };
  const counts: Record<string, number> = { a: 0, b: 0, c: 0 };
  for (let i = 0; i < draws; i++) counts[temperatureSoftmax(hits, context)!.id] += 1;
  return Object.fromEntries(Object.entries(counts).map(([id, n]) => [id, n / draws]));
}

describe("first, nop, randomOne", () => {
  const context = { temperature: 0, random: () => 0.5 };

  it("first picks the best hit; no hits is no answer", () => {
    expect(first(hits)).toBe(hits[0]);
    expect(first([])).toBeNull();
  });

  it("nop keeps every hit", () => {
    expect(nop(hits)).toBe(hits);
  });

  it("randomOne picks by context.random", () => {
    expect(randomOne(hits, { ...context, random: () => 0 })).toBe(hits[0]);
    expect(randomOne(hits, { ...context, random: () => 0.5 })).toBe(hits[1]);
    expect(randomOne(hits, { ...context, random: () => 0.999999 })).toBe(hits[2]);
    expect(randomOne([], context)).toBeNull();
  });
});

describe("temperatureSoftmax", () => {
  it("picks the highest score at temperature <= 0, wherever it sits", () => {
    const unsorted = [hits[1], hits[2], hits[0]];
    const never = () => {
      throw new Error("random must not be used at temperature 0");
    };
    expect(temperatureSoftmax(unsorted, { temperature: 0, random: never })).toBe(hits[0]);
    expect(temperatureSoftmax(unsorted, { temperature: -1, random: never })).toBe(hits[0]);
    expect(temperatureSoftmax([], { temperature: 0, random: never })).toBeNull();
  });

  it("samples softmax(score / T) above zero", () => {
    const temperature = 0.5;
    const weights = hits.map((hit) => Math.exp(hit.score / temperature));
    const total = weights.reduce((a, b) => a + b, 0);
    const observed = frequencies(temperature, 20000);
    hits.forEach((hit, i) => {
      // 20000 draws: the standard error is below 0.004, so 0.015 is > 3.5 standard errors.
      expect(Math.abs(observed[hit.id] - weights[i] / total)).toBeLessThan(0.015);
    });
  });

  it("spreads picks as the temperature rises", () => {
    const cold = frequencies(0.1, 5000);
    const hot = frequencies(2, 5000);
    expect(cold.a).toBeGreaterThan(0.95);
    expect(hot.a).toBeLessThan(0.5);
    expect(hot.c).toBeGreaterThan(0.2);
  });

  it("stays finite for large scores (no exp overflow)", () => {
    const big = [{ score: 1000 }, { score: 999 }];
    expect(temperatureSoftmax(big, { temperature: 0.01, random: () => 0.5 })).toBe(big[0]);
  });
});
