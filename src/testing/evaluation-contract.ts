/// <reference types="jest" />
import { cosineSimilarity } from "../core/vector-math.js";
import { normalizeScore } from "../similarity/score.js";
import type { EvaluationCandidate, EvaluationContext, EvaluationSource, SimilarityEvaluation } from "../similarity/types.js";

/** Both sides of one comparison, plus the context the evaluation needs (search, now, ...). */
export interface EvaluationPair {
  src: EvaluationSource;
  cached: EvaluationCandidate;
  context?: EvaluationContext;
}

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

/** A pair with synthetic embeddings, the search distance between them, and a fresh createOn. */
export function syntheticPair(question: string, cachedQuestion: string): EvaluationPair {
  const embedding = syntheticEmbedding(question);
  const cachedEmbedding = syntheticEmbedding(cachedQuestion);
  return {
    src: { question, embedding },
    cached: {
      question: cachedQuestion,
      answer: `answer to ${cachedQuestion}`,
      embedding: cachedEmbedding,
      distance: 1 - cosineSimilarity(embedding, cachedEmbedding),
      createOn: Date.now(),
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
  const { name, create, identical, different, pair = syntheticPair } = options;

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

    it("does not throw on empty questions", async () => {
      for (const [a, b] of [["", ""], ["", "what is the capital of france"], ["what is the capital of france", ""]]) {
        expectInRange(await score(await pair(a, b)));
      }
    });
  });
}
