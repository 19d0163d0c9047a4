import { ChatOpenAI, OpenAIEmbeddings } from "@langchain/openai";
import { awaitAllCallbacks } from "@langchain/core/callbacks/promises";
import { load } from "@langchain/core/load";
import { RunnableLambda } from "@langchain/core/runnables";
import { Cache, cached, Config, managerFactory } from "../../src/index.js";
import { ValidationError } from "../../src/core/errors.js";
import { toEvaluationPair } from "../../src/similarity/base.js";
import { DistanceEvaluation } from "../../src/similarity/distance.js";
import { EmbeddingDistanceEvaluation } from "../../src/similarity/embedding-distance.js";
import { ExactMatchEvaluation } from "../../src/similarity/exact-match.js";
import { LLMJudgeEvaluation } from "../../src/similarity/llm-judge.js";
import { KReciprocalEvaluation } from "../../src/similarity/k-reciprocal.js";
import { SequenceMatchEvaluation } from "../../src/similarity/sequence-match.js";
import { TimeEvaluation } from "../../src/similarity/time.js";
import type { SimilarityEvaluation } from "../../src/core/contracts/evaluation.js";
import { BagOfWordsEmbedding, tempDir } from "../helpers/fixtures.js";

const similarity = { DistanceEvaluation, ExactMatchEvaluation, KReciprocalEvaluation, TimeEvaluation };
const reload = <T>(evaluation: unknown) =>
  load<T>(JSON.stringify(evaluation), { optionalImportsMap: { "langchain_semcache/similarity": similarity } });

describe("BaseSimilarityEvaluation as a Runnable", () => {
  it("normalises by the range: k-reciprocal's [0, 2] score of 1.5 invokes as 0.75", async () => {
    const evaluation = new KReciprocalEvaluation({ topK: 1 });
    const stored = Float32Array.of(1, 0);
    const pair = {
      src: { question: "q", embedding: Float32Array.of(1, 0) },
      cached: { question: "c", answer: "a", embedding: stored, distance: 0.5 },
      context: { search: async () => [{ id: 1, distance: 0 }] },
    };
    expect(await evaluation.evaluation(pair.src, pair.cached, pair.context)).toBe(1.5);
    expect(await evaluation.invoke(pair)).toBe(0.75);
  });

  it("turns the question shorthand into the pipeline's shapes", () => {
    expect(toEvaluationPair({ question: "a", cachedQuestion: "b" })).toEqual({ src: { question: "a" }, cached: { question: "b", answer: "" } });
    expect(toEvaluationPair({ question: "a", cachedQuestion: "b", cachedAnswer: "x" }).cached.answer).toBe("x");
    const context = { now: 5 };
    const pair = { src: { question: "a" }, cached: { question: "b", answer: "x" }, context };
    expect(toEvaluationPair(pair).context).toBe(context);
    expect(() => toEvaluationPair({ question: "a", cachedQuestion: "b", cachedAnswer: 3 } as never)).toThrow(ValidationError);
    expect(() => toEvaluationPair({ ...pair, context: "now" } as never)).toThrow(ValidationError);
  });

  it("takes RunnableConfig: an aborted signal stops the call, withConfig names the run", async () => {
    const evaluation = new ExactMatchEvaluation();
    await expect(evaluation.invoke({ question: "a", cachedQuestion: "a" }, { signal: AbortSignal.abort() })).rejects.toThrow();
    const names: string[] = [];
    const handler = { handleChainStart: (...args: unknown[]) => void names.push(String(args[7])) };
    await evaluation.withConfig({ runName: "same-question" }).invoke({ question: "a", cachedQuestion: "a" }, { callbacks: [handler] });
    await awaitAllCallbacks();
    expect(names).toEqual(["same-question"]);
  });

  it("runs inside a chain: a RunnableLambda builds the pair, the score routes", async () => {
    const chain = RunnableLambda.from((texts: [string, string]) => ({ question: texts[0], cachedQuestion: texts[1] }))
      .pipe(new ExactMatchEvaluation())
      .pipe((score: number) => (score === 1 ? "reuse" : "ask"));
    expect(await chain.batch([["a", "a"], ["a", "b"]])).toEqual(["reuse", "ask"]);
  });
});

