/**
 * The dashboard in a real browser: `semcache serve` as a process, hits, misses and skips driven over HTTP,
 * /dashboard opened in headless Chromium. The figures the page shows are /stats' (the admin's whole server, a
 * tenant's own namespace); a tenant's page shows nothing of another namespace; with an error budget, the page
 * shows its estimate and interval as /stats has them. A screenshot is kept in
 * .tmp/test-artifacts/ (SEMCACHE_TEST_ARTIFACTS moves it).
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import type { Page } from "playwright-core";
import { seededRandom } from "../../src/core/random.js";
import { DistanceEvaluation, managerFactory } from "../../src/index.js";
import { CacheClient } from "../../src/server/client.js";
import { ErrorBudgetEvaluation } from "../../src/similarity/error-budget-evaluation.js";
import { startFakeOpenAI, type FakeOpenAIServer } from "../../src/testing/index.js";
import { BagOfWordsEmbedding, tempDir } from "../helpers/fixtures.js";
import { exactServer } from "../server/helpers.js";
import { chromiumAvailable, openBrowser } from "./chromium.js";
import { startServer, type CliProcess } from "./cli-process.js";

const ARTIFACTS = resolve(process.env.SEMCACHE_TEST_ARTIFACTS ?? ".tmp/test-artifacts");
const KEYS = { admin: "admin-key", a: "tenant-a-key", b: "tenant-b-key" };

/** What the page shows in the element of figure `name`. */
const shown = (page: Page, name: string) => page.locator(`output[data-figure="${name}"]`).first().textContent();
const count = (n: number) => n.toLocaleString("en");
const percent = (hits: number, requests: number) => `${((100 * hits) / requests).toFixed(1)}%`;

