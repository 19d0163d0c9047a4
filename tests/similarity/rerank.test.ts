import { Cache, cached, Config, managerFactory } from "../../src/index.js";
import { EvaluationError, ValidationError } from "../../src/core/errors.js";
import { TokenBucket, type LimiterClock } from "../../src/similarity/rate-limiter.js";
import { RerankEvaluation } from "../../src/similarity/rerank.js";
import { testSimilarityEvaluation } from "../../src/testing/evaluation-contract.js";
import type { FakeServer } from "../../src/testing/fake-servers/http.js";
import { startFakeRerank, wordOverlap } from "../../src/testing/fake-servers/rerank.js";
import { BagOfWordsEmbedding, tempDir } from "../helpers/fixtures.js";

let server: FakeServer;
let broken: FakeServer;
beforeAll(async () => {
  server = await startFakeRerank();
  broken = await startFakeRerank({ fail: (body) => (body.model === "broken" ? 429 : undefined), delayMs: 0 });
});
afterAll(async () => {
  await server.close();
  await broken.close();
});

/** The cached answer is what the rerank API compares with the question. */
const pair = (question: string, answer: string) => ({ src: { question }, cached: { question: "stored question", answer } });
const rerank = (options: Partial<ConstructorParameters<typeof RerankEvaluation>[0]> = {}) =>
  new RerankEvaluation({ baseUrl: server.url, model: "rerank-v3.5", apiKey: "test-key", limiter: null, ...options });

testSimilarityEvaluation({
  name: "RerankEvaluation (v2, local Cohere-wire server)",
  create: () => rerank(),
  identical: () => pair("capital of france", "Paris is the capital of France"),
  different: () => pair("capital of france", "bake bread at home"),
  pair,
});

testSimilarityEvaluation({
  name: "RerankEvaluation (v1)",
  create: () => rerank({ apiVersion: "v1" }),
  identical: () => pair("capital of france", "capital of france: Paris"),
  pair,
});

describe("RerankEvaluation", () => {
  it("posts Cohere's body with the bearer key: the question as query, the cached answer as the document", async () => {
    const before = server.requests.length;
    expect(await rerank().evaluation({ question: "capital of france" }, { question: "q", answer: "the capital is Paris" })).toBeCloseTo(1 / 3, 10);
    const request = server.requests[before];
    expect(request.path).toBe("/v2/rerank");
    expect(request.headers.authorization).toBe("Bearer test-key");
    expect(request.json).toEqual({ model: "rerank-v3.5", query: "capital of france", documents: ["the capital is Paris"], top_n: 1 });
  });

  it("returns scores in the documents' order although the API sorts them best first", async () => {
    const documents = ["bake bread", "capital of france", "the capital"];
    expect(await rerank().rerank("capital of france", documents)).toEqual(documents.map((d) => wordOverlap("capital of france", d)));
  });

  it("scores an empty question or answer 0 without a call", async () => {
    const before = server.requests.length;
    expect(await rerank().evaluation({ question: "" }, { question: "q", answer: "a" })).toBe(0);
    expect(await rerank().evaluation({ question: "q" }, { question: "q", answer: "" })).toBe(0);
    expect(server.requests.length).toBe(before);
  });

  it("surfaces API errors and timeouts as EvaluationError with the API's message", async () => {
    await expect(rerank({ baseUrl: broken.url, model: "broken" }).rerank("q", ["a"])).rejects.toThrow(/429: fake failure 429/);
    const slow = await startFakeRerank({ delayMs: 500 });
    try {
      await expect(rerank({ baseUrl: slow.url, timeoutMs: 50 }).rerank("q", ["a"])).rejects.toThrow(EvaluationError);
    } finally {
      await slow.close();
    }
  });

  it("validates its options", () => {
    expect(() => new RerankEvaluation({} as never)).toThrow(ValidationError);
    expect(() => rerank({ baseUrl: "not a url" })).toThrow(ValidationError);
    expect(() => rerank({ apiVersion: "v3" as "v2" })).toThrow(ValidationError);
    expect(() => rerank({ timeoutMs: 0 })).toThrow(ValidationError);
  });

  describe("in a Cache", () => {
    let dir: ReturnType<typeof tempDir>;
    let cache: Cache;
    afterEach(async () => {
      await cache.close();
      dir.cleanup();
    });

    async function rerankedCache(model: string) {
      dir = tempDir();
      const errors: Error[] = [];
      cache = await new Cache().init({
        embeddingFunc: new BagOfWordsEmbedding(),
        dataManager: managerFactory("sqlite,hnswlib", { dataDir: dir.path }),
        similarityEvaluation: rerank({ baseUrl: broken.url, model }),
        config: new Config({ similarityThreshold: 0.5 }),
        onError: (error) => errors.push(error),
      });
      let calls = 0;
      const ask = cached(async (prompt: string) => `answer ${++calls}: ${prompt}`, { requestOptions: { cacheObj: cache } });
      return { ask, errors };
    }

    it("answers from the cache when the stored answer is relevant to the new question", async () => {
      const { ask } = await rerankedCache("rerank-v3.5");
      expect(await ask("capital of france")).toBe("answer 1: capital of france");
      expect(await ask("what capital of france")).toBe("answer 1: capital of france");
    });

    it("fails open when the API fails: the model answers, the fault is counted", async () => {
      const { ask, errors } = await rerankedCache("broken");
      await ask("capital of france");
      expect(await ask("what capital of france")).toBe("answer 2: what capital of france");
      expect(cache.report.errors).toBeGreaterThan(0);
      expect(errors.some((error) => /429/.test(error.message))).toBe(true);
    });
  });
});

describe("TokenBucket", () => {
  /** A clock that only moves when a caller sleeps. */
  function fakeClock(): LimiterClock & { slept: number[] } {
    let now = 0;
    const slept: number[] = [];
    return { slept, now: () => now, sleep: async (ms) => void (slept.push(ms), (now += ms)) };
  }

  it("lets `limit` calls through at once, then makes each wait for a refill, never failing", async () => {
    const clock = fakeClock();
    const bucket = new TokenBucket({ limit: 100, clock });
    await Promise.all(Array.from({ length: 100 }, () => bucket.take()));
    expect(clock.slept).toEqual([]);
    await Promise.all([bucket.take(), bucket.take(), bucket.take()]);
    expect(clock.slept).toEqual([600, 600, 600]);
    expect(clock.now()).toBe(1800);
  });

  it("refills with time: after a full window the burst is available again", async () => {
    const clock = fakeClock();
    const bucket = new TokenBucket({ limit: 2, windowMs: 1000, clock });
    await bucket.take();
    await bucket.take();
    await clock.sleep(1000);
    clock.slept.length = 0;
    await bucket.take();
    await bucket.take();
    expect(clock.slept).toEqual([]);
  });

  it("paces a RerankEvaluation's calls with a real clock and a tiny window", async () => {
    const evaluation = rerank({ limiter: new TokenBucket({ limit: 1, windowMs: 30 }) });
    const before = server.requests.length;
    await Promise.all([1, 2, 3].map(() => evaluation.rerank("capital", ["capital"])));
    expect(server.requests.length - before).toBe(3);
  });

  it("validates its options", () => {
    expect(() => new TokenBucket({ limit: 0 })).toThrow(ValidationError);
    expect(() => new TokenBucket({ limit: 1, windowMs: -1 })).toThrow(ValidationError);
  });
});
