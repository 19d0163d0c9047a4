import { loadHardPairs, pairKey, validateHardPairs, type HardPair } from "../../bench/quality/hard-pairs.js";

/** The hard-pair benchmark's data (no model): its size, balance and fixed, stratified split. */
const pairs = loadHardPairs();
const categories = [...new Set(pairs.map((pair) => pair.category))];
const count = (list: readonly HardPair[], test: (pair: HardPair) => boolean) => list.filter(test).length;

describe("bench/quality/hard-pairs.json", () => {
  it("holds at least 400 pairs, about half of them paraphrases", () => {
    expect(pairs.length).toBeGreaterThanOrEqual(400);
    const share = count(pairs, (pair) => pair.same) / pairs.length;
    expect(share).toBeGreaterThan(0.45);
    expect(share).toBeLessThan(0.55);
  });

  it("covers the categories the design names", () => {
    for (const category of ["action", "sibling", "antonym", "role", "direction", "number", "unit", "time", "comparative", "quantity", "platform", "negation", "scope", "paraphrase"]) {
      expect(categories).toContain(category);
    }
  });

  it("has no pair twice, in either order", () => {
    expect(new Set(pairs.map(pairKey)).size).toBe(pairs.length);
  });

  it("gives every category paraphrases and different pairs in both splits, split half and half", () => {
    for (const category of categories) {
      for (const same of [true, false]) {
        const group = pairs.filter((pair) => pair.category === category && pair.same === same);
        const tune = count(group, (pair) => pair.split === "tune");
        const report = count(group, (pair) => pair.split === "report");
        expect({ category, same, tune: tune > 0, report: report > 0 }).toEqual({ category, same, tune: true, report: true });
        expect(Math.abs(tune - report)).toBeLessThanOrEqual(1);
      }
    }
  });

  it("takes each split as the file marks it: the two splits partition the pairs", () => {
    const tune = loadHardPairs("tune");
    const report = loadHardPairs("report");
    expect(tune.length + report.length).toBe(pairs.length);
    expect(report.map(pairKey)).toEqual(pairs.filter((pair) => pair.split === "report").map(pairKey));
    expect(tune.every((pair) => pair.split === "tune")).toBe(true);
  });

  it("refuses a malformed entry, naming it", () => {
    const good = { a: "What is 2 plus 3?", b: "What is 2+2?", same: false, category: "number", split: "tune" };
    expect(validateHardPairs([good])).toEqual([good]);
    expect(() => validateHardPairs([good, { ...good, a: "What is 2 plus 4?", same: "no" }])).toThrow(/entry 1: "same" must be true or false/);
    expect(() => validateHardPairs([{ ...good, split: "test" }])).toThrow(/entry 0: "split" must be "tune" or "report"/);
    expect(() => validateHardPairs([{ ...good, b: "" }])).toThrow(/entry 0: "b" must be a non-empty string/);
    expect(() => validateHardPairs([{ ...good, note: "x" }])).toThrow(/entry 0: unknown field "note"/);
    expect(() => validateHardPairs([good, { ...good, a: good.b, b: good.a }])).toThrow(/entry 1: the same pair as entry 0/);
    expect(() => validateHardPairs({ pairs: [good] })).toThrow(/expected an array/);
  });
});
