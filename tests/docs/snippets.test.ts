/**
 * Every fenced TypeScript snippet (```ts / ```typescript) of README.md and docs/ runs as a user would run it
 * (tsx, a file of its own, "langchain-semcache[/entry]" resolved to these sources, a fresh working folder),
 * and fails here when it exits non-zero. The rules a snippet may rely on:
 *
 * - **A snippet with no `import` line continues the previous snippet of its page**: the two (or more) run as
 *   one program, the earlier code first. So a short fragment may use what the page's last complete example
 *   defined (`cache`, `openai`, ...). A snippet with imports is a program of its own.
 * - **```ts jest** marks a test file (e.g. one calling the exported contract suites, which register Jest's
 *   `describe`/`it`): it runs under Jest, with the repository's Jest config, and passes when its tests pass.
 * - **A ```yaml block whose first line is `# NAME.yaml`** is written as NAME.yaml into the working folder of
 *   every snippet of its page, so a snippet can load the config file the page shows.
 * - **Environment**, as a reader would set it up:
 *   - `OPENAI_API_KEY` and `OPENAI_BASE_URL`: a local fake OpenAI server (src/testing/fake-servers/openai.ts),
 *     so the openai SDK and @langchain/openai need no key and no network. It echoes questions, and answers
 *     the LLM judge's "same question?" prompt yes when both questions have the same content words, else no.
 *   - `OLLAMA_HOST` and `LLAMACPP_URL`: a fake Ollama server and a fake llama.cpp server
 *     (src/testing/fake-servers/ollama.ts, llamacpp.ts, echoing questions), for snippets written as
 *     `cachedOllama({ host: process.env.OLLAMA_HOST })`; started only when a snippet reads them.
 *   - `STABILITY_BASE_URL` and `REPLICATE_BASE_URL` (with `STABILITY_API_KEY` and `REPLICATE_API_TOKEN`): fake
 *     Stability AI and Replicate servers (tests/adapters/fake-stability.ts, fake-replicate.ts), for snippets
 *     written as `cachedStability({ baseUrl: process.env.STABILITY_BASE_URL })`; started only when a snippet reads them.
 *   - `SEMCACHE_URL`: a semcache server started here (buildServer, the offline semantic preset, its proxy's
 *     upstream the fake OpenAI server), for snippets written as `process.env.SEMCACHE_URL ?? "http://127.0.0.1:8000"`.
 *   - `PORT=0`: a snippet that starts a server of its own (`process.env.PORT ?? 8000`) takes a free port. Such
 *     a snippet closes its server at its end, or it would never exit (it is killed after a minute).
 *   - `DATABASE_URL`: a fresh schema (dropped afterwards) of the PostgreSQL database SEMCACHE_TEST_POSTGRES_URL
 *     names. A snippet reading `DATABASE_URL` is skipped with a printed reason when that variable is unset.
 */
import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import type { FastifyInstance } from "fastify";
import { Cache, initSimilarCache } from "../../src/index.js";
import { buildServer } from "../../src/server/app.js";
import { startFakeLlamaCpp, startFakeOllama, startFakeOpenAI, type FakeOpenAIServer, type FakeServer } from "../../src/testing/index.js";
import { startFakeReplicate } from "../adapters/fake-replicate.js";
import { startFakeStability } from "../adapters/fake-stability.js";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));
const SNIPPETS = join(ROOT, ".tmp", "snippets");
const SNIPPET_TIMEOUT_MS = 60_000;
const POSTGRES_URL = process.env.SEMCACHE_TEST_POSTGRES_URL;

/** The package's entries and the sources they resolve to. */
const ENTRIES: Record<string, string> = {
  "langchain-semcache": "src/index.ts",
  "langchain-semcache/agents": "src/agents/index.ts",
  "langchain-semcache/images": "src/adapters/images/index.ts",
  "langchain-semcache/langchain": "src/langchain/index.ts",
  "langchain-semcache/local-models": "src/adapters/local-models/index.ts",
  "langchain-semcache/openai": "src/adapters/openai/index.ts",
  "langchain-semcache/replicate": "src/adapters/replicate/index.ts",
  "langchain-semcache/server": "src/server/index.ts",
  "langchain-semcache/stores": "src/stores/index.ts",
  "langchain-semcache/testing": "src/testing/index.ts",
};

interface Snippet {
  name: string;
  /** The program that runs: this snippet, after the ones it continues. */
  code: string;
  /** This snippet's own text, for failure messages. */
  own: string;
  /** Runs under Jest (```ts jest). */
  jest: boolean;
  /** Config files shown on the page (```yaml blocks headed `# NAME.yaml`), written into its working folder. */
  files: Record<string, string>;
}

