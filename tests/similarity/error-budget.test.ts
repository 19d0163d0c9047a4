import { Cache, cached, DistanceEvaluation, get, managerFactory } from "../../src/index.js";
import { ValidationError } from "../../src/core/errors.js";
import { seededRandom } from "../../src/core/random.js";
import { ManualClock } from "../../src/testing/manual-clock.js";
import { BaseChatModel } from "@langchain/core/language_models/chat_models";
import { AIMessage, type BaseMessage } from "@langchain/core/messages";
import type { ChatResult } from "@langchain/core/outputs";
import { embeddingAnswerJudge } from "../../src/similarity/answer-equivalence.js";
import { ErrorBudget, type ErrorBudgetOptions } from "../../src/similarity/error-budget.js";
import { fitSigmoid, wilsonInterval } from "../../src/similarity/error-budget-stats.js";
import { ErrorBudgetEvaluation, type ErrorBudgetStats } from "../../src/similarity/error-budget-evaluation.js";
import { BagOfWordsEmbedding, tempDir } from "../helpers/fixtures.js";

const sigmoid = (z: number) => 1 / (1 + Math.exp(-z));

/** A world where an entry's answer is right at score s with probability sigmoid(steepness (s - midpoint)). */
function world(midpoint: number, steepness = 40) {
  return { right: (s: number, random: () => number) => random() < sigmoid(steepness * (s - midpoint)), threshold: (delta: number) => midpoint + Math.log((1 - delta) / delta) / steepness };
}

/**
 * Replays `steps` lookups of `entries` (scores uniform in [0.6, 1)) through the budget; counts what users got, and
 * whether each lookup well above its entry's true threshold (where serving is right) was explored.
 */
function replay(budget: ErrorBudget, entries: Record<string, ReturnType<typeof world>>, steps: number, seed = 7) {
  const random = seededRandom(seed);
  const names = Object.keys(entries);
  const served = { hits: 0, wrong: 0 };
  const exploredAbove: number[] = [];
  for (let i = 0; i < steps; i++) {
    const entry = names[i % names.length];
    const score = 0.6 + 0.4 * random();
    const right = entries[entry].right(score, random);
    const decision = budget.decide(entry, score);
    if (score > entries[entry].threshold(budget.maxErrorRate) + 0.02) exploredAbove.push(decision.action === "explore" ? 1 : 0);
    if (decision.action === "serve") {
      served.hits++;
      if (!right) served.wrong++;
    } else {
      budget.observe(entry, score, right, decision.audit);
    }
  }
  const share = (part: number[]) => part.reduce((a, b) => a + b, 0) / part.length;
  return { served, exploredAbove: { early: share(exploredAbove.slice(0, 20)), late: share(exploredAbove.slice(-300)) } };
}

const budgetOf = (options: Partial<ErrorBudgetOptions> = {}) => new ErrorBudget({ maxErrorRate: 0.05, scale: "linear", confidence: 0.9, random: seededRandom(1), now: () => 0, ...options });

