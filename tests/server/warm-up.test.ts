import type { FastifyInstance } from "fastify";
import { Cache, initSimilarCache, put } from "../../src/index.js";
import { buildServer } from "../../src/server/app.js";
import type { ServerSection } from "../../src/server/server-config.js";
import { warmUp } from "../../src/server/warm-up.js";
import { BagOfWordsEmbedding, tempDir } from "../helpers/fixtures.js";

/** The warm-up's own question (warm-up.ts): stored here beforehand, it must not be read as a hit. */
const WARM_UP_QUESTION = "Is the semcache server ready to answer?";

describe("warmUp: the request path runs once before the server listens", () => {
  const dirs: Array<{ cleanup(): void }> = [];
  const apps: FastifyInstance[] = [];
  afterEach(async () => {
    for (const app of apps.splice(0)) await app.close();
    for (const dir of dirs.splice(0)) dir.cleanup();
  });

  /** A server over the embedded stores (SQLite, hnswlib) holding two entries, one of them the warm-up's own question. */
  async function server(settings: ServerSection = {}) {
    const dir = tempDir("semcache-warm-up-");
    dirs.push(dir);
    const embedding = new BagOfWordsEmbedding();
    const cache = await initSimilarCache({ cache: new Cache(), embedding, dataDir: dir.path });
    await put("How do I reset my password?", "Use the reset link.", { cacheObj: cache });
    await put(WARM_UP_QUESTION, "Stored by a user.", { cacheObj: cache });
    const app = buildServer({ cache, settings, closeCache: true });
    apps.push(app);
    await app.ready();
    return { app, cache, embedding };
  }

  /** Everything the server reports or stores: /stats, /metrics, the per-namespace counts, the rows and report rows. */
  async function observed(app: FastifyInstance) {
    const state = app.semcache;
    const entries = [];
    for await (const entry of state.service.entries()) entries.push(entry);
    return {
      stats: await state.service.stats(),
      map: state.mapCache.report.toJSON(),
      // Ours only: the process's own gauges (memory, CPU) move by themselves.
      metrics: state.metrics
        .render({ main: state.cache, map: state.mapCache }, await state.cache.dataManager.count())
        .split("\n")
        .filter((line) => !/^(# \w+ )?process_/.test(line)),
      namespace: state.namespaceStats.of(undefined),
      entries,
      reportRows: await state.cache.dataManager.scalar.countReports(),
    };
  }

  it("answers each hot route as expected, embeds one text, and changes nothing the server reports or stores", async () => {
    const { app, cache, embedding } = await server();
    const before = await observed(app);
    const calls = embedding.calls;
    const answered = await warmUp(app);
    expect(answered.map(({ route }) => route)).toEqual(
      expect.arrayContaining(["POST /put", "POST /get (exact)", "POST /get (reworded)", "PUT /?prompt=", "GET /?prompt=", "POST /v1/chat/completions (search only)"]),
    );
    for (const { route, statusCode, expected } of answered) expect({ route, statusCode }).toEqual({ route, statusCode: expected });
    expect(embedding.calls - calls).toBe(1);
    await cache.flush();
    expect(await observed(app)).toEqual(before);
    expect(app.semcache.cache).toBe(cache);
  });

  it("leaves the real metrics, counts and cache in place: the next request is counted as any other", async () => {
    const { app } = await server();
    await warmUp(app);
    const got = await app.inject({ method: "POST", url: "/get", payload: { prompt: "How do I reset my password?" } });
    expect(got.json()).toEqual({ prompt: "How do I reset my password?", answer: "Use the reset link." });
    const { stats, metrics, namespace } = await observed(app);
    expect(stats.cache).toMatchObject({ requests: 1, hits: 1 });
    expect(namespace.main).toEqual({ requests: 1, hits: 1, misses: 0, skips: 0 });
    expect(metrics.join("\n")).toContain('semcache_http_requests_total{method="POST",route="/get",status="200"} 1');
    expect(metrics.join("\n")).not.toContain('route="/put"');
  });

  it("warms a server with API keys (its requests need none) and puts the keys back", async () => {
    const { app } = await server({ apiKeys: ["admin-key", { key: "tenant-key", namespace: "tenant" }] });
    for (const { route, statusCode, expected } of await warmUp(app)) expect({ route, statusCode }).toEqual({ route, statusCode: expected });
    expect((await app.inject({ method: "POST", url: "/get", payload: { prompt: "How do I reset my password?" } })).statusCode).toBe(401);
    const tenant = await app.inject({ method: "POST", url: "/get", payload: { prompt: "How do I reset my password?" }, headers: { authorization: "Bearer tenant-key" } });
    expect(tenant.json()).toEqual({ prompt: "How do I reset my password?", answer: null });
  });

  it("refuses to run once the app listens (a caller's request would be answered from its scratch cache)", async () => {
    const { app } = await server();
    await app.listen({ host: "127.0.0.1", port: 0 });
    await expect(warmUp(app)).rejects.toThrow(/before the app listens/);
  });
});
