/**
 * What a key confined to one namespace can reach: a non-admin key bound to none works in the shared default
 * only, and /stats and /metrics give a tenant its own namespace's figures, never the server's totals.
 */
import { startFakeOpenAI, type FakeOpenAIServer } from "../../src/testing/index.js";
import { exactApp, expectErrorBody, TENANT_KEYS, type Served } from "./helpers.js";

const KEYS = { apiKeys: [...TENANT_KEYS, { key: "a-admin-key", namespace: "tenant-a", admin: true }] };
const as = (key: string, namespace?: string) => ({ authorization: `Bearer ${key}`, ...(namespace ? { "x-semcache-namespace": namespace } : {}) });

describe("namespace confinement", () => {
  let server: Served;
  let upstream: FakeOpenAIServer;
  beforeEach(async () => {
    upstream = await startFakeOpenAI();
    server = await exactApp({ settings: { ...KEYS, upstream: { baseURL: upstream.baseURL } } });
  });
  afterEach(async () => {
    await server.close();
    await upstream.close();
  });

  it("refuses a non-admin key bound to no namespace any namespace header (403); it works in the shared default", async () => {
    await server.post("/put", { prompt: "secret", answer: "tenant a's" }, as("tenant-a-key"));
    for (const namespace of ["tenant-a", "tenant-b", "elsewhere"]) {
      const read = await server.post("/get", { prompt: "secret" }, as("reader-key", namespace));
      expect(read.statusCode).toBe(403);
      expectErrorBody(read.body, "SEMCACHE_FORBIDDEN");
      expect((await server.post("/put", { prompt: "secret", answer: "overwritten" }, as("reader-key", namespace))).statusCode).toBe(403);
      expect((await server.call({ method: "GET", url: "/?prompt=secret", headers: as("reader-key", namespace) })).statusCode).toBe(403);
      expect((await server.post("/v1/chat/completions", { model: "m", messages: [{ role: "user", content: "hi" }] }, as("reader-key", namespace))).statusCode).toBe(403);
      expect((await server.call({ method: "GET", url: "/stats", headers: as("reader-key", namespace) })).statusCode).toBe(403);
    }
    expect((await server.post("/get", { prompt: "secret" }, as("tenant-a-key"))).json().answer).toBe("tenant a's");
    // The shared default stays open to it, and an admin key bound to none still picks any namespace.
    expect((await server.post("/put", { prompt: "common", answer: "shared" }, as("reader-key"))).statusCode).toBe(200);
    expect((await server.post("/get", { prompt: "common" }, as("admin-key"))).json().answer).toBe("shared");
    expect((await server.post("/get", { prompt: "secret" }, as("admin-key", "tenant-a"))).json().answer).toBe("tenant a's");
  });

  it("gives a tenant's key its own namespace's figures from /stats and /metrics; an admin key bound to none sees all", async () => {
    const chat = (content: string, key: string) => server.post("/v1/chat/completions", { model: "m", messages: [{ role: "user", content }] }, as(key));
    await server.post("/put", { prompt: "a1", answer: "x" }, as("tenant-a-key"));
    await server.post("/get", { prompt: "a1" }, as("tenant-a-key")); // hit
    await server.post("/get", { prompt: "nope" }, as("tenant-a-key")); // miss
    await chat("hello", "tenant-a-key"); // miss
    await chat("hello", "tenant-a-key"); // hit
    await server.call({ method: "PUT", url: "/?prompt=m", payload: "v", headers: as("tenant-a-key") });
    await server.call({ method: "GET", url: "/?prompt=m", headers: as("tenant-a-key") }); // map hit
    for (let i = 0; i < 5; i++) await server.post("/get", { prompt: `b${i}` }, as("tenant-b-key")); // misses
    await server.post("/get", { prompt: "d" }, as("reader-key")); // a miss in the shared default

    const stats = async (key: string, namespace?: string) => (await server.call({ method: "GET", url: "/stats", headers: as(key, namespace) })).json();
    const a = await stats("tenant-a-key");
    expect(a).toEqual({ namespace: "tenant-a", uptimeSeconds: expect.any(Number), cache: { requests: 4, hits: 2, misses: 2, skips: 0 }, map: { requests: 1, hits: 1, misses: 0, skips: 0 } });
    expect(await stats("a-admin-key")).toEqual({ ...a, uptimeSeconds: expect.any(Number) }); // an admin bound to tenant-a: still a tenant
    expect((await stats("tenant-b-key")).cache).toEqual({ requests: 5, hits: 0, misses: 5, skips: 0 });
    expect(await stats("reader-key")).toMatchObject({ namespace: "", cache: { requests: 1, misses: 1 } });
    expect(await stats("admin-key", "tenant-b")).toMatchObject({ namespace: "tenant-b", cache: { requests: 5 } });

    const all = await stats("admin-key");
    expect(all.entries).toBeGreaterThanOrEqual(3);
    expect(all.cache.requests).toBeGreaterThanOrEqual(10);

    const metrics = async (key: string) => (await server.call({ method: "GET", url: "/metrics", headers: as(key) })).body;
    const tenant = await metrics("tenant-a-key");
    expect(tenant).toContain('semcache_cache_requests_total{cache="main",namespace="tenant-a"} 4');
    expect(tenant).toContain('semcache_cache_hits_total{cache="map",namespace="tenant-a"} 1');
    for (const shared of ["semcache_http_requests_total", "semcache_entries", "semcache_proxy_responses_total", "tenant-b", 'cache="main"}']) {
      expect(tenant).not.toContain(shared);
    }
    const admin = await metrics("admin-key");
    expect(admin).toContain("semcache_http_requests_total");
    expect(admin).toMatch(/semcache_entries \d+/);
  });
});