describe("ErrorBudget (the algorithm)", () => {
  test("refuses a budget outside (0, 1) and bad counts, by name", () => {
    expect(() => new ErrorBudget({ maxErrorRate: 0 })).toThrow(ValidationError);
    expect(() => new ErrorBudget({ maxErrorRate: 1.5 })).toThrow(/maxErrorRate/);
    expect(() => new ErrorBudget({} as ErrorBudgetOptions)).toThrow(/maxErrorRate/);
    expect(() => budgetOf({ auditShare: 1 })).toThrow(/auditShare/);
    expect(() => budgetOf({ maxEntries: 0 })).toThrow(/maxEntries/);
  });

  test("with no observations it explores nearly every lookup, even at a high score", () => {
    const budget = budgetOf();
    let explored = 0;
    for (let i = 0; i < 200; i++) if (budget.decide("a", 0.97).action === "explore") explored++;
    expect(explored).toBeGreaterThan(190);
    expect(budget.counts).toMatchObject({ decisions: 200, explored: expect.any(Number) });
  });

  test("the fit recovers a known sigmoid from its observations", () => {
    const random = seededRandom(3);
    const truth = world(0.8, 40);
    const observations = Array.from({ length: 2000 }, () => {
      const score = 0.5 + 0.5 * random();
      return { score, right: truth.right(score, random) };
    });
    const fit = fitSigmoid(observations, { t: 0.9, gamma: 30 }, [25, 0, 1 / 400]);
    expect(fit.t).toBeCloseTo(0.8, 1);
    expect(Math.abs(fit.gamma - 40)).toBeLessThan(10);
    expect(fit.covariance[0]).toBeGreaterThan(0);
    expect(fit.covariance[0]).toBeLessThan(1e-3);
  });

  test("on a stream with a known threshold it converges, explores less and less, and keeps the false-hit rate under δ", () => {
    const delta = 0.05;
    const truth = world(0.8, 40);
    const budget = budgetOf({ maxErrorRate: delta });
    const { served, exploredAbove } = replay(budget, { a: truth }, 6000);
    const learned = budget.thresholdOf(budget.fitOf("a"));
    // Within 0.03 of the truth, and on the safe side of it.
    expect(learned - truth.threshold(delta)).toBeGreaterThan(-0.005);
    expect(learned - truth.threshold(delta)).toBeLessThan(0.03);
    expect(exploredAbove.early).toBeGreaterThan(0.8);
    expect(exploredAbove.late).toBeLessThan(0.4);
    expect(served.hits).toBeGreaterThan(900);
    expect(served.wrong / served.hits).toBeLessThanOrEqual(delta);
  });

  test("each entry learns its own threshold; the pooled fit is the prior of an entry with no history", () => {
    const delta = 0.05;
    const budget = budgetOf({ maxErrorRate: delta, maxObservationsPerEntry: 400 });
    const strict = world(0.9, 60);
    const lenient = world(0.7, 60);
    const { served } = replay(budget, { strict, lenient }, 6000);
    const strictThreshold = budget.thresholdOf(budget.fitOf("strict"));
    const lenientThreshold = budget.thresholdOf(budget.fitOf("lenient"));
    expect(strictThreshold - lenientThreshold).toBeGreaterThan(0.1);
    expect(Math.abs(strictThreshold - strict.threshold(delta))).toBeLessThan(0.04);
    expect(Math.abs(lenientThreshold - lenient.threshold(delta))).toBeLessThan(0.04);
    expect(served.wrong / served.hits).toBeLessThanOrEqual(delta);
    const fresh = budget.thresholdOf(budget.fitOf("never seen"));
    expect(fresh).toBeCloseTo(budget.thresholdOf(budget.pooledFit), 6);
  });

  test("audits sample would-be hits at the audit share, and the estimate is their wrong share with a Wilson interval", () => {
    const budget = budgetOf({ auditShare: 0.2, prior: { t: 0.3, gamma: 60, tStd: 0.01, gammaStd: 1 }, entrySpread: 0.001 });
    let audits = 0;
    for (let i = 0; i < 1000; i++) {
      const decision = budget.decide("a", 0.95);
      if (decision.audit) {
        audits++;
        budget.observe("a", 0.95, true, true);
      }
    }
    // The share among would-be hits (the fit explored some lookups outright: those are no audits).
    const wouldServe = budget.counts.audited + budget.counts.served;
    expect(wouldServe).toBeGreaterThan(500);
    expect(audits / wouldServe).toBeGreaterThan(0.16);
    expect(audits / wouldServe).toBeLessThan(0.24);
    expect(budget.estimate()).toMatchObject({ samples: audits, wrong: 0, rate: 0, lower: 0 });
    // Explorations that were not audits teach the entry but are no sample of served hits.
    budget.observe("a", 0.95, false, false);
    expect(budget.estimate().samples).toBe(audits);
    for (let i = 0; i < 5; i++) budget.observe("a", 0.95, false, true);
    const estimate = budget.estimate();
    expect(estimate).toMatchObject({ samples: audits + 5, wrong: 5 });
    expect(estimate.rate).toBeCloseTo(5 / (audits + 5), 6);
    expect(estimate.lower).toBeLessThan(estimate.rate);
    expect(estimate.upper).toBeGreaterThan(estimate.rate);
  });

  test("Wilson interval: none is [0, 1], and it narrows with the sample", () => {
    expect(wilsonInterval(0, 0, 0.95)).toMatchObject({ lower: 0, upper: 1 });
    const small = wilsonInterval(1, 20, 0.95);
    const large = wilsonInterval(50, 1000, 0.95);
    expect(small.upper - small.lower).toBeGreaterThan(large.upper - large.lower);
    expect(large.lower).toBeCloseTo(0.0381, 3);
    expect(large.upper).toBeCloseTo(0.0653, 3);
  });

  test("memory is bounded: entries and observations per entry", () => {
    const budget = budgetOf({ maxEntries: 3, maxObservationsPerEntry: 5 });
    for (let i = 0; i < 10; i++) for (let k = 0; k < 20; k++) budget.observe(`e${i}`, 0.9, true);
    expect(budget.entries).toBe(3);
    expect(budget.thresholds().map((row) => row.observations)).toEqual([5, 5, 5]);
  });
});