function snippetsOf(file: string): Snippet[] {
  const text = readFileSync(join(ROOT, file), "utf8");
  const files: Record<string, string> = {};
  for (const match of text.matchAll(/^```ya?ml\n# ([\w.-]+\.ya?ml)\n([\s\S]*?)^```$/gm)) files[match[1]] = match[2];
  const found: Snippet[] = [];
  for (const match of text.matchAll(/^```(?:ts|typescript)([^\S\n]+[^\n]*)?\n([\s\S]*?)^```$/gm)) {
    const line = text.slice(0, match.index).split("\n").length;
    const own = match[2];
    const jest = (match[1] ?? "").trim().split(/\s+/).includes("jest");
    const previous = found.at(-1);
    const continues = !jest && previous !== undefined && !previous.jest && !/^import\s/m.test(own);
    found.push({ name: `${file}:${line}`, code: continues ? `${previous.code}\n${own}` : own, own, jest, files });
  }
  return found;
}

const documents = ["README.md", ...readdirSync(join(ROOT, "docs")).filter((name) => name.endsWith(".md")).map((name) => `docs/${name}`)];
const snippets = documents.flatMap(snippetsOf);

/** Why a snippet cannot run here, or undefined. */
function skipReason(snippet: Snippet): string | undefined {
  if (/\bDATABASE_URL\b/.test(snippet.code) && !POSTGRES_URL) return "it reads DATABASE_URL: set SEMCACHE_TEST_POSTGRES_URL to run it";
  return undefined;
}

const FILLER = new Set(["what", "is", "the", "how", "do", "i", "to", "please", "a", "an", "of", "can", "you"]);
const gist = (text: string) => [...new Set((text.toLowerCase().match(/[a-z0-9%]+/g) ?? []).filter((word) => !FILLER.has(word)))].sort().join(" ");

function lastUserText(body: Record<string, unknown>): string {
  const messages = (body.messages as Array<{ role: string; content: unknown }> | undefined) ?? [];
  const content = ([...messages].reverse().find((message) => message.role === "user") ?? messages.at(-1))?.content;
  if (typeof content === "string") return content;
  if (Array.isArray(content)) return content.map((part: { text?: string }) => part.text ?? "").join(" ");
  return typeof body.prompt === "string" ? body.prompt : JSON.stringify(body.prompt ?? "");
}

/** The fake model: LLMJudgeEvaluation's question gets a verdict (same content words: yes), the rest an echo. */
function fakeReply(body: Record<string, unknown>): string {
  const asked = lastUserText(body);
  const pair = /^Question 1: (.*)\nQuestion 2: (.*)$/s.exec(asked);
  if (pair) return gist(pair[1]) === gist(pair[2]) ? "yes" : "no";
  return `Echo: ${asked}`;
}

function run(args: string[], cwd: string, env: NodeJS.ProcessEnv): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, { cwd, env: { ...process.env, ...env }, stdio: ["ignore", "pipe", "pipe"] });
    let output = "";
    child.stdout.on("data", (chunk: Buffer) => (output += chunk));
    child.stderr.on("data", (chunk: Buffer) => (output += chunk));
    const timer = setTimeout(() => child.kill("SIGKILL"), SNIPPET_TIMEOUT_MS - 5_000);
    child.on("error", reject);
    child.on("close", (code) => {
      clearTimeout(timer);
      resolve({ code, output });
    });
  });
}

/** The repository's Jest config, with the package's entries resolved to the sources and the one test file to run. */
async function jestConfig(): Promise<string> {
  const { default: base } = (await import(pathToFileURL(join(ROOT, "jest.config.js")).href)) as { default: { moduleNameMapper?: Record<string, string> } };
  const entries = Object.fromEntries(Object.entries(ENTRIES).map(([name, source]) => [`^${name}$`, join(ROOT, source)]));
  return JSON.stringify({ ...base, rootDir: SNIPPETS, testMatch: ["**/*.test.ts"], moduleNameMapper: { ...entries, ...base.moduleNameMapper } });
}

