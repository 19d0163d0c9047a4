/**
 * The dashboard's bounded parts on their own: histogram bins and percentiles, the ring of buckets, the frequent
 * questions sketch and the latest misses, and the price table (config checks included).
 */
import { ValidationError } from "../../src/core/errors.js";
import { Section } from "../../src/config/section.js";
import { LATENCY_BINS, latencyBin, latencyQuantileMs, latencyUpperMs, scoreBin, SCORE_BINS } from "../../src/server/dashboard/bins.js";
import { FrequentQuestions, RecentMisses } from "../../src/server/dashboard/frequent-questions.js";
import { PriceTable } from "../../src/server/dashboard/prices.js";
import { RingSeries } from "../../src/server/dashboard/ring-series.js";
import { readServerSection, resolveServerSettings } from "../../src/server/server-config.js";

describe("histogram bins", () => {
  it("puts a latency in the bin whose bounds hold it, and reads percentiles within a bin's width", () => {
    for (const ms of [0.05, 0.1, 0.3, 1, 2.5, 17, 400, 3000, 60_000]) {
      const bin = latencyBin(ms);
      expect(latencyUpperMs(bin)).toBeGreaterThanOrEqual(ms);
      if (bin > 0) expect(latencyUpperMs(bin - 1)).toBeLessThan(ms);
    }
    expect(latencyBin(1e9)).toBe(LATENCY_BINS - 1);
    const counts = new Array<number>(LATENCY_BINS).fill(0);
    const samples = [...Array(90).fill(0.4), ...Array(9).fill(20), 2000];
    for (const ms of samples) counts[latencyBin(ms)]++;
    expect(latencyQuantileMs(counts, 0.5)).toBeGreaterThan(0.4 / Math.SQRT2);
    expect(latencyQuantileMs(counts, 0.5)).toBeLessThanOrEqual(0.4 * Math.SQRT2);
    expect(latencyQuantileMs(counts, 0.95)! / 20).toBeGreaterThan(0.7);
    expect(latencyQuantileMs(counts, 0.95)! / 20).toBeLessThan(1.42);
    expect(latencyQuantileMs(counts, 1)! / 2000).toBeGreaterThan(0.7);
    expect(latencyQuantileMs(new Array<number>(LATENCY_BINS).fill(0), 0.5)).toBeUndefined();
  });

  it("bins scores by 0.05, 1 in the last bin", () => {
    expect([0, 0.049, 0.05, 0.545, 0.999, 1].map(scoreBin)).toEqual([0, 0, 1, 10, 19, SCORE_BINS - 1]);
  });
});

describe("RingSeries", () => {
  it("zeroes a bucket when the clock comes round to its slot again, and never grows", () => {
    const ring = new RingSeries(1000, 3, 2, 1);
    ring.count(0, 0);
    ring.count(500, 0);
    ring.count(1500, 1);
    const read = (now: number) => [...ring.window(now, 3)].map(({ slot }) => (slot === undefined ? null : ring.countAt(slot, 0) + ring.countAt(slot, 1)));
    expect(read(2000)).toEqual([2, 1, null]);
    ring.count(3200, 0); // slot 0 again: bucket 0's two are gone
    expect(read(3200)).toEqual([1, null, 1]);
    expect(ring.counts).toHaveLength(6);
    const copy = new RingSeries(1000, 3, 2, 1);
    copy.restore(ring.snapshot(), 3200);
    expect([...copy.window(3200, 3)].map(({ slot }) => (slot === undefined ? null : copy.countAt(slot, 0) + copy.countAt(slot, 1)))).toEqual([1, null, 1]);
    // A snapshot of other buckets' width means something else: ignored.
    const other = new RingSeries(60_000, 3, 2, 1);
    other.restore(ring.snapshot(), 3200);
    expect(other.snapshot().rows).toEqual([]);
  });
});

describe("FrequentQuestions and RecentMisses", () => {
  it("always holds a question asked more than total/capacity times, never counting it low", () => {
    const sketch = new FrequentQuestions(3);
    for (let i = 0; i < 100; i++) {
      sketch.add("popular");
      sketch.add(`rare ${i}`);
    }
    const [top] = sketch.top(1);
    expect(top.question).toBe("popular");
    expect(top.count - top.error).toBeLessThanOrEqual(100);
    expect(top.count).toBeGreaterThanOrEqual(100);
    expect(sketch.top(10)).toHaveLength(3);
  });

  it("keeps the latest misses, newest first", () => {
    const misses = new RecentMisses(2);
    misses.add("one", 0.4, 1);
    misses.add("two", undefined, 2);
    misses.add("three", 0.7, 3);
    expect(misses.list()).toEqual([
      { question: "three", score: 0.7, at: 3 },
      { question: "two", at: 2 },
    ]);
  });
});

describe("server.prices", () => {
  it("prices a model's tokens, `default` the rest", () => {
    const table = new PriceTable({ default: { inputPer1k: 1, outputPer1k: 2 }, big: { inputPer1k: 10, outputPer1k: 30 } });
    expect(table.cost("big", 1000, 100)).toBeCloseTo(13, 10);
    expect(table.cost("other", 1000, 1000)).toBeCloseTo(3, 10);
    expect(table.cost(undefined, 500, 0)).toBeCloseTo(0.5, 10);
    expect(new PriceTable().cost("big", 1000, 1000)).toBe(0);
    expect(new PriceTable().configured).toBe(false);
  });

  it("reads the YAML form and refuses bad values with the key's path", () => {
    const read = (prices: unknown) => readServerSection(new Section({ prices }, "server"));
    expect(read({ "gpt-4o-mini": { input_per_1k: 0.00015, output_per_1k: 0.0006 } }).prices).toEqual({ "gpt-4o-mini": { inputPer1k: 0.00015, outputPer1k: 0.0006 } });
    expect(() => read({ m: { input_per_1k: -1, output_per_1k: 0 } })).toThrow(new ValidationError("server.prices.m.input_per_1k must be a number of at least 0, got -1."));
    expect(() => read({ m: { input_per_1k: 1 } })).toThrow(/server\.prices\.m\.output_per_1k must be a number/);
    expect(() => read({ m: { input_per_1k: 1, output_per_1k: 1, currency: "EUR" } })).toThrow(/Unknown price key in server\.prices\.m: currency/);
    expect(() => read({ m: 3 })).toThrow(/server\.prices\.m must be a mapping/);
    expect(() => read(["m"])).toThrow(ValidationError);
    expect(() => resolveServerSettings({ prices: { m: { inputPer1k: Number.NaN, outputPer1k: 1 } } })).toThrow(/server\.prices\.m\.input_per_1k/);
  });
});