/** A chat model standing in for the verifier: answers by `reply` on the two answers its prompt shows, and records the prompt. */
class FakeAnswerVerifier extends BaseChatModel {
  constructor(
    private readonly reply: (fresh: string, cached: string) => string,
    private readonly asked: string[],
  ) {
    super({});
  }

  _llmType(): string {
    return "fake-answer-verifier";
  }

  async _generate(messages: BaseMessage[]): Promise<ChatResult> {
    const last = String(messages.at(-1)?.content ?? "");
    this.asked.push(last);
    const [, fresh = "", cached = ""] = /Fresh answer:\n(.*)\n\nCached answer:\n(.*)$/s.exec(last) ?? [];
    const text = this.reply(fresh.replace(/^answer: /, ""), cached.replace(/^answer: /, ""));
    return { generations: [{ text, message: new AIMessage(text) }] };
  }
}

describe("ErrorBudgetEvaluation through a real Cache", () => {
  const FILLER = new Set(["what", "is", "the", "how", "do", "i", "to", "please", "a", "can", "you", "on"]);
  const gist = (text: string) => [...new Set((text.toLowerCase().match(/[a-z0-9]+/g) ?? []).filter((w) => !FILLER.has(w)))].sort().join(" ");
  let dir: ReturnType<typeof tempDir>;
  let cache: Cache;
  let calls: string[];

  /** A cache whose model answers by the question's content words, so paraphrases get the same answer. */
  async function open(options: Partial<ConstructorParameters<typeof ErrorBudgetEvaluation>[0]> = {}, clock?: ManualClock) {
    dir = tempDir();
    calls = [];
    const evaluation = new ErrorBudgetEvaluation({ evaluation: new DistanceEvaluation(), maxErrorRate: 0.05, random: seededRandom(5), ...options });
    cache = await new Cache().init({
      embeddingFunc: new BagOfWordsEmbedding(),
      dataManager: managerFactory("sqlite,hnswlib", { dataDir: dir.path, clock }),
      similarityEvaluation: evaluation,
      config: { similarityThreshold: 0.3 },
    });
    const ask = cached(async (prompt: string) => (calls.push(prompt), `answer: ${gist(prompt)}`), { requestOptions: { cacheObj: cache } });
    return { evaluation, ask };
  }

  afterEach(async () => {
    await cache.close();
    dir.cleanup();
  });

  const section = () => (cache.report.toJSON() as { errorBudget?: ErrorBudgetStats }).errorBudget;

  test("with no history, a would-be hit is explored: the model answers, the outcome is learned, the report shows it", async () => {
    const { evaluation, ask } = await open();
    expect(await ask("how do I install numpy on linux")).toBe("answer: install linux numpy");
    expect(await ask("please install numpy on linux")).toBe("answer: install linux numpy");
    expect(calls).toHaveLength(2);
    await evaluation.settled();
    const stats = section();
    expect(stats).toMatchObject({ maxErrorRate: 0.05, decisions: 1, explored: 1, served: 0, observations: 1, pendingComparisons: 0, sampleShare: 1 });
    expect(stats?.thresholds).toEqual([expect.objectContaining({ observations: 1 })]);
    expect(stats?.estimate).toMatchObject({ samples: 0, lower: 0, upper: 1 });
    expect(cache.report.misses).toBe(2);
  });

  test("a confident fit serves; its audit share is sent to the model and the comparison feeds the estimate", async () => {
    const confident = { t: 0.2, gamma: 60, tStd: 0.01, gammaStd: 1 };
    const { evaluation, ask } = await open({ prior: confident, entrySpread: 0.001, auditShare: 0.5 });
    await ask("how do I install numpy on linux");
    const paraphrases = ["please install numpy on linux", "install numpy on linux", "can you install numpy on linux", "how to install numpy on linux"];
    for (const question of paraphrases) await ask(question);
    await evaluation.settled();
    const stats = section()!;
    expect(stats.decisions).toBeGreaterThanOrEqual(paraphrases.length);
    expect(stats.audited).toBeGreaterThan(0);
    expect(stats.served).toBeGreaterThan(0);
    // Every audit went to the model and came back compared: right, since the answers match.
    expect(calls.length - 1).toBe(stats.audited);
    expect(stats.estimate).toMatchObject({ samples: stats.audited, wrong: 0, rate: 0 });
    expect(stats.estimate.upper).toBeGreaterThan(0);
  });

  test("an entry learns at its lookup's time on the data manager's clock, not the wall clock's", async () => {
    const clock = new ManualClock(Date.UTC(2020, 0, 1));
    const { evaluation, ask } = await open({}, clock);
    await ask("how do I install numpy on linux");
    clock.advance(60_000);
    await ask("please install numpy on linux");
    await evaluation.settled();
    expect(evaluation.budget.thresholds()).toEqual([expect.objectContaining({ observations: 1, updatedAtMs: Date.UTC(2020, 0, 1) + 60_000 })]);
  });

  test("a wrong answer is recorded as a wrong outcome (the answer judge compares the answers)", async () => {
    const { evaluation, ask } = await open();
    await ask("how do I install numpy on linux");
    await ask("how do I uninstall numpy on linux");
    await evaluation.settled();
    expect(evaluation.budget.counts).toMatchObject({ observations: 1, wrong: 1 });
  });

  test("get (searchOnly) never explores: without a confident fit it is a miss, and nothing is learned", async () => {
    const { evaluation, ask } = await open();
    await ask("how do I install numpy on linux");
    expect(await get("please install numpy on linux", { cacheObj: cache })).toBeNull();
    await evaluation.settled();
    expect(evaluation.budget.counts).toMatchObject({ decisions: 1, explored: 0, observations: 0 });
  });

  test("a verifier chat model judges the answers: it reads both; its 'no' is a wrong outcome, its 'yes' a right one", async () => {
    const asked: string[] = [];
    // Stands in for the verifier: the two answers are equivalent when both or neither say "uninstall".
    const verifier = new FakeAnswerVerifier((fresh, cached) => (fresh.includes("uninstall") === cached.includes("uninstall") ? "Yes." : "No"), asked);
    const { evaluation, ask } = await open({ verifier });
    await ask("how do I install numpy on linux");
    await ask("how do I uninstall numpy on linux");
    await ask("please install numpy on linux");
    await ask("how do I install numpy on linux today");
    await evaluation.settled();
    expect(evaluation.budget.counts).toMatchObject({ observations: 3, wrong: 1 });
    // "please install ..." got the stored answer word for word: equivalent without asking the verifier; "... today"
    // got another wording, which the verifier accepted.
    expect(asked).toHaveLength(2);
    expect(asked[0]).toMatch(/Fresh answer:\nanswer: linux numpy uninstall\n\nCached answer:\nanswer: install linux numpy/);
  });

  test("the default answer judge embeds the answers (identical texts are always equivalent)", async () => {
    const judge = embeddingAnswerJudge(new BagOfWordsEmbedding(), { threshold: 0.9 });
    const pair = { question: "q", cachedQuestion: "q" };
    expect(await judge({ ...pair, fresh: "pip install numpy", stored: "pip install numpy" })).toBe(true);
    expect(await judge({ ...pair, fresh: "pip install numpy", stored: "pip uninstall numpy" })).toBe(false);
  });
});
