/**
 * Child process of bench/server.ts: serves one target on a free loopback port and prints its URL as the first
 * stdout line. `--kind bare`: a bare Fastify POST /get returning a fixed body (the floor). `--kind semcache`:
 * buildServer over the offline semantic preset (USE + SQLite + hnswlib + guard) with `--entries` stored;
 * `--kind semcache-in-process`: the same with the model on the event loop's thread instead of a worker.
 * `--kind exact`: buildServer over an exact-match SQLite store (no embedding model). `--stub touch,report`
 * turns the data manager's hit bookkeeping into no-ops (an ablation, as in bench/exact-store.ts);
 * `--bookkeeping-ms N` writes it every N ms instead of the default; `--upstream URL` points the proxy
 * (/v1/chat/completions) at a model API. The semcache targets run the built package (dist/).
 */
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import Fastify, { type FastifyInstance } from "fastify";
import type * as Library from "../../src/index.js";
import type * as ServerLibrary from "../../src/server/index.js";
import { parseArgs } from "./args.js";

/**
 * The built package (dist/), as `semcache serve` runs it: run through tsx, every function created per request
 * would also pay for esbuild's name-keeping wrapper, which the shipped code does not have.
 */
async function builtPackage(): Promise<typeof Library & typeof ServerLibrary> {
  const dist = new URL("../../dist/", import.meta.url);
  if (!existsSync(new URL("server/index.js", dist))) throw new Error("dist/ is missing: run `npm run build` first (npm run bench:server does).");
  const [library, server] = await Promise.all([import(new URL("index.js", dist).href), import(new URL("server/index.js", dist).href)]);
  return { ...(library as typeof Library), ...(server as typeof ServerLibrary) };
}

/** The i-th stored question (the load generator asks the same texts). */
export function benchPrompt(i: number): string {
  return `What is fact number ${i} about the history of ${["volcanoes", "bridges", "comets", "libraries"][i % 4]}?`;
}

export const BARE_ANSWER = { prompt: benchPrompt(0), answer: "A fixed answer of about the length of a short cached reply." };

async function target(
  kind: string,
  dir: string,
  entries: number,
  stubs: readonly string[],
  bookkeepingIntervalMs?: number,
  upstream?: string,
): Promise<FastifyInstance> {
  if (kind === "bare") {
    const app = Fastify({ logger: false });
    app.post("/get", async () => BARE_ANSWER);
    return app;
  }
  const { Cache, initSimilarCache, managerFactory, buildServer, UniversalSentenceEncoderEmbeddings, PrecisionGuardEvaluation } = await builtPackage();
  const cache = new Cache();
  if (kind === "semcache") await initSimilarCache({ cache, dataDir: dir, bookkeepingIntervalMs });
  else if (kind === "semcache-in-process") {
    // The preset as it was before its model moved to a worker thread.
    const embedding = new UniversalSentenceEncoderEmbeddings({ worker: false });
    await initSimilarCache({ cache, dataDir: dir, embedding, evaluation: new PrecisionGuardEvaluation() });
  }
  else if (kind === "exact") await cache.init({ dataManager: managerFactory("sqlite", { dataDir: dir }) });
  else throw new Error(`unknown --kind ${kind}`);
  const prompts = Array.from({ length: entries }, (_, i) => benchPrompt(i));
  await cache.importData(prompts, prompts.map((prompt) => `The answer to "${prompt}".`));
  await cache.flush();
  if (stubs.includes("touch")) cache.dataManager.hit = () => undefined;
  if (stubs.includes("report")) cache.dataManager.report = () => undefined;
  return buildServer({ cache, closeCache: true, ...(upstream ? { settings: { upstream: { baseURL: upstream } }, env: {} } : {}) });
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const args = parseArgs();
  const stubs = (args.value("stub") ?? "").split(",").filter(Boolean);
  const bookkeeping = args.value("bookkeeping-ms");
  const bookkeepingMs = bookkeeping === undefined ? undefined : Number(bookkeeping);
  const app = await target(args.value("kind") ?? "bare", args.value("dir") ?? "", args.number("entries", 1000), stubs, bookkeepingMs, args.value("upstream"));
  await app.listen({ host: "127.0.0.1", port: 0 });
  const address = app.server.address();
  process.stdout.write(`${JSON.stringify({ url: `http://127.0.0.1:${typeof address === "object" && address ? address.port : 0}` })}\n`);
  process.once("SIGTERM", () => void app.close().then(() => process.exit(0)));
}