describe("the TypeScript snippets of README.md and docs/ run", () => {
  let openai: FakeOpenAIServer;
  /** Fake model servers started for the snippets that read their variable. */
  const modelServers: FakeServer[] = [];
  let semcache: FastifyInstance | undefined;
  let schema: string | undefined;
  const env: NodeJS.ProcessEnv = {};

  beforeAll(async () => {
    openai = await startFakeOpenAI({ reply: fakeReply });
    rmSync(SNIPPETS, { recursive: true, force: true });
    mkdirSync(SNIPPETS, { recursive: true });
    const paths = Object.fromEntries(Object.entries(ENTRIES).map(([name, source]) => [name, [join("..", "..", source)]]));
    writeFileSync(join(SNIPPETS, "tsconfig.json"), JSON.stringify({ compilerOptions: { module: "NodeNext", moduleResolution: "NodeNext", paths } }));
    Object.assign(env, {
      TSX_TSCONFIG_PATH: join(SNIPPETS, "tsconfig.json"),
      OPENAI_API_KEY: "sk-snippet-test",
      OPENAI_BASE_URL: openai.baseURL,
      PORT: "0",
    });
    for (const [variable, start] of [
      ["OLLAMA_HOST", startFakeOllama],
      ["LLAMACPP_URL", startFakeLlamaCpp],
    ] as const) {
      if (!snippets.some((snippet) => snippet.code.includes(variable))) continue;
      const server = await start();
      modelServers.push(server);
      env[variable] = server.url;
    }
    for (const [variable, keyVariable, key, start] of [
      ["STABILITY_BASE_URL", "STABILITY_API_KEY", "sk-test", startFakeStability],
      ["REPLICATE_BASE_URL", "REPLICATE_API_TOKEN", "r8-test", startFakeReplicate],
    ] as const) {
      if (!snippets.some((snippet) => snippet.code.includes(variable))) continue;
      const server = await start();
      modelServers.push(server);
      env[variable] = server.url;
      env[keyVariable] = key;
    }
    if (snippets.some((snippet) => snippet.code.includes("SEMCACHE_URL"))) {
      // What `semcache serve` runs by default, its proxy's upstream the fake OpenAI server.
      const cache = await initSimilarCache({ cache: new Cache(), dataDir: join(SNIPPETS, "semcache-server") });
      semcache = buildServer({ cache, settings: { upstream: { baseURL: openai.baseURL } }, closeCache: true });
      await semcache.listen({ host: "127.0.0.1", port: 0 });
      env.SEMCACHE_URL = `http://127.0.0.1:${(semcache.server.address() as { port: number }).port}`;
    }
    if (POSTGRES_URL && snippets.some((snippet) => /\bDATABASE_URL\b/.test(snippet.code))) {
      const { default: pg } = await import("pg");
      schema = `snippets_${process.pid}_${randomBytes(3).toString("hex")}`;
      const client = new pg.Client({ connectionString: POSTGRES_URL });
      await client.connect();
      await client.query(`CREATE SCHEMA ${schema}`);
      await client.end();
      const url = new URL(POSTGRES_URL);
      url.searchParams.set("options", `-c search_path=${schema}`);
      env.DATABASE_URL = url.href;
    }
  }, 120_000);

  afterAll(async () => {
    await semcache?.close();
    await openai?.close();
    for (const server of modelServers) await server.close();
    if (schema && POSTGRES_URL) {
      const { default: pg } = await import("pg");
      const client = new pg.Client({ connectionString: POSTGRES_URL });
      await client.connect();
      await client.query(`DROP SCHEMA ${schema} CASCADE`);
      await client.end();
    }
    rmSync(SNIPPETS, { recursive: true, force: true });
  });

  it("there are snippets to run", () => {
    expect(snippets.length).toBeGreaterThan(20);
  });

  for (const snippet of snippets) {
    const reason = skipReason(snippet);
    if (reason) {
      process.stderr.write(`[skip] ${snippet.name}: ${reason}\n`);
      it.skip(`${snippet.name} (${reason})`, () => undefined);
      continue;
    }
    it(snippet.name, async () => {
      const base = snippet.name.replace(/[^A-Za-z0-9]+/g, "-");
      const path = join(SNIPPETS, snippet.jest ? `${base}.test.ts` : `${base}.ts`);
      writeFileSync(path, snippet.code);
      // Its own working folder (data it writes lands there), inside the repository so that tsx resolves.
      const cwd = join(SNIPPETS, `${base}-cwd`);
      mkdirSync(cwd);
      for (const [name, text] of Object.entries(snippet.files)) writeFileSync(join(cwd, name), text);
      try {
        const args = snippet.jest
          ? ["--experimental-vm-modules", "--no-warnings", join(ROOT, "node_modules", "jest", "bin", "jest.js"), "--config", await jestConfig(), "--ci", "--runTestsByPath", path]
          : ["--import", "tsx", path];
        const result = await run(args, cwd, env);
        if (result.code !== 0) throw new Error(`${snippet.name} exited with ${result.code}:\n${result.output}\n--- the snippet:\n${snippet.own}`);
      } finally {
        rmSync(cwd, { recursive: true, force: true });
      }
    }, SNIPPET_TIMEOUT_MS);
  }
});