describe("serialisation", () => {
  it("round-trips evaluations whose options are plain data through LangChain's load", async () => {
    const kReciprocal = new KReciprocalEvaluation({ topK: 2, maxDistance: 1, positive: true });
    expect(kReciprocal.toJSON()).toEqual({
      lc: 1,
      type: "constructor",
      id: ["langchain_semcache", "similarity", "KReciprocalEvaluation"],
      kwargs: { top_k: 2, max_distance: 1, positive: true },
    });
    const loaded = await reload<KReciprocalEvaluation>(kReciprocal);
    expect(loaded).toBeInstanceOf(KReciprocalEvaluation);
    expect([loaded.topK, loaded.maxDistance, loaded.positive]).toEqual([2, 1, true]);

    const time = await reload<TimeEvaluation>(new TimeEvaluation({ evaluation: new DistanceEvaluation(), timeRangeSeconds: 60 }));
    expect(time).toBeInstanceOf(TimeEvaluation);
    expect(time.timeRangeSeconds).toBe(60);
    expect(time.inner).toBeInstanceOf(DistanceEvaluation);
  });

  it("serialises an LLM judge with its model as LangChain does: the API key as a secret reference", () => {
    const model = new ChatOpenAI({ model: "gpt-4o-mini", apiKey: "sk-do-not-leak", configuration: { baseURL: "http://127.0.0.1:9/v1" } });
    const json = JSON.stringify(new LLMJudgeEvaluation({ model, cacheSize: 10 }));
    expect(json).not.toContain("sk-do-not-leak");
    const serialised = JSON.parse(json);
    expect(serialised).toMatchObject({ type: "constructor", id: ["langchain_semcache", "similarity", "LLMJudgeEvaluation"], kwargs: { cache_size: 10 } });
    expect(serialised.kwargs.model).toMatchObject({ type: "constructor", kwargs: { model: "gpt-4o-mini", openai_api_key: { type: "secret" } } });
  });

  it("does not serialise what it cannot restore or must not copy: embedding clients, user objects", () => {
    const embeddings = new OpenAIEmbeddings({ apiKey: "sk-do-not-leak", configuration: { baseURL: "http://127.0.0.1:9/v1" } });
    const byEmbedding = new EmbeddingDistanceEvaluation({ embeddings });
    const bySequence = new SequenceMatchEvaluation({ weights: [1], embedding: embeddings });
    const plain: SimilarityEvaluation = { range: () => [0, 1], evaluation: () => 1 };
    for (const evaluation of [byEmbedding, bySequence, new TimeEvaluation({ evaluation: plain })]) {
      const json = JSON.stringify(evaluation);
      expect(JSON.parse(json)).toMatchObject({ lc: 1, type: "not_implemented" });
      expect(json).not.toContain("sk-do-not-leak");
    }
  });
});

describe("evaluations in a cache", () => {
  const dirs: Array<{ cleanup: () => void }> = [];
  const caches: Cache[] = [];
  afterEach(async () => {
    await Promise.all(caches.splice(0).map((c) => c.close()));
    dirs.splice(0).forEach((d) => d.cleanup());
  });

  async function semanticCache(similarityEvaluation: SimilarityEvaluation) {
    const dir = tempDir();
    dirs.push(dir);
    const c = await new Cache().init({
      embeddingFunc: new BagOfWordsEmbedding(),
      dataManager: managerFactory("sqlite,hnswlib", { dataDir: dir.path }),
      similarityEvaluation,
      config: new Config({ similarityThreshold: 0.8 }),
    });
    caches.push(c);
    let calls = 0;
    const ask = cached(async (prompt: string) => `answer ${++calls} to ${prompt}`, { requestOptions: { cacheObj: c } });
    return { cache: c, ask };
  }

  /** Counts Runnable calls: the hit path must score through evaluation(), never through invoke(). */
  class CountingDistance extends DistanceEvaluation {
    invokes = 0;
    override async invoke(...args: Parameters<DistanceEvaluation["invoke"]>): Promise<number> {
      this.invokes++;
      return super.invoke(...args);
    }
  }

  it("scores candidates through evaluation(), not the Runnable machinery", async () => {
    const evaluation = new CountingDistance();
    const { ask } = await semanticCache(evaluation);
    const first = await ask("what is the capital of france");
    expect(await ask("what is the capital of france please")).toBe(first);
    expect(await ask("how do i bake bread")).not.toBe(first);
    expect(evaluation.invokes).toBe(0);
  });

  it("still accepts a user's plain { range, evaluation } object, normalised by its range", async () => {
    const seen: number[] = [];
    const plain: SimilarityEvaluation = {
      range: () => [0, 10],
      evaluation: (src, cached) => {
        const score = cached.question.includes("france") && src.question.includes("france") ? 9 : 1;
        seen.push(score);
        return score;
      },
    };
    const { cache, ask } = await semanticCache(plain);
    const first = await ask("what is the capital of france");
    expect(await ask("capital of france")).toBe(first);
    expect(await ask("capital of spain")).not.toBe(first);
    expect(seen).toContain(9);
    expect(cache.report.hits).toBe(1);
  });
});
