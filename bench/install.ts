/**
 * What a LangChain user pays to install and start the package: the packed package installed with plain
 * `npm install` into a new app next to @langchain/core, @langchain/openai and langchain, against the same app
 * without it (installed size and time, side by side in one run), then the cold start to the first answer of
 * `new SemanticCache()` (a new Node process, the README's example against a local fake OpenAI server), and the
 * installed `semcache serve`: time to its listening line, its first request against the steady ones.
 *
 *   npm run bench:install        # two installs from the registry, 3 cold starts, 5 server starts: ~5 minutes
 */
import { copyFileSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { folderBytes, installFreshApp, LANGCHAIN_PACKAGES, packPackage } from "../tests/helpers/fresh-app.js";
import { writeGeneratedBlock } from "./lib/docs.js";
import { measureServeStart, type ServeStart } from "./lib/serve-start.js";
import { median } from "./lib/measure.js";
import { environment, table } from "./lib/output.js";

const DOC = fileURLToPath(new URL("../docs/benchmarks.md", import.meta.url));
const FIRST_USE = fileURLToPath(new URL("../tests/fixtures/fresh-app/first-use.mjs", import.meta.url));
const MARKERS = { begin: "<!-- install:begin (bench/install.ts writes this section) -->", end: "<!-- install:end -->" };
const COLD_STARTS = 3;
const SERVE_STARTS = 5;

const mb = (bytes: number) => `${(bytes / 1e6).toFixed(1)} MB`;
const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

const packDir = mkdtempSync(join(tmpdir(), "semcache-bench-pack-"));
try {
  const tarball = await packPackage(packDir);
  const tarballBytes = await folderBytes(tarball);
  const baseline = await installFreshApp(LANGCHAIN_PACKAGES);
  const withUs = await installFreshApp([tarball, ...LANGCHAIN_PACKAGES]);
  try {
    const baselineBytes = await folderBytes(join(baseline.dir, "node_modules"));
    const withUsBytes = await folderBytes(join(withUs.dir, "node_modules"));
    const serverBytes = await Promise.all(["fastify", "@fastify"].map((name) => folderBytes(join(withUs.dir, "node_modules", name))));
    copyFileSync(FIRST_USE, join(withUs.dir, "first-use.mjs"));
    const processMs: number[] = [];
    const firstAnswerMs: number[] = [];
    for (let i = 0; i < COLD_STARTS; i++) {
      const started = performance.now();
      const result = JSON.parse(await withUs.exec("node", ["first-use.mjs"])) as { firstAnswerMs: number; modelCalls: number };
      processMs.push(performance.now() - started);
      firstAnswerMs.push(result.firstAnswerMs);
    }
    const serveStarts: ServeStart[] = [];
    for (let i = 0; i < SERVE_STARTS; i++) serveStarts.push(await measureServeStart(join(withUs.dir, "node_modules", ".bin", "semcache"), withUs.dir));
    const ratios = serveStarts.map((start) => start.firstMs / start.steadyMedianMs);
    const env = environment();
    const block = [
      `Run with \`npm run bench:install\` on ${env.date.slice(0, 10)}, Node ${env.node}, npm from the registry (its cache warm).`,
      "",
      table(
        ["app", "npm install", "node_modules"],
        [
          [LANGCHAIN_PACKAGES.join(" "), seconds(baseline.installMs), mb(baselineBytes)],
          [`the same + langchain-semcache`, seconds(withUs.installMs), mb(withUsBytes)],
          ["langchain-semcache's share", seconds(withUs.installMs - baseline.installMs), mb(withUsBytes - baselineBytes)],
        ],
      ),
      "",
      `The packed tarball is ${mb(tarballBytes)}. Of its share, the HTTP server's own packages (fastify and @fastify/*, ` +
        `which an in-process user never loads) take ${mb(serverBytes[0] + serverBytes[1])}. The install time includes ` +
        "building better-sqlite3 and hnswlib-node from source (no prebuilt binary can be downloaded on this machine).",
      "",
      table(
        ["cold start (median of 3)", "time"],
        [
          ["`new SemanticCache()`: first model call answered (model load included)", seconds(median(firstAnswerMs))],
          ["the whole process: start, 3 questions (a miss, a repeat, a rewording), exit", seconds(median(processMs))],
        ],
      ),
      "",
      table(
        [`\`semcache serve\` (median of ${SERVE_STARTS} starts)`, "value"],
        [
          ["start to the listening line (model loaded and warm)", seconds(median(serveStarts.map((start) => start.readyMs)))],
          ["first /get (a new question: embedded)", `${median(serveStarts.map((start) => start.firstMs)).toFixed(1)} ms`],
          ["steady /get (median of the next 20 new questions)", `${median(serveStarts.map((start) => start.steadyMedianMs)).toFixed(1)} ms`],
          ["first / steady, per start (goal: at most 2x)", ratios.map((ratio) => `${ratio.toFixed(2)}x`).join(", ")],
        ],
      ),
    ].join("\n");
    console.log(block);
    writeGeneratedBlock(DOC, block, MARKERS);
  } finally {
    baseline.cleanup();
    withUs.cleanup();
  }
} finally {
  rmSync(packDir, { recursive: true, force: true });
}
