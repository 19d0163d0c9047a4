import { awaitAllCallbacks } from "@langchain/core/callbacks/promises";
import { Runnable } from "@langchain/core/runnables";
import { ValidationError } from "../core/errors.js";
import { cosineSimilarity } from "../core/vector-math.js";
import type { EvaluationInput, EvaluationPair } from "../similarity/base.js";
import { normalizeScore } from "../core/similarity-score.js";
import type { SimilarityEvaluation } from "../core/contracts/evaluation.js";
import { resolveRunner, type TestRunner } from "./runner.js";

export type { EvaluationPair } from "../similarity/base.js";

type Factory<T> = () => T | Promise<T>;

export interface SimilarityEvaluationContractOptions {
  name: string;
  /** A fresh evaluation per test. */
  create: Factory<SimilarityEvaluation>;
  /** A pair the evaluation must score at the top of its range. */
  identical: Factory<EvaluationPair>;
  /** A pair it must score below the top. */
  different?: Factory<EvaluationPair>;
  /** Builds a pair from two question texts (random and empty-string checks). Default `syntheticPair`. */
  pair?: (question: string, cachedQuestion: string) => EvaluationPair | Promise<EvaluationPair>;
  /**
   * The evaluation is also a LangChain Runnable (every evaluation of this package is): checks invoke, batch,
   * the question shorthand, callbacks and serialisation. Set false for a plain { range, evaluation } object.
   * Default true.
   */
  runnable?: boolean;
  /** The test runner's functions; default its globals (see TestRunner). */
  runner?: TestRunner;
}

/** A deterministic bag-of-words vector (unit length; zero for text without words): texts sharing words are near. */
export function syntheticEmbedding(text: string, dimension = 16): Float32Array {
  const vector = new Float32Array(dimension);
  for (const word of text.toLowerCase().match(/[a-z0-9]+/g) ?? []) {
    let hash = 0x811c9dc5;
    for (let i = 0; i < word.length; i++) hash = Math.imul(hash ^ word.charCodeAt(i), 0x01000193);
    vector[(hash >>> 0) % dimension] += 1;
  }
  const norm = Math.hypot(...vector);
  return norm === 0 ? vector : vector.map((value) => value / norm);
}

/** A pair with synthetic embeddings (of `dimension`), the search distance between them, and a fresh createdAtMs. */
export function syntheticPair(question: string, cachedQuestion: string, dimension = 16): EvaluationPair {
  const embedding = syntheticEmbedding(question, dimension);
  const cachedEmbedding = syntheticEmbedding(cachedQuestion, dimension);
  return {
    src: { question, embedding },
    cached: {
      question: cachedQuestion,
      answer: `answer to ${cachedQuestion}`,
      embedding: cachedEmbedding,
      distance: 1 - cosineSimilarity(embedding, cachedEmbedding),
      createdAtMs: Date.now(),
    },
  };
}

const WORDS = "what is the capital of france how do i bake bread weather today in paris sort a list python".split(" ");

/** Seeded question pairs (a third repeat the question) so every run checks the same cases. */
function randomQuestionPairs(count: number): Array<[string, string]> {
  let seed = 42;
  const random = () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const question = () =>
    Array.from({ length: 1 + Math.floor(random() * 8) }, () => WORDS[Math.floor(random() * WORDS.length)]).join(" ");
  return Array.from({ length: count }, (_, i) => {
    const a = question();
    return [a, i % 3 === 0 ? a : question()];
  });
}

/** Registers the behaviours every similarity evaluation must have. */
export function testSimilarityEvaluation(options: SimilarityEvaluationContractOptions): void {
  const { name, create, identical, different, pair = syntheticPair, runnable = true } = options;
  const runner = resolveRunner(options.runner);
  const { describe, it, expect, beforeEach } = runner;

  describe(`${name} (similarity evaluation contract)`, () => {
    let evaluation: SimilarityEvaluation;

    beforeEach(async () => {
      evaluation = await create();
    });

    const score = async (p: EvaluationPair) => evaluation.evaluation(p.src, p.cached, p.context);

    const expectInRange = (value: number) => {
      const [min, max] = evaluation.range();
      expect(typeof value).toBe("number");
      expect(value).toBeGreaterThanOrEqual(min);
      expect(value).toBeLessThanOrEqual(max);
    };

    it("has a finite range [min < max] that does not change", () => {
      const [min, max] = evaluation.range();
      expect(Number.isFinite(min) && Number.isFinite(max)).toBe(true);
      expect(min).toBeLessThan(max);
      expect(evaluation.range()).toEqual([min, max]);
    });

    it("scores the identical pair at the top of its range", async () => {
      const value = await score(await identical());
      expectInRange(value);
      expect(normalizeScore(evaluation, value)).toBe(1);
    });

    if (different) {
      it("scores the different pair below the top", async () => {
        const value = await score(await different());
        expectInRange(value);
        expect(normalizeScore(evaluation, value)).toBeLessThan(1);
      });
    }

    it("keeps scores of random pairs within its range, and gives the same score twice", async () => {
      for (const [a, b] of randomQuestionPairs(30)) {
        const p = await pair(a, b);
        const first = await score(p);
        expectInRange(first);
        expect(await score(p)).toBe(first);
      }
    });

    it("never scores a pair over its bound, where it offers one (scoreBound)", async () => {
      const bound = evaluation.scoreBound?.bind(evaluation);
      if (!bound) return;
      for (const [a, b] of [...randomQuestionPairs(30), ["how do I sort a list in python", "how do I reverse a list in python"]]) {
        const p = await pair(a, b);
        expect(normalizeScore(evaluation, await score(p))).toBeLessThanOrEqual(normalizeScore(evaluation, await bound(p.src, p.cached, p.context)));
      }
    });

    it("does not throw on empty questions", async () => {
      for (const [a, b] of [["", ""], ["", "what is the capital of france"], ["what is the capital of france", ""]]) {
        expectInRange(await score(await pair(a, b)));
      }
    });

    if (runnable) testAsRunnable(runner, () => evaluation, { identical, different, pair });
  });
}

