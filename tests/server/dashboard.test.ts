/**
 * GET /dashboard and its JSON, /dashboard/data: figures over a time window from bounded rings (a test clock,
 * no sleeps), in agreement with /stats; a tenant's key reads its own namespace only; prices; the page and its
 * assets come from the server itself.
 */
import { DistanceEvaluation, managerFactory } from "../../src/index.js";
import { startFakeOpenAI, type FakeOpenAIServer } from "../../src/testing/index.js";
import { MAX_EXTRA_SERIES } from "../../src/server/dashboard/dashboard-stats.js";
import { BagOfWordsEmbedding, tempDir } from "../helpers/fixtures.js";
import { exactApp, expectErrorBody, TENANT_KEYS, type Served } from "./helpers.js";

const as = (key: string, namespace?: string) => ({ authorization: `Bearer ${key}`, ...(namespace ? { "x-semcache-namespace": namespace } : {}) });
const START = Date.UTC(2026, 0, 5, 12, 0, 30);

describe("/dashboard/data", () => {
  let now = START;
  let server: Served;
  const data = async (query = "", headers: Record<string, string> = {}) => {
    const answer = await server.call({ method: "GET", url: `/dashboard/data${query}`, headers });
    expect(answer.statusCode).toBe(200);
    return answer.json();
  };
  afterEach(async () => server.close());

  it("counts lookups per bucket of the window, and its totals agree with /stats", async () => {
    now = START;
    server = await exactApp({ now: () => now, settings: { prices: { default: { inputPer1k: 1, outputPer1k: 2 } } } });
    await server.post("/put", { prompt: "What is the capital of France?", answer: "Paris is the capital." });
    await server.post("/get", { prompt: "What is the capital of France?" }); // hit
    await server.post("/get", { prompt: "What is the capital of Spain?" }); // miss
    now += 2 * 60_000;
    for (let i = 0; i < 3; i++) await server.post("/get", { prompt: "What is the capital of France?" }); // hits
    await server.post("/get", { prompt: "unknown question" }); // miss
    await server.call({ method: "PUT", url: "/?prompt=k", payload: "v", headers: { "content-type": "text/plain" } });
    await server.call({ method: "GET", url: "/?prompt=k" }); // map hit

    const view = await data("?window=15m");
    const stats = (await server.call({ method: "GET", url: "/stats" })).json();
    expect(view.totals).toMatchObject({ requests: stats.cache.requests, hits: stats.cache.hits, misses: stats.cache.misses, skips: stats.cache.skips, mapRequests: 1, mapHits: 1 });
    expect(view.totals).toMatchObject({ requests: 6, hits: 4, misses: 2, hitRate: 4 / 6, savedOutputTokens: stats.cache.savedTokens });
    // 4 hits of a 30-character prompt (8 tokens) and a 21-character answer (6 tokens), at 1 and 2 per 1,000.
    expect(view.totals.savedInputTokens).toBe(32);
    expect(view.totals.savedCost).toBeCloseTo((32 * 1 + 24 * 2) / 1000, 10);
    expect(view.pricesConfigured).toBe(true);

    expect(view.window).toMatchObject({ name: "15m", seconds: 900, bucketSeconds: 60 });
    expect(view.series.startMs).toHaveLength(15);
    expect(view.series.requests.slice(-3)).toEqual([2, 0, 4]);
    expect(view.series.hits.slice(-3)).toEqual([1, 0, 3]);
    expect(view.latency.hit.count).toBe(4);
    expect(view.latency.miss.count).toBe(2);
    expect(view.latency.hit.p50Ms).toBeGreaterThan(0);
    // Exact matches score 1: every hit in the last bin.
    expect(view.scores.hits.at(-1)).toBe(4);
    expect(view.scores.threshold).toBe(server.cache.config.similarityThreshold);
    expect(view.frequentQuestions[0]).toEqual({ question: "What is the capital of France?", count: 4, error: 0, namespace: "" });
    expect(view.recentMisses.map((row: { question: string }) => row.question)).toEqual(["unknown question", "What is the capital of Spain?"]);
    // A long prompt is listed cut short: the page polls every few seconds.
    await server.post("/get", { prompt: `long ${"x".repeat(2000)}` });
    expect((await data("?window=15m")).recentMisses[0].question).toBe(`long ${"x".repeat(295)}…`);

    // An hour later the minute ring has moved on; the hour ring still holds them.
    now += 61 * 60_000;
    expect((await data("?window=1h")).totals.requests).toBe(0);
    const day = await data("?window=24h");
    expect(day.totals).toMatchObject({ requests: 7, hits: 4 });
    expect(day.window).toMatchObject({ seconds: 86_400, bucketSeconds: 3600 });
    // A week later nothing is left, and nothing grew: the rings are the same size.
    now += 8 * 24 * 3_600_000;
    expect((await data("?window=7d")).totals.requests).toBe(0);
    expect((await data("?window=7d")).series.startMs).toHaveLength(168);
  });

  it("reports the proxy's hits with their judge scores, skips, and the saved tokens priced by model", async () => {
    const upstream: FakeOpenAIServer = await startFakeOpenAI();
    try {
      now = START;
      server = await exactApp(
        {
          now: () => now,
          settings: { upstream: { baseURL: upstream.baseURL }, prices: { "model-a": { inputPer1k: 10, outputPer1k: 0 } } },
        },
        { embeddingFunc: new BagOfWordsEmbedding(), dataManager: managerFactory("memory,flat", {}), similarityEvaluation: new DistanceEvaluation(), config: { similarityThreshold: 0.7 } },
      );
      const chat = (content: string, headers: Record<string, string> = {}) =>
        server.post("/v1/chat/completions", { model: "model-a", messages: [{ role: "user", content }] }, headers);
      expect((await chat("tell me a fact about volcanoes")).headers["x-semcache"]).toBe("MISS");
      const hit = await chat("please tell me a fact about volcanoes");
      expect(hit.headers["x-semcache"]).toBe("HIT");
      expect((await chat("tell me a fact about volcanoes", { "cache-control": "no-cache" })).headers["x-semcache"]).toBe("SKIP");
      const view = await data();
      expect(view.totals).toMatchObject({ requests: 3, hits: 1, misses: 1, skips: 1 });
      const score = Number(hit.headers["x-semcache-score"]);
      expect(view.scores.hits[Math.min(19, Math.floor(score * 20))]).toBe(1);
      // 37 prompt characters -> 10 tokens at 10 per 1,000; the answer's tokens are free for model-a.
      expect(view.totals.savedInputTokens).toBe(10);
      expect(view.totals.savedCost).toBeCloseTo(0.1, 10);
      // The what-if table: at a threshold at or under the hit's score, the hit stays.
      const at = view.scores.whatIf.find((row: { threshold: number }) => row.threshold === 0.5);
      expect(at.hits).toBeGreaterThanOrEqual(1);
      // A streamed hit's answer counts once the stream has ended, as the report counts it.
      const streamed = await server.post("/v1/chat/completions", { model: "model-a", stream: true, messages: [{ role: "user", content: "tell me a fact about volcanoes" }] });
      expect(streamed.headers["x-semcache"]).toBe("HIT");
      expect(streamed.body).toContain("data: [DONE]");
      const after = await data();
      const stats = (await server.call({ method: "GET", url: "/stats" })).json();
      expect(after.totals).toMatchObject({ hits: 2, savedOutputTokens: stats.cache.savedTokens });
      expect(after.totals.savedOutputTokens).toBeGreaterThan(view.totals.savedOutputTokens);
    } finally {
      await upstream.close();
    }
  });

  it("a clear forgets the questions it shows (frequent, latest misses); the counts stay", async () => {
    server = await exactApp();
    await server.post("/put", { prompt: "a question to forget", answer: "x" });
    await server.post("/get", { prompt: "a question to forget" });
    await server.post("/get", { prompt: "a miss to forget" });
    expect((await data()).frequentQuestions).toHaveLength(2);
    expect((await server.post("/clear", {})).statusCode).toBe(200);
    const view = await data();
    expect(view.frequentQuestions).toEqual([]);
    expect(view.recentMisses).toEqual([]);
    expect(view.totals).toMatchObject({ requests: 2, hits: 1, misses: 1 });
  });

  it("counts each miss's nearest candidate's score, and what another threshold would have served", async () => {
    now = START;
    server = await exactApp(
      { now: () => now },
      { embeddingFunc: new BagOfWordsEmbedding(), dataManager: managerFactory("memory,flat", {}), similarityEvaluation: new DistanceEvaluation(), config: { similarityThreshold: 0.99 } },
    );
    await server.post("/put", { prompt: "tell me a fact about volcanoes", answer: "They erupt." });
    expect((await server.post("/get", { prompt: "please tell me a fact about volcanoes" })).json().answer).toBeNull();
    const view = await data();
    const [miss] = view.recentMisses;
    expect(miss.question).toBe("please tell me a fact about volcanoes");
    expect(miss.score).toBeGreaterThan(0.5);
    expect(miss.score).toBeLessThan(0.99);
    expect(view.scores.nearestMisses[Math.floor(miss.score * 20)]).toBe(1);
    // At a threshold under its score, the miss would have been a hit.
    expect(view.scores.whatIf.find((row: { threshold: number }) => row.threshold === 0.5)).toMatchObject({ hits: 1, hitRate: 1 });
  });

  it("gives a tenant's key its own namespace only; an admin key bound to none sees all, or picks one", async () => {
    server = await exactApp({ settings: { apiKeys: [...TENANT_KEYS] } });
    await server.post("/put", { prompt: "a secret of tenant a", answer: "x" }, as("tenant-a-key"));
    await server.post("/get", { prompt: "a secret of tenant a" }, as("tenant-a-key"));
    for (let i = 0; i < 3; i++) await server.post("/get", { prompt: `b question ${i}` }, as("tenant-b-key"));

    const a = await data("", as("tenant-a-key"));
    expect(a).toMatchObject({ namespace: "tenant-a", totals: { requests: 1, hits: 1, misses: 0 } });
    expect(a.namespaces).toBeUndefined();
    expect(a.errorBudget).toBeUndefined();
    expect(JSON.stringify(a)).not.toContain("b question");
    const b = await data("", as("tenant-b-key"));
    expect(b).toMatchObject({ namespace: "tenant-b", totals: { requests: 3, misses: 3 } });
    expect(JSON.stringify(b)).not.toContain("tenant a");
    // Asking for another namespace is refused, by query or by header.
    for (const headers of [as("tenant-a-key"), as("reader-key")]) {
      const other = await server.call({ method: "GET", url: "/dashboard/data?namespace=tenant-b", headers });
      expect(other.statusCode).toBe(403);
      expectErrorBody(other.body, "SEMCACHE_FORBIDDEN");
    }
    expect((await server.call({ method: "GET", url: "/dashboard/data", headers: as("tenant-a-key", "tenant-b") })).statusCode).toBe(403);
    expect((await server.call({ method: "GET", url: "/dashboard/data" })).statusCode).toBe(401);
    // The page and its assets hold no data: public.
    expect((await server.call({ method: "GET", url: "/dashboard" })).statusCode).toBe(200);

    const all = await data("", as("admin-key"));
    expect(all).toMatchObject({ namespace: null, totals: { requests: 4, hits: 1, misses: 3 } });
    expect(all.namespaces).toEqual(expect.arrayContaining(["", "tenant-a", "tenant-b"]));
    expect(all.frequentQuestions.map((row: { namespace: string }) => row.namespace)).toEqual(expect.arrayContaining(["tenant-a", "tenant-b"]));
    expect(await data("?namespace=tenant-b", as("admin-key"))).toMatchObject({ namespace: "tenant-b", totals: { requests: 3 } });
    expect(await data("?namespace=", as("admin-key"))).toMatchObject({ namespace: "", totals: { requests: 0 } });
    expect(await data("", as("admin-key", "tenant-a"))).toMatchObject({ namespace: "tenant-a", totals: { requests: 1 } });
    expect((await server.call({ method: "GET", url: "/dashboard/data?namespace=bad%20name", headers: as("admin-key") })).statusCode).toBe(400);
    expect((await server.call({ method: "GET", url: "/dashboard/data?window=2y", headers: as("admin-key") })).statusCode).toBe(400);
  });

  it("keeps a bounded number of namespaces: past the limit, lookups add up in the whole server's view only", async () => {
    server = await exactApp();
    const extra = MAX_EXTRA_SERIES + 5;
    for (let i = 0; i < extra; i++) await server.post("/get", { prompt: "q" }, { "x-semcache-namespace": `ns-${i}` });
    const all = await data();
    expect(all.totals.requests).toBe(extra);
    expect(all.namespaces).toHaveLength(MAX_EXTRA_SERIES + 1); // and the shared default
    expect(all.namespaces).not.toContain(`ns-${extra - 1}`);
    // A namespace past the limit has no series of its own: zeros, never another namespace's figures.
    expect((await data(`?namespace=ns-${extra - 1}`)).totals.requests).toBe(0);
  });

  it("keeps its series across a restart on a file-backed store", async () => {
    const dir = tempDir();
    try {
      now = START;
      const open = () => exactApp({ now: () => now }, { dataManager: managerFactory("sqlite", { dataDir: dir.path }) });
      server = await open();
      await server.post("/put", { prompt: "kept", answer: "yes" });
      await server.post("/get", { prompt: "kept" });
      await server.post("/get", { prompt: "lost" });
      await server.close();
      now += 5 * 60_000;
      server = await open();
      const view = await data("?window=1h");
      expect(view.totals).toMatchObject({ requests: 2, hits: 1, misses: 1 });
      expect(view.frequentQuestions.map((row: { question: string }) => row.question).sort()).toEqual(["kept", "lost"]);
      expect(view.recentMisses).toEqual([{ question: "lost", at: START, namespace: "" }]);
    } finally {
      dir.cleanup();
    }
  });

  it("serves the page, its script and styles itself, under a policy that allows nothing from elsewhere", async () => {
    server = await exactApp();
    const page = await server.call({ method: "GET", url: "/dashboard" });
    expect(page.headers["content-type"]).toMatch(/^text\/html/);
    expect(page.headers["content-security-policy"]).toContain("default-src 'none'");
    expect(page.body).toContain('<script src="/dashboard/app.js">');
    expect(page.body).not.toMatch(/https?:\/\//);
    const script = await server.call({ method: "GET", url: "/dashboard/app.js" });
    expect(script.headers["content-type"]).toMatch(/^text\/javascript/);
    expect(script.body).toContain("/dashboard/data");
    expect(script.body).not.toContain("innerHTML");
    expect((await server.call({ method: "GET", url: "/dashboard/app.css" })).headers["content-type"]).toMatch(/^text\/css/);
    const openapi = (await server.call({ method: "GET", url: "/docs/json" })).json();
    expect(Object.keys(openapi.paths)).toEqual(expect.arrayContaining(["/dashboard", "/dashboard/data"]));
    expect(Object.keys(openapi.paths)).not.toContain("/dashboard/app.js");
  });
});
