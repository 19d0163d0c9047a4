import { Cache, DistanceEvaluation, managerFactory } from "../../src/index.js";
import { BagOfWordsEmbedding, tempDir } from "../helpers/fixtures.js";
import { exactApp, expectErrorBody, serve, TENANT_KEYS, type Served } from "./helpers.js";

const KEYS = { apiKeys: [...TENANT_KEYS, { keyEnv: "SEMCACHE_TEST_KEY", namespace: "tenant-a", admin: true }] };
const env = { SEMCACHE_TEST_KEY: "from-the-environment" };
const bearer = (key: string) => ({ authorization: `Bearer ${key}` });

describe("API keys and namespaces", () => {
  let server: Served;
  afterEach(() => server.close());

  it("refuses requests without a known key (401, with a Bearer challenge); /healthz stays public", async () => {
    server = await exactApp({ settings: KEYS, env });
    const missing = await server.post("/get", { prompt: "p" });
    expect(missing.statusCode).toBe(401);
    expect(missing.headers["www-authenticate"]).toMatch(/^Bearer/);
    expectErrorBody(missing.body, "SEMCACHE_UNAUTHORIZED");
    expectErrorBody((await server.post("/get", { prompt: "p" }, bearer("wrong"))).body, "SEMCACHE_UNAUTHORIZED");
    expectErrorBody((await server.post("/get", { prompt: "p" }, { authorization: "Basic YTpi" })).body, "SEMCACHE_UNAUTHORIZED");
    expect((await server.call({ method: "GET", url: "/metrics" })).statusCode).toBe(401);
    expect((await server.call({ method: "GET", url: "/healthz" })).statusCode).toBe(200);
    expect((await server.post("/get", { prompt: "p" }, bearer("reader-key"))).statusCode).toBe(200);
    expect((await server.post("/get", { prompt: "p" }, bearer("from-the-environment"))).statusCode).toBe(200);
  });

  it("keeps tenants apart: a key bound to a namespace never reads another's entries, even by asking", async () => {
    server = await exactApp({ settings: KEYS, env });
    await server.post("/put", { prompt: "shared question", answer: "answer of a" }, bearer("tenant-a-key"));
    await server.post("/put", { prompt: "shared question", answer: "answer of b" }, bearer("tenant-b-key"));
    await server.post("/put", { prompt: "shared question", answer: "answer of the default" }, bearer("admin-key"));
    const get = (key: string, headers: Record<string, string> = {}) => server.post("/get", { prompt: "shared question" }, { ...bearer(key), ...headers });

    expect((await get("tenant-a-key")).json().answer).toBe("answer of a");
    expect((await get("tenant-b-key")).json().answer).toBe("answer of b");
    expect((await get("admin-key")).json().answer).toBe("answer of the default");
    // An unbound key picks a namespace with the header; a bound key may only name its own.
    expect((await get("admin-key", { "x-semcache-namespace": "tenant-b" })).json().answer).toBe("answer of b");
    expect((await get("tenant-a-key", { "x-semcache-namespace": "tenant-a" })).json().answer).toBe("answer of a");
    const crossing = await get("tenant-a-key", { "x-semcache-namespace": "tenant-b" });
    expect(crossing.statusCode).toBe(403);
    expectErrorBody(crossing.body, "SEMCACHE_FORBIDDEN");

    // The plain map is namespaced the same way.
    await server.call({ method: "PUT", url: "/?prompt=k", payload: "map of a", headers: bearer("tenant-a-key") });
    expect((await server.call({ method: "GET", url: "/?prompt=k", headers: bearer("tenant-b-key") })).statusCode).toBe(404);
    expect((await server.call({ method: "GET", url: "/?prompt=k", headers: bearer("tenant-a-key") })).body).toBe("map of a");
  });

  it("keeps namespaces apart on semantic matches too", async () => {
    const dir = tempDir();
    const cache = await new Cache().init({
      embeddingFunc: new BagOfWordsEmbedding(),
      dataManager: managerFactory("sqlite,hnswlib", { dataDir: dir.path }),
      similarityEvaluation: new DistanceEvaluation(),
      config: { similarityThreshold: 0.7 },
    });
    server = await serve(cache, { settings: KEYS, env });
    try {
      await server.post("/put", { prompt: "tell me a fact about volcanoes", answer: "a's fact" }, bearer("tenant-a-key"));
      const reworded = { prompt: "please tell me a fact about volcanoes" };
      expect((await server.post("/get", reworded, bearer("tenant-a-key"))).json().answer).toBe("a's fact");
      expect((await server.post("/get", reworded, bearer("tenant-b-key"))).json().answer).toBeNull();
      expect((await server.post("/get", reworded, bearer("admin-key"))).json().answer).toBeNull();
    } finally {
      await server.close();
      dir.cleanup();
    }
  });

  it("admin_only limits writes to admin keys; clear and export need an admin key bound to no namespace", async () => {
    server = await exactApp({ settings: { ...KEYS, adminOnly: true }, env });
    const put = (key: string) => server.post("/put", { prompt: "p", answer: "a" }, bearer(key));
    expectErrorBody((await put("reader-key")).body, "SEMCACHE_FORBIDDEN");
    expect((await put("tenant-a-key")).statusCode).toBe(403);
    expect((await put("from-the-environment")).statusCode).toBe(200); // admin, bound to tenant-a
    expect((await put("admin-key")).statusCode).toBe(200);
    expect((await server.post("/flush", undefined, bearer("reader-key"))).statusCode).toBe(403);
    expect((await server.post("/import", { pairs: [{ question: "q", answer: "a" }] }, bearer("reader-key"))).statusCode).toBe(403);
    expect((await server.call({ method: "PUT", url: "/?prompt=x", payload: "y", headers: bearer("reader-key") })).statusCode).toBe(403);
    // Reads stay open to every key.
    expect((await server.post("/get", { prompt: "p" }, bearer("reader-key"))).statusCode).toBe(200);

    expect((await server.post("/clear", undefined, bearer("from-the-environment"))).statusCode).toBe(403);
    expect((await server.call({ method: "GET", url: "/export", headers: { ...bearer("admin-key"), "x-semcache-namespace": "tenant-a" } })).statusCode).toBe(403);
    expect((await server.call({ method: "GET", url: "/export", headers: bearer("admin-key") })).body.trim().split("\n")).toHaveLength(2);
    expect((await server.post("/clear", undefined, bearer("admin-key"))).statusCode).toBe(200);
  });

  it("restores exported partitions through /import for an admin key bound to no namespace only", async () => {
    server = await exactApp({ settings: KEYS, env });
    await server.post("/put", { prompt: "p", answer: "tenant a's answer" }, bearer("tenant-a-key"));
    const exportAll = async () => (await server.call({ method: "GET", url: "/export", headers: bearer("admin-key") })).body;
    const [line] = (await exportAll()).trim().split("\n").map((text) => JSON.parse(text));
    expect(line.partition).toMatch(/^[A-Za-z0-9_-]{16}$/);
    await server.post("/clear", undefined, bearer("admin-key"));

    const restore = (key: string, partition = line.partition) =>
      server.post("/import", { pairs: [{ question: "p", answer: line.answer, partition }] }, bearer(key));
    // A partition names its namespace: any other key could write into every namespace with one.
    expectErrorBody((await restore("reader-key")).body, "SEMCACHE_FORBIDDEN");
    expect((await restore("tenant-b-key")).statusCode).toBe(403);
    const bound = await restore("from-the-environment"); // admin, but bound to tenant-a
    expect(bound.statusCode).toBe(400);
    expect(bound.json().error.message).toMatch(/without a namespace/);
    expect((await restore("admin-key", "not-a-partition")).statusCode).toBe(400);
    expect(await exportAll()).toBe("");

    expect((await restore("admin-key")).json()).toEqual({ imported: 1 });
    expect((await server.post("/get", { prompt: "p" }, bearer("tenant-a-key"))).json().answer).toBe("tenant a's answer");
    expect((await server.post("/get", { prompt: "p" }, bearer("tenant-b-key"))).json().answer).toBeNull();
    expect(JSON.parse(await exportAll())).toEqual({ ...line, create_on: expect.any(Number), hit_count: expect.any(Number) });
  });

  it("lets callers pick only the listed namespaces when server.namespaces is set", async () => {
    server = await exactApp({ settings: { namespaces: ["red", "blue"] } });
    expect((await server.post("/put", { prompt: "p", answer: "a" }, { "x-semcache-namespace": "red" })).statusCode).toBe(200);
    const other = await server.post("/get", { prompt: "p" }, { "x-semcache-namespace": "green" });
    expect(other.statusCode).toBe(403);
    expectErrorBody(other.body, "SEMCACHE_FORBIDDEN");
    expect((await server.post("/get", { prompt: "p" }, { "x-semcache-namespace": "blue" })).json().answer).toBeNull();
    expect((await server.post("/get", { prompt: "p" }, { "x-semcache-namespace": "red" })).json().answer).toBe("a");
  });
});
