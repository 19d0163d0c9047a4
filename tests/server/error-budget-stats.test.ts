/**
 * With an ErrorBudgetEvaluation as the judge, its figures (`cache.report.toJSON().errorBudget`) reach the
 * whole server's /stats, /metrics and /dashboard/data; a tenant's key sees none of them (they add up every
 * namespace's lookups). Without one, none of them appear.
 */
import { seededRandom } from "../../src/core/random.js";
import { DistanceEvaluation, managerFactory } from "../../src/index.js";
import { ErrorBudgetEvaluation, type ErrorBudgetStats } from "../../src/similarity/error-budget-evaluation.js";
import { startFakeOpenAI, type FakeOpenAIServer } from "../../src/testing/index.js";
import { BagOfWordsEmbedding } from "../helpers/fixtures.js";
import { exactApp, type Served } from "./helpers.js";

describe("the error budget on /stats, /metrics and the dashboard", () => {
  let upstream: FakeOpenAIServer;
  let server: Served;
  let evaluation: ErrorBudgetEvaluation;
  beforeEach(async () => {
    upstream = await startFakeOpenAI({ reply: () => "pip install numpy" });
    evaluation = new ErrorBudgetEvaluation({ evaluation: new DistanceEvaluation(), maxErrorRate: 0.05, random: seededRandom(5) });
    server = await exactApp(
      { settings: { upstream: { baseURL: upstream.baseURL }, apiKeys: ["admin-key", { key: "tenant-key", namespace: "t" }] } },
      { embeddingFunc: new BagOfWordsEmbedding(), dataManager: managerFactory("memory,flat", {}), similarityEvaluation: evaluation, config: { similarityThreshold: 0.3 } },
    );
  });
  afterEach(async () => {
    await server.close();
    await upstream.close();
  });

  const chat = (content: string) => server.post("/v1/chat/completions", { model: "m", messages: [{ role: "user", content }] }, { authorization: "Bearer admin-key" });
  const get = (url: string, key = "admin-key") => server.call({ method: "GET", url, headers: { authorization: `Bearer ${key}` } });

  it("shows the estimate, its interval and the decisions, as the report has them", async () => {
    await chat("how do I install numpy on linux");
    // No history yet: the would-be hit is explored, answered by the model, and compared.
    await chat("please install numpy on linux");
    await evaluation.settled();
    const report = server.cache.report.sections().errorBudget as ErrorBudgetStats;
    expect(report).toMatchObject({ maxErrorRate: 0.05, decisions: 1, explored: 1, observations: 1 });

    const stats = (await get("/stats")).json();
    expect(stats.cache.errorBudget).toEqual(report);

    const metrics = (await get("/metrics")).body;
    expect(metrics).toContain('semcache_error_budget_max_rate{cache="main"} 0.05');
    expect(metrics).toContain('semcache_error_budget_decisions_total{cache="main"} 1');
    expect(metrics).toContain('semcache_error_budget_explored_total{cache="main"} 1');
    expect(metrics).toContain(`semcache_error_budget_false_hit_rate{cache="main",bound="upper"} ${report.estimate.upper}`);
    expect(metrics).toContain(`semcache_error_budget_sample_share{cache="main"} ${report.sampleShare}`);
    expect(metrics).toMatch(/# TYPE semcache_error_budget_false_hit_rate gauge\n/);
    expect(metrics).not.toContain('semcache_error_budget_max_rate{cache="map"}');

    expect((await get("/dashboard/data")).json().errorBudget).toEqual(report);

    // A tenant's key: none of it.
    expect((await get("/stats", "tenant-key")).json().cache.errorBudget).toBeUndefined();
    expect((await get("/metrics", "tenant-key")).body).not.toContain("error_budget");
    expect((await get("/dashboard/data", "tenant-key")).json().errorBudget).toBeUndefined();
  });
});

describe("without an error budget", () => {
  it("/stats and /metrics carry no error budget figures", async () => {
    const server = await exactApp();
    try {
      expect((await server.call({ method: "GET", url: "/stats" })).json().cache.errorBudget).toBeUndefined();
      expect((await server.call({ method: "GET", url: "/metrics" })).body).not.toContain("error_budget");
      expect((await server.call({ method: "GET", url: "/dashboard/data" })).json().errorBudget).toBeUndefined();
    } finally {
      await server.close();
    }
  });
});
