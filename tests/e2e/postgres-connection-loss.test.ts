/**
 * `semcache serve` over PostgreSQL while the database terminates the server's connections (pg_terminate_backend)
 * under proxy load, and again while they sit idle: the process keeps running, every chat completion is answered
 * (a request whose store call is cut fails open to the upstream's answer, counted in /stats), and afterwards the
 * answers are stored and hit again without a restart.
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { PostgresScalarStore } from "../../src/stores/scalar/postgres.js";
import { startFakeOpenAI, type FakeOpenAIServer } from "../../src/testing/index.js";
import { tempDir } from "../helpers/fixtures.js";
import { postgresCutter, type ConnectionCutter } from "../helpers/connection-cut.js";
import { testUrl, uniquePrefix } from "../helpers/server-stores.js";
import { waitUntil } from "../helpers/wait-until.js";
import { startServer, type CliProcess } from "./cli-process.js";

const url = testUrl("postgres");
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

if (url) {
  describe("semcache serve over postgres, its connections terminated by the database", () => {
    const id = uniquePrefix("pgserve");
    const dir = tempDir("semcache-pgcut-");
    let fake: FakeOpenAIServer;
    let cutter: ConnectionCutter;
    let server: CliProcess & { url: string };

    beforeAll(async () => {
      fake = await startFakeOpenAI({ reply: (body) => `answer to ${(body.messages as Array<{ content: string }>).at(-1)?.content}` });
      cutter = await postgresCutter(url, id);
      const config = join(dir.path, "config.yaml");
      // Exact matching (no embedding model to load); the store's connections are marked with the test's id.
      writeFileSync(
        config,
        "embedding: string\n" +
          `storage_config:\n  manager: postgres\n  scalar_params:\n    url_env: SEMCACHE_CUT_POSTGRES_URL\n    table_prefix: ${id}\n    pool_size: 4\n` +
          `server:\n  proxy_cache_scope: shared\n  upstream:\n    base_url: ${fake.baseURL}\n`,
      );
      server = await startServer(["-f", config, "-d", dir.path], { SEMCACHE_CUT_POSTGRES_URL: cutter.storeUrl });
    }, 60_000);

    afterAll(async () => {
      if (server?.child.exitCode === null) server.child.kill("SIGTERM");
      const code = await server?.exited;
      const store = new PostgresScalarStore({ url, tablePrefix: id });
      await store.drop();
      await store.close();
      await cutter?.close();
      await fake?.close();
      dir.cleanup();
      // Still running until told to stop, then stopped gracefully (a crash shows its output here).
      expect({ code, stderr: code === 0 ? undefined : server?.stderr() }).toEqual({ code: 0 });
    }, 30_000);

    async function chat(question: string): Promise<{ status: number; cache: string | null; content: unknown }> {
      const response = await fetch(`${server.url}/v1/chat/completions`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ model: "gpt-4o-mini", messages: [{ role: "user", content: question }] }),
      });
      const body = (await response.json()) as { choices?: Array<{ message: { content: unknown } }> };
      return { status: response.status, cache: response.headers.get("x-semcache"), content: body.choices?.[0]?.message.content };
    }

    const answered = (question: string, cache: string) => ({ status: 200, cache, content: `answer to ${question}` });

    async function cacheErrors(): Promise<number> {
      const stats = (await (await fetch(`${server.url}/stats`)).json()) as { cache: { errors: number } };
      return stats.cache.errors;
    }

    /** A question stored before the cut hits; a new one is a miss, stored, then a hit: one upstream call. */
    async function expectRecovered(before: string, after: string): Promise<void> {
      const calls = fake.modelCalls();
      expect(await chat(before)).toEqual(answered(before, "HIT"));
      expect(await chat(after)).toEqual(answered(after, "MISS"));
      expect(await chat(after)).toEqual(answered(after, "HIT"));
      expect(fake.modelCalls()).toBe(calls + 1);
    }

    it("under load: every request is answered, cut ones fail open and are counted, then it stores and hits again", async () => {
      expect(await chat("asked before the cuts")).toEqual(answered("asked before the cuts", "MISS"));
      let done = false;
      let asked = 0;
      const failures: unknown[] = [];
      // More callers than pooled connections, so the connections are busy in queries and transactions when cut.
      const callers = Array.from({ length: 8 }, async (_, caller) => {
        for (let i = 0; !done; i++) {
          const question = `caller ${caller} question ${i}`;
          const result = await chat(question);
          if (result.status !== 200 || result.content !== `answer to ${question}`) failures.push(result);
          asked++;
        }
      });
      let terminated = 0;
      for (let round = 0; round < 5; round++) {
        // Load between cuts: the callers get through more requests (on connections made again since the last cut).
        const before = asked;
        await waitUntil(() => asked >= before + 8, "the callers to send more requests between cuts", 20_000);
        terminated += await cutter.terminate();
      }
      done = true;
      await Promise.all(callers);

      expect(terminated).toBeGreaterThan(0);
      expect(failures).toEqual([]);
      expect(server.child.exitCode).toBeNull();
      expect(await cacheErrors()).toBeGreaterThan(0);
      await expectRecovered("asked before the cuts", "asked after the cuts");
    }, 60_000);

    it("idle connections terminated: the process survives and the next requests work without a failure", async () => {
      expect(await chat("asked before the idle cut")).toMatchObject({ status: 200 });
      expect(await cutter.terminate()).toBeGreaterThan(0);
      // Time for the server process's pool to notice the closed connections (socket events inside the driver, in
      // another process): nothing tells the test when, and a probe request would take the failure tested for.
      await sleep(200);
      const errors = await cacheErrors();
      expect(server.child.exitCode).toBeNull();
      await expectRecovered("asked before the idle cut", "asked after the idle cut");
      expect(await cacheErrors()).toBe(errors);
    }, 30_000);
  });
}
