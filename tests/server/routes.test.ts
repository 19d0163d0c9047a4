import { DistanceEvaluation, managerFactory } from "../../src/index.js";
import { BagOfWordsEmbedding, tempDir } from "../helpers/fixtures.js";
import { exactApp, expectErrorBody, type Served } from "./helpers.js";

describe("server routes", () => {
  let server: Served;
  let post: Served["post"];
  let call: Served["call"];
  beforeEach(async () => {
    server = await exactApp();
    ({ post, call } = server);
  });
  afterEach(() => server.close());

  it("POST /put, /get and /flush behave as GPTCache's server (answer null on a miss)", async () => {
    const put = await post("/put", { prompt: "What is the capital of France?", answer: "Paris" });
    expect(put.statusCode).toBe(200);
    expect(put.json()).toEqual({ ok: true });
    expect((await post("/get", { prompt: "What is the capital of France?" })).json()).toEqual({ prompt: "What is the capital of France?", answer: "Paris" });
    expect((await post("/get", { prompt: "What is the capital of Spain?" })).json()).toEqual({ prompt: "What is the capital of Spain?", answer: null });
    const flush = await call({ method: "POST", url: "/flush" });
    expect([flush.statusCode, flush.json()]).toEqual([200, { ok: true }]);
  });

  it("PUT / GET /?prompt= is a plain text map: any body type in, text out, 404 on a miss, apart from /get", async () => {
    const put = await call({ method: "PUT", url: "/?prompt=hello", payload: "receive a hello message", headers: { "content-type": "application/x-www-form-urlencoded" } });
    expect(put.statusCode).toBe(200);
    const got = await call({ method: "GET", url: "/?prompt=hello" });
    expect(got.statusCode).toBe(200);
    expect(got.headers["content-type"]).toMatch(/^text\/plain/);
    expect(got.body).toBe("receive a hello message");
    await call({ method: "PUT", url: "/?prompt=json", payload: '{"not":"parsed"}', headers: { "content-type": "application/json" } });
    expect((await call({ method: "GET", url: "/?prompt=json" })).body).toBe('{"not":"parsed"}');
    await call({ method: "PUT", url: `/?prompt=${encodeURIComponent("naïve ☕")}`, payload: "ünïcödé ✓", headers: { "content-type": "text/plain" } });
    expect((await call({ method: "GET", url: `/?prompt=${encodeURIComponent("naïve ☕")}` })).body).toBe("ünïcödé ✓");

    const miss = await call({ method: "GET", url: "/?prompt=unknown" });
    expect(miss.statusCode).toBe(404);
    expectErrorBody(miss.body, "SEMCACHE_NOT_FOUND");
    // The map and the JSON routes never answer for each other.
    expect((await post("/get", { prompt: "hello" })).json().answer).toBeNull();
    await post("/put", { prompt: "only json", answer: "yes" });
    expect((await call({ method: "GET", url: "/?prompt=only%20json" })).statusCode).toBe(404);
  });

  it("imports pairs in one go and exports every entry as JSON Lines; /clear empties the store", async () => {
    const imported = await post("/import", { pairs: [{ question: "q1", answer: "a1" }, { question: "q2", answer: "a2" }] });
    expect(imported.json()).toEqual({ imported: 2 });
    expect((await post("/get", { prompt: "q2" })).json().answer).toBe("a2");
    const exported = await call({ method: "GET", url: "/export" });
    expect(exported.headers["content-type"]).toMatch(/^application\/x-ndjson/);
    const lines = exported.body.trim().split("\n").map((line) => JSON.parse(line));
    expect(lines.map(({ question, answer }) => ({ question, answer }))).toEqual([{ question: "q1", answer: "a1" }, { question: "q2", answer: "a2" }]);
    expect(lines[0]).toEqual({ question: "q1", answer: "a1", create_on: expect.any(Number), hit_count: 0 });

    expect((await call({ method: "POST", url: "/clear" })).json()).toEqual({ ok: true });
    expect((await post("/get", { prompt: "q1" })).json().answer).toBeNull();
    expect((await call({ method: "GET", url: "/export" })).body).toBe("");
  });

  it("GET /healthz, /stats (the report as JSON) and /metrics (Prometheus text)", async () => {
    expect((await call({ method: "GET", url: "/healthz" })).json()).toEqual({ status: "ok" });
    await post("/put", { prompt: "p", answer: "a" });
    await post("/get", { prompt: "p" });
    await post("/get", { prompt: "other" });

    const stats = (await call({ method: "GET", url: "/stats" })).json();
    expect(stats).toMatchObject({ entries: 1, cache: { requests: 2, hits: 1, misses: 1, skips: 0, errors: 0 } });
    expect(stats.cache.stages.data).toEqual({ count: expect.any(Number), totalMs: expect.any(Number), averageMs: expect.any(Number) });
    expect(stats.map).toMatchObject({ requests: 0 });

    const metrics = await call({ method: "GET", url: "/metrics" });
    expect(metrics.headers["content-type"]).toMatch(/^text\/plain; version=0\.0\.4/);
    const text = metrics.body;
    expect(text).toContain('semcache_cache_hits_total{cache="main"} 1');
    expect(text).toContain('semcache_cache_misses_total{cache="main"} 1');
    expect(text).toContain('semcache_http_requests_total{method="POST",route="/get",status="200"} 2');
    expect(text).toContain("semcache_entries 1");
    expect(text).toMatch(/^semcache_stage_duration_seconds_count\{cache="main",stage="data"\} \d+$/m);
    expect(text).toMatch(/^semcache_http_request_duration_seconds_bucket\{method="POST",route="\/get",le="\+Inf"\} 2$/m);
    expect(text).toMatch(/^# TYPE semcache_http_request_duration_seconds histogram$/m);
    // Every sample line is `name{labels} value` or `name value`.
    for (const line of text.trim().split("\n").filter((l) => !l.startsWith("#"))) expect(line).toMatch(/^[a-z_]+(\{[^}]*\})? -?[\d.e+-]+$/);
  });

  it("describes every route in an OpenAPI object generated from the route schemas", async () => {
    const spec = server.app.swagger() as { openapi: string; paths: Record<string, Record<string, { requestBody?: { content: Record<string, { schema: { required?: string[] } }> } }>> };
    expect(spec.openapi).toMatch(/^3\./);
    expect(Object.keys(spec.paths)).toEqual(expect.arrayContaining(["/put", "/get", "/flush", "/", "/healthz", "/stats", "/metrics", "/v1/chat/completions"]));
    expect(spec.paths["/put"].post.requestBody?.content["application/json"].schema.required).toEqual(["prompt", "answer"]);
  });

  it("serves the API page at /docs with its assets from the package, and the OpenAPI JSON at /docs/json", async () => {
    const page = await call({ method: "GET", url: "/docs" });
    expect(page.statusCode).toBe(200);
    expect(page.headers["content-type"]).toMatch(/^text\/html/);
    const assets = [...page.body.matchAll(/(?:src|href)="\.?\/?([^"]+\.(?:js|css))"/g)].map((match) => match[1]);
    expect(assets).toEqual(expect.arrayContaining([expect.stringMatching(/swagger-ui-bundle\.js$/)]));
    for (const asset of assets) {
      const served = await call({ method: "GET", url: `/docs/${asset.replace(/^docs\//, "")}` });
      expect([asset, served.statusCode]).toEqual([asset, 200]);
      expect(served.body.length).toBeGreaterThan(100);
    }
    const spec = (await call({ method: "GET", url: "/docs/json" })).json();
    expect(spec.info.title).toBe("langchain-semcache server");
    expect(Object.keys(spec.paths)).toEqual(expect.arrayContaining(["/put", "/get", "/v1/chat/completions"]));
  });

  it.each([
    ["malformed JSON", { method: "POST", url: "/get", payload: '{"prompt": ', headers: { "content-type": "application/json" } }, 400, "SEMCACHE_VALIDATION"],
    ["an empty JSON body", { method: "POST", url: "/get", payload: "", headers: { "content-type": "application/json" } }, 400, "SEMCACHE_VALIDATION"],
    ["a JSON array", { method: "POST", url: "/put", payload: "[1,2]", headers: { "content-type": "application/json" } }, 400, "SEMCACHE_VALIDATION"],
    ["a wrong type (not coerced)", { method: "POST", url: "/get", payload: { prompt: 42 } }, 400, "SEMCACHE_VALIDATION"],
    ["a missing field", { method: "POST", url: "/put", payload: { prompt: "p" } }, 400, "SEMCACHE_VALIDATION"],
    ["an unknown field", { method: "POST", url: "/put", payload: { prompt: "p", answer: "a", ansewr: "typo" } }, 400, "SEMCACHE_VALIDATION"],
    ["an empty prompt", { method: "POST", url: "/get", payload: { prompt: "" } }, 400, "SEMCACHE_VALIDATION"],
    ["a prompt over the column length", { method: "POST", url: "/get", payload: { prompt: "x".repeat(3001) } }, 413, "SEMCACHE_VALUE_TOO_LONG"],
    ["an answer over the column length", { method: "POST", url: "/put", payload: { prompt: "p", answer: "y".repeat(3001) } }, 413, "SEMCACHE_VALUE_TOO_LONG"],
    ["a body over 1 MiB", { method: "POST", url: "/put", payload: { prompt: "p", answer: "y".repeat(1024 * 1024) } }, 413, "SEMCACHE_BODY_TOO_LARGE"],
    ["an unsupported content type", { method: "POST", url: "/get", payload: "<prompt/>", headers: { "content-type": "application/xml" } }, 415, "SEMCACHE_UNSUPPORTED_MEDIA_TYPE"],
    ["an unknown route", { method: "GET", url: "/nowhere" }, 404, "SEMCACHE_NOT_FOUND"],
    ["a wrong method", { method: "GET", url: "/put" }, 405, "SEMCACHE_METHOD_NOT_ALLOWED"],
    ["GET / without a prompt", { method: "GET", url: "/" }, 400, "SEMCACHE_VALIDATION"],
    ["PUT / with an empty body", { method: "PUT", url: "/?prompt=p", payload: "" }, 400, "SEMCACHE_VALIDATION"],
    ["a bad namespace header", { method: "POST", url: "/get", payload: { prompt: "p" }, headers: { "x-semcache-namespace": "no spaces allowed" } }, 400, "SEMCACHE_VALIDATION"],
    ["a bad Cache-Control max-age", { method: "POST", url: "/v1/chat/completions", payload: { model: "m", messages: [{ role: "user", content: "x" }] }, headers: { "cache-control": "max-age=soon" } }, 400, "SEMCACHE_VALIDATION"],
    ["a chat body without messages", { method: "POST", url: "/v1/chat/completions", payload: { model: "m" } }, 400, "SEMCACHE_VALIDATION"],
  ] as const)("answers %s with a 4xx error body", async (_name, request, status, code) => {
    const response = await call(request as never);
    expect(response.statusCode).toBe(status);
    expect(response.headers["content-type"]).toMatch(/^application\/json/);
    expectErrorBody(response.body, code);
  });

  it("names the allowed methods on a 405", async () => {
    const response = await call({ method: "DELETE", url: "/" });
    expect(response.statusCode).toBe(405);
    expect(response.headers.allow).toBe("GET, HEAD, PUT");
  });
});

describe("server routes over a semantic store", () => {
  it("/get answers reworded prompts, /flush writes buffered hit counts to the store", async () => {
    const dir = tempDir();
    const { post, call, close } = await exactApp(
      {},
      {
        embeddingFunc: new BagOfWordsEmbedding(),
        dataManager: managerFactory("sqlite,hnswlib", { dataDir: dir.path }),
        similarityEvaluation: new DistanceEvaluation(),
        config: { similarityThreshold: 0.7 },
      },
    );
    try {
      await post("/put", { prompt: "tell me a fact about volcanoes", answer: "They erupt." });
      expect((await post("/get", { prompt: "please tell me a fact about volcanoes" })).json().answer).toBe("They erupt.");
      expect((await post("/get", { prompt: "what is the price of bread" })).json().answer).toBeNull();
      await call({ method: "POST", url: "/flush" });
      const [line] = (await call({ method: "GET", url: "/export" })).body.trim().split("\n");
      expect(JSON.parse(line)).toMatchObject({ question: "tell me a fact about volcanoes", hit_count: 1 });
    } finally {
      await close();
      dir.cleanup();
    }
  });
});
