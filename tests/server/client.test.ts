import { createServer, type Server, type Socket } from "node:net";
import type { AddressInfo } from "node:net";
import { Cache, cache as globalCache, HttpError, NotInitError, ValidationError, ValueTooLongError } from "../../src/index.js";
import { CacheClient } from "../../src/server/client.js";
import { exactServer, type Listening } from "./helpers.js";
import { wholeStats } from "../helpers/fixtures.js";

describe("CacheClient over HTTP", () => {
  let server: Listening;
  let client: CacheClient;
  beforeEach(async () => {
    server = await exactServer({ settings: { apiKeys: ["admin-key", { key: "tenant-key", namespace: "tenant" }] } });
    client = new CacheClient(server.url, { apiKey: "admin-key" });
  });
  afterEach(async () => {
    client.close();
    await server.close();
  });

  it("puts (200), gets (string or null), imports, lists, flushes, reports and clears", async () => {
    expect(await client.put("What is 2 + 2?", "4")).toBe(200);
    expect(await client.get("What is 2 + 2?")).toBe("4");
    expect(await client.get("What is 3 + 3?")).toBeNull();
    expect(await client.importPairs([{ question: "q1", answer: "a1" }, { question: "q2", answer: "a2" }])).toBe(2);
    await client.flush();
    const entries = [];
    for await (const entry of client.entries()) entries.push(entry.question);
    expect(entries).toEqual(["What is 2 + 2?", "q1", "q2"]);
    expect(await client.stats()).toMatchObject({ entries: 3, recordedHits: 1, cache: { hits: 1, misses: 1 } });
    await client.clear();
    expect(await client.get("q1")).toBeNull();
  });

  it("keeps its connection alive between calls", async () => {
    let connections = 0;
    server.app.server.on("connection", () => connections++);
    for (let i = 0; i < 5; i++) await client.get(`question ${i}`);
    expect(connections).toBe(1);
  });

  it("reads and writes its namespace", async () => {
    const tenant = new CacheClient({ uri: server.url, apiKey: "tenant-key" });
    const asked = new CacheClient({ uri: server.url, apiKey: "admin-key", namespace: "tenant" });
    try {
      await tenant.put("q", "tenant answer");
      expect(await client.get("q")).toBeNull();
      expect(await asked.get("q")).toBe("tenant answer");
    } finally {
      tenant.close();
      asked.close();
    }
  });

  it("throws the server's errors as typed errors: known codes keep their class's isInstance, others are HttpError", async () => {
    const tooLong = await client.put("q", "a".repeat(4000)).catch((error: unknown) => error);
    expect(ValueTooLongError.isInstance(tooLong)).toBe(true);
    expect((tooLong as Error).message).toMatch(/answer is 4000 characters long; the limit is \d+ \(scalarParams\.tableLenConfig\.answer\)/);
    const anonymous = new CacheClient(server.url);
    try {
      const refused = await anonymous.get("q").catch((error: unknown) => error);
      expect(HttpError.isInstance(refused)).toBe(true);
      expect(refused).toMatchObject({ status: 401, remoteCode: "SEMCACHE_UNAUTHORIZED", code: "SEMCACHE_HTTP" });
      const tenant = new CacheClient({ uri: server.url, apiKey: "tenant-key" });
      await expect(tenant.clear()).rejects.toMatchObject({ status: 403, remoteCode: "SEMCACHE_FORBIDDEN" });
      tenant.close();
    } finally {
      anonymous.close();
    }
  });
});

describe("CacheClient faults", () => {
  let silent: Server;
  let sockets: Socket[];
  beforeAll(async () => {
    sockets = [];
    // Accepts connections and never answers.
    silent = createServer((socket) => void sockets.push(socket));
    await new Promise<void>((resolve) => silent.listen(0, "127.0.0.1", resolve));
  });
  afterAll(async () => {
    for (const socket of sockets) socket.destroy();
    await new Promise((resolve) => silent.close(resolve));
  });

  it("fails with HttpError on a server that does not answer in time, or cannot be reached", async () => {
    const port = (silent.address() as AddressInfo).port;
    const slow = new CacheClient(`http://127.0.0.1:${port}`, { timeoutMs: 200 });
    const timedOut = await slow.get("q").catch((error: unknown) => error);
    expect(HttpError.isInstance(timedOut)).toBe(true);
    expect((timedOut as Error).message).toMatch(/did not answer within 200 ms/);
    slow.close();

    const closed = await new Promise<number>((resolve) => {
      const probe = createServer().listen(0, "127.0.0.1", () => {
        const { port: free } = probe.address() as AddressInfo;
        probe.close(() => resolve(free));
      });
    });
    const nowhere = new CacheClient(`http://127.0.0.1:${closed}`);
    const unreachable = await nowhere.put("q", "a").catch((error: unknown) => error);
    expect(HttpError.isInstance(unreachable)).toBe(true);
    expect((unreachable as HttpError).status).toBeUndefined();
    expect((unreachable as Error).message).toMatch(/ECONNREFUSED/);
    nowhere.close();
  });

  it("refuses a bad uri or timeout at construction", () => {
    expect(() => new CacheClient("not a url")).toThrow(ValidationError);
    expect(() => new CacheClient("ftp://host/")).toThrow(/not an http\(s\) URL/);
    expect(() => new CacheClient("http://127.0.0.1:1", { timeoutMs: 0 })).toThrow(/timeoutMs/);
    expect(() => new CacheClient({ namespace: "two words" })).toThrow(/namespace must be a namespace name/);
  });
});

describe("CacheClient in process", () => {
  it("on a cache not yet initialised, every operation is a NotInitError; once initialised, it works", async () => {
    const cache = new Cache();
    const client = new CacheClient({ cache });
    await expect(client.put("q", "a")).rejects.toBeInstanceOf(NotInitError);
    await expect(client.get("q")).rejects.toBeInstanceOf(NotInitError);
    await expect(client.stats()).rejects.toBeInstanceOf(NotInitError);
    await cache.init();
    try {
      await client.put("q", "a");
      expect(await client.get("q")).toBe("a");
    } finally {
      await cache.close();
    }
  });

  it("runs the same operations on a given cache, namespaces included", async () => {
    const cache = await new Cache().init();
    const client = new CacheClient({ cache });
    const tenant = new CacheClient({ cache, namespace: "tenant" });
    try {
      expect(await client.put("q", "shared")).toBe(200);
      await tenant.put("q", "tenant's");
      expect(await client.get("q")).toBe("shared");
      expect(await tenant.get("q")).toBe("tenant's");
      expect(await client.importPairs([{ question: "q2", answer: "a2" }])).toBe(1);
      expect(wholeStats(await client.stats()).entries).toBe(3);
      await expect(client.get("")).rejects.toThrow(ValidationError);
      await expect(client.get("x".repeat(3001))).rejects.toThrow(ValueTooLongError);
    } finally {
      await cache.close();
    }
  });

  it("uses the global cache by default", async () => {
    await globalCache.init();
    try {
      const client = new CacheClient();
      await client.put("global question", "global answer");
      expect(await client.get("global question")).toBe("global answer");
    } finally {
      await globalCache.close();
    }
  });
});
