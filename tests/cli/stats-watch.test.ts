/**
 * `semcache stats --watch`: the dashboard's headline figures from a running server, redrawn in place on a
 * terminal (frames one after another otherwise), the same figures /dashboard/data and /stats give.
 */
import { statsCommand } from "../../src/cli/stats.js";
import { CLEAR_SCREEN, watchStats } from "../../src/cli/stats-watch.js";
import { CacheClient } from "../../src/server/client.js";
import { exactServer, type Listening } from "../server/helpers.js";

describe("semcache stats --watch", () => {
  let server: Listening;
  beforeAll(async () => {
    server = await exactServer({ settings: { apiKeys: ["admin-key", { key: "tenant-key", namespace: "t" }], prices: { default: { inputPer1k: 1, outputPer1k: 1 } } } });
    const headers = { authorization: "Bearer admin-key" };
    await server.post("/put", { prompt: "What is the capital of France?", answer: "Paris." }, headers);
    await server.post("/get", { prompt: "What is the capital of France?" }, headers);
    await server.post("/get", { prompt: "What is the capital of France?" }, headers);
    await server.post("/get", { prompt: "What is the capital of Peru?" }, headers);
    await server.post("/get", { prompt: "a tenant's question" }, { authorization: "Bearer tenant-key" });
  });
  afterAll(async () => server.close());

  const run = async (args: string[]) => {
    let out = "";
    await statsCommand(["--url", server.url, ...args], { out: (text) => void (out += text), progress: () => undefined });
    return out;
  };

  it("prints the headline figures, the same as /stats, frame after frame when not on a terminal", async () => {
    const stats = (await server.call({ method: "GET", url: "/stats", headers: { authorization: "Bearer admin-key" } })).json().cache;
    const out = await run(["--key", "admin-key", "--watch", "--count", "2", "--interval", "0.01"]);
    const frames = out.split(/\n(?=semcache: )/);
    expect(frames).toHaveLength(2);
    for (const frame of frames) {
      expect(frame).toMatch(/^semcache: every namespace, last 1h, at \d{4}-/);
      expect(frame).toContain(`requests        ${stats.requests}\n`);
      expect(frame).toContain(`hit rate        ${((100 * stats.hits) / stats.requests).toFixed(1)}%\n`);
      expect(frame).toContain(`hits            ${stats.hits}\n`);
      expect(frame).toContain(`misses          ${stats.misses}\n`);
      expect(frame).toContain(`tokens saved    ${stats.savedTokens} (answers)`);
      expect(frame).toMatch(/est\. cost saved 0\.\d{4}\n/);
      expect(frame).toMatch(/hit latency {5}[\d.]+ \/ [\d.]+ \/ [\d.]+ ms/);
    }
    expect(out).not.toContain(CLEAR_SCREEN);
  });

  it("redraws in place on a terminal, and shows a tenant's key its own namespace", async () => {
    let out = "";
    const client = new CacheClient({ uri: server.url, apiKey: "tenant-key" });
    try {
      await watchStats(client, { window: "15m", intervalMs: 10, count: 3, inPlace: true, out: (text) => void (out += text) });
    } finally {
      client.close();
    }
    expect(out.split(CLEAR_SCREEN)).toEqual(["", expect.any(String), expect.any(String), expect.any(String)]);
    expect(out).toContain("semcache: namespace t, last 15m");
    expect(out).toContain("requests        1\n");
    expect(out).toContain("misses          1\n");
  });

  it("refuses what --watch cannot do", async () => {
    await expect(statsCommand(["--watch"], { out: () => undefined, progress: () => undefined })).rejects.toThrow(/--watch .* give --url/);
    await expect(run(["--watch", "--window", "2y"])).rejects.toThrow(/--window must be one of 15m, 1h, 24h, 7d/);
    await expect(run(["--watch", "--interval", "0"])).rejects.toThrow(/--interval/);
    await expect(run(["--watch", "--json"])).rejects.toThrow(/--json/);
    await expect(run(["--count", "2"])).rejects.toThrow(/--count is for --watch/);
  });
});