/** A promise's outcome, so two calls can be compared whether they resolve or reject. */
async function settle(promise: Promise<number>): Promise<{ value?: number; error?: string }> {
  try {
    return { value: await promise };
  } catch (error) {
    return { error: error instanceof Error ? error.constructor.name : String(error) };
  }
}

/** The Runnable side of the contract: invoke is the normalised evaluation, with LangChain's usual behaviours. */
function testAsRunnable(
  { it, expect }: TestRunner,
  current: () => SimilarityEvaluation,
  pairs: Pick<SimilarityEvaluationContractOptions, "identical" | "different"> & { pair: NonNullable<SimilarityEvaluationContractOptions["pair"]> },
): void {
  const asRunnable = () => {
    const evaluation = current();
    expect(Runnable.isRunnable(evaluation)).toBe(true);
    return evaluation as unknown as Runnable<EvaluationInput, number>;
  };
  const samples = async () => [
    await pairs.identical(),
    ...(pairs.different ? [await pairs.different()] : []),
    await pairs.pair("what is the capital of france", "capital of france"),
  ];
  const normalised = async (p: EvaluationPair) => normalizeScore(current(), await current().evaluation(p.src, p.cached, p.context));

  it("is a Runnable whose invoke returns the evaluation's score normalised to [0, 1]", async () => {
    const runnable = asRunnable();
    for (const p of await samples()) {
      const score = await runnable.invoke(p);
      expect(score).toBeGreaterThanOrEqual(0);
      expect(score).toBeLessThanOrEqual(1);
      expect(score).toBe(await normalised(p));
    }
    expect(await runnable.invoke(await pairs.identical())).toBe(1);
  });

  it("batches: each input scores as invoke scores it", async () => {
    const runnable = asRunnable();
    const inputs = await samples();
    const expected = await Promise.all(inputs.map((p) => normalised(p)));
    expect(await runnable.batch(inputs, {}, { maxConcurrency: 2 })).toEqual(expected);
  });

  it("reads { question, cachedQuestion } as a pair of bare questions", async () => {
    const runnable = asRunnable();
    for (const [question, cachedQuestion] of [["capital of france", "capital of france"], ["capital of france", "how do i bake bread"]]) {
      const bare = { src: { question }, cached: { question: cachedQuestion, answer: "" } };
      expect(await settle(runnable.invoke({ question, cachedQuestion }))).toEqual(await settle(runnable.invoke(bare)));
    }
  });

  it("rejects input of any other shape with a ValidationError", async () => {
    const runnable = asRunnable();
    for (const input of [{}, { question: "q" }, { src: { question: "q" } }, { src: {}, cached: { question: "c" } }, null, "text"]) {
      await expect(runnable.invoke(input as never)).rejects.toBeInstanceOf(ValidationError);
    }
  });

  it("shows callbacks one run per call, with its input and score, and pipes into a chain", async () => {
    const runnable = asRunnable();
    const p = await pairs.identical();
    const events: Array<{ event: string; runId: string; payload: unknown }> = [];
    const handler = {
      handleChainStart: (_chain: unknown, inputs: unknown, runId: string) => void events.push({ event: "start", runId, payload: inputs }),
      handleChainEnd: (outputs: unknown, runId: string) => void events.push({ event: "end", runId, payload: outputs }),
    };
    expect(await runnable.invoke(p, { callbacks: [handler], runName: "judge" })).toBe(1);
    await awaitAllCallbacks();
    const own = events.filter((e) => e.runId === events[0]?.runId);
    expect(own.map((e) => e.event)).toEqual(["start", "end"]);
    expect(own[0].payload).toMatchObject({ src: { question: p.src.question } });
    expect(own[1].payload).toEqual({ output: 1 });

    const chain = runnable.pipe((score: number) => (score >= 0.5 ? "hit" : "miss"));
    expect(await chain.invoke(p)).toBe("hit");
    const serialised = JSON.parse(JSON.stringify(runnable));
    expect(serialised).toMatchObject({ lc: 1, type: expect.stringMatching(/^(constructor|not_implemented)$/) });
  });
}