if (chromiumAvailable()) {
  describe("the dashboard in Chromium", () => {
    let dir: ReturnType<typeof tempDir>;
    let upstream: FakeOpenAIServer;
    let server: CliProcess & { url: string };

    beforeAll(async () => {
      dir = tempDir("semcache-dashboard-");
      upstream = await startFakeOpenAI({ reply: () => "Lisbon is the capital of Portugal." });
      const config = join(dir.path, "config.yaml");
      writeFileSync(
        config,
        [
          "server:",
          "  api_keys:",
          `    - ${KEYS.admin}`,
          `    - { key: ${KEYS.a}, namespace: tenant-a }`,
          `    - { key: ${KEYS.b}, namespace: tenant-b }`,
          "  upstream:",
          `    base_url: ${upstream.baseURL}`,
          "  prices:",
          "    default: { input_per_1k: 0.15, output_per_1k: 0.6 }",
          "",
        ].join("\n"),
      );
      server = await startServer(["-f", config, "-d", join(dir.path, "data")]);

      const a = new CacheClient({ uri: server.url, apiKey: KEYS.a });
      const b = new CacheClient({ uri: server.url, apiKey: KEYS.b });
      try {
        await a.put("How do I reset my password?", "Use the 'forgot password' link on the sign-in page.");
        await a.put("What are your opening hours?", "We are open from 9 to 5, Monday to Friday.");
        for (let i = 0; i < 3; i++) await a.get("How do I reset my password?"); // exact hits
        await a.get("How can I reset my password?"); // a reworded hit
        await a.get("When are you open?");
        await a.get("How do I delete my account?"); // a miss
        await b.put("Where is the tenant B office?", "In Lyon.");
        await b.get("Where is the tenant B office?");
        await b.get("Tenant B's secret question about invoices?"); // a miss of tenant-b
      } finally {
        a.close();
        b.close();
      }
      const chat = (content: string, headers: Record<string, string> = {}) =>
        fetch(`${server.url}/v1/chat/completions`, {
          method: "POST",
          headers: { "content-type": "application/json", authorization: `Bearer ${KEYS.a}`, ...headers },
          body: JSON.stringify({ model: "gpt-4o-mini", messages: [{ role: "user", content }] }),
        }).then((response) => response.headers.get("x-semcache"));
      expect(await chat("What is the capital of Portugal?")).toBe("MISS");
      expect(await chat("What is the capital of Portugal?")).toBe("HIT");
      expect(await chat("What is the capital of Portugal?", { "cache-control": "no-cache" })).toBe("SKIP");
    }, 120_000);

    afterAll(async () => {
      if (server && server.child.exitCode === null) {
        server.child.kill("SIGTERM");
        await server.exited;
      }
      await upstream?.close();
      dir?.cleanup();
    });

    // eslint-disable-next-line @typescript-eslint/no-explicit-any -- the test reads whatever /stats answers
    const stats = async (key: string): Promise<any> => (await fetch(`${server.url}/stats`, { headers: { authorization: `Bearer ${key}` } })).json();

    /** Opens the page in a fresh profile, gives it `key`, and waits for its first figures. */
    async function openDashboard(key: string, run: (page: Page) => Promise<void>): Promise<void> {
      const browser = await openBrowser();
      try {
        const page = await browser.context.newPage();
        const failed: string[] = [];
        page.on("requestfailed", (request) => failed.push(request.url()));
        // Answers with an error status are the page's business (the 401 that asks for a key); a script error is not.
        page.on("pageerror", (error) => failed.push(error.message));
        await page.goto(`${server.url}/dashboard`);
        // With keys configured, the page asks for one before it shows anything.
        await page.waitForSelector("body[data-state=key]");
        expect(await page.isVisible("#figures")).toBe(false);
        await page.fill("#key", key);
        await page.click("#key-form button");
        await page.waitForSelector("body[data-state=ready]");
        await run(page);
        expect(failed).toEqual([]);
      } finally {
        await browser.close();
      }
    }

    it("shows the whole server's figures to an admin key, as /stats has them", async () => {
      const { cache } = await stats(KEYS.admin);
      expect(cache.requests).toBe(11);
      await openDashboard(KEYS.admin, async (page) => {
        expect(await shown(page, "requests")).toBe(count(cache.requests));
        expect(await shown(page, "hits")).toBe(count(cache.hits));
        expect(await shown(page, "misses")).toBe(count(cache.misses));
        expect(await shown(page, "skips")).toBe(count(cache.skips));
        expect(await shown(page, "hitRate")).toBe(percent(cache.hits, cache.requests));
        expect(await shown(page, "savedOutputTokens")).toBe(count(cache.savedTokens));
        expect(await shown(page, "savedCost")).toMatch(/^0\.\d{4}$/);
        expect(await shown(page, "hitLatency")).toMatch(/^[\d.]+ \/ [\d.]+ \/ [\d.]+$/);
        expect(await page.textContent("#scope")).toBe("every namespace");
        expect(await page.isVisible("#namespace-picker")).toBe(true);
        expect(await page.textContent("#frequent")).toContain("How do I reset my password?");
        mkdirSync(ARTIFACTS, { recursive: true });
        const file = join(ARTIFACTS, "dashboard.png");
        await page.screenshot({ path: file, fullPage: true });
        process.stderr.write(`[artifact] dashboard screenshot: ${file}\n`);

        // Picking a namespace narrows the figures to it.
        const tenantB = (await stats(KEYS.b)).cache;
        await page.selectOption("#namespace", "tenant-b");
        await page.waitForSelector("#scope:text-is('namespace tenant-b')");
        expect(await shown(page, "requests")).toBe(count(tenantB.requests));
      });
    }, 60_000);

    it("shows a tenant's key its own namespace's figures, and nothing of another's", async () => {
      const own = (await stats(KEYS.a)).cache;
      expect(own).toMatchObject({ requests: 9, skips: 1 });
      await openDashboard(KEYS.a, async (page) => {
        expect(await shown(page, "requests")).toBe(count(own.requests));
        expect(await shown(page, "hits")).toBe(count(own.hits));
        expect(await shown(page, "misses")).toBe(count(own.misses));
        expect(await shown(page, "skips")).toBe(count(own.skips));
        expect(await shown(page, "hitRate")).toBe(percent(own.hits, own.requests));
        expect(await page.textContent("#scope")).toBe("namespace tenant-a");
        expect(await page.isVisible("#namespace-picker")).toBe(false);
        const text = (await page.textContent("body")) ?? "";
        expect(text).toContain("How do I delete my account?");
        for (const other of ["tenant B", "Tenant B", "tenant-b", "Lyon"]) expect(text).not.toContain(other);
        // The page's own JSON, asked for another namespace with this key: refused.
        const status = await page.evaluate(
          async (key) => (await fetch("/dashboard/data?namespace=tenant-b", { headers: { authorization: `Bearer ${key}` } })).status,
          KEYS.a,
        );
        expect(status).toBe(403);
      });
    }, 60_000);
  });

  describe("the dashboard's error budget in Chromium", () => {
    it("shows the false-hit estimate with its interval, as /stats has it", async () => {
      const upstream = await startFakeOpenAI({ reply: () => "pip install numpy" });
      const evaluation = new ErrorBudgetEvaluation({ evaluation: new DistanceEvaluation(), maxErrorRate: 0.05, random: seededRandom(5) });
      const server = await exactServer(
        { settings: { upstream: { baseURL: upstream.baseURL } } },
        { embeddingFunc: new BagOfWordsEmbedding(), dataManager: managerFactory("memory,flat", {}), similarityEvaluation: evaluation, config: { similarityThreshold: 0.3 } },
      );
      const browser = await openBrowser();
      try {
        for (const content of ["how do I install numpy on linux", "please install numpy on linux"]) {
          await server.post("/v1/chat/completions", { model: "m", messages: [{ role: "user", content }] });
        }
        await evaluation.settled();
        const budget = (await server.call({ method: "GET", url: "/stats" })).json().cache.errorBudget;
        expect(budget).toMatchObject({ decisions: 1, explored: 1 });
        const page = await browser.context.newPage();
        // No keys: the page shows the whole server at once.
        await page.goto(`${server.url}/dashboard`);
        await page.waitForSelector("body[data-state=ready]");
        expect(await page.isVisible("#error-budget")).toBe(true);
        const pct = (rate: number) => `${(100 * rate).toFixed(1)}%`;
        const { rate, lower, upper } = budget.estimate;
        expect(await shown(page, "errorBudgetEstimate")).toContain(`false-hit rate ${pct(rate)} (interval ${pct(lower)} to ${pct(upper)}`);
        expect(await shown(page, "errorBudgetEstimate")).toContain(`budget of ${pct(0.05)}`);
        expect(await page.textContent("#error-budget-rows")).toContain(`explored${budget.explored}`);
      } finally {
        await browser.close();
        await server.close();
        await upstream.close();
      }
    }, 60_000);
  });
}
