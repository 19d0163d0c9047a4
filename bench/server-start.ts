/**
 * "Ready means ready" (issue 16, item 5): a started `semcache serve` (the built bin, the default preset) answers
 * its first request at most twice as slowly as a steady one. Each start measures one kind of first request on a
 * fresh copy of a seeded data dir (24 questions), right after the listening line, then 20 more of the same kind
 * on the same connection:
 * - miss: a new question (exact lookup, embedded, searched, judged: nothing passes);
 * - exact: a stored question word for word (found by its key; nothing embedded);
 * - semantic: a stored question reworded (embedded, searched, judged: a hit);
 * - bare: a bare node:http server answering at once, for reference: what a new process's first request costs
 *   with nothing of ours in it.
 * The client (node:http) warms its own HTTP code first. The first request opens its connection and wakes an idle
 * process, the steady ones do neither: for an exact hit (~1 ms) that is a large share, so exact and bare also
 * time 10 more requests each on a connection of its own (an embedded lookup's repeat is cheaper than a first ask:
 * its words are known to the judge by then). Last, each kind times one more request on a new connection after
 * the server idled 3 s: a process woken from idle pays for it on any request, start or no start.
 *
 *   npm run build && npx tsx bench/server-start.ts              # 5 starts of each kind, ~2 minutes
 *   npm run build && npx tsx bench/server-start.ts --starts 2   # a quick look
 *   options: --kinds exact,bare (a subset), --pause MS (wait after the listening line), --bin PATH (another build)
 */
import { spawn, type ChildProcess } from "node:child_process";
import { once } from "node:events";
import { cpSync, mkdtempSync, rmSync } from "node:fs";
import { Agent, createServer, request } from "node:http";
import type { AddressInfo } from "node:net";
import { cpus, tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "./lib/args.js";
import { median } from "./lib/measure.js";
import { environment, RESULTS_DIR, table, writeJson } from "./lib/output.js";

const args = parseArgs();
const starts = args.number("starts", 5);
// --pause: milliseconds between the listening line and the first request (0: at once, as a waiting client does).
const pauseMs = args.number("pause", 0);
// --kinds: a comma-separated subset of the kinds below.
const only = args.value("kinds")?.split(",");
// --bin: another build of the CLI (a copy built elsewhere, to compare two versions).
const BIN = args.value("bin") ?? fileURLToPath(new URL("../dist/cli/index.js", import.meta.url));
const STEADY = 20;
const NEW_CONNECTIONS = 10;
/** How long the server idles before the last request, which is timed on a new connection as a first one is. */
const IDLE_MS = 3000;
/** Distinct tasks, so a rewording has one stored question near it (the preset's judge weighs down ambiguous matches). */
const TASKS = [
  "reset my password", "delete my account", "change my email address", "cancel my subscription", "update my billing address",
  "export my data", "enable two-factor authentication", "invite a teammate", "change the language of the app", "download my invoices",
  "contact customer support", "upgrade my plan", "turn off email notifications", "change my username", "recover a deleted file",
  "connect my calendar", "share a document", "set up a custom domain", "change my profile picture", "log out of all devices",
  "add a payment method", "create an API key", "transfer ownership of a project", "archive a project",
];
const STORED = TASKS.length;

const stored = (i: number) => `How do I ${TASKS[i]}?`;
const reworded = (i: number) => `How can I ${TASKS[i]}?`;
/** Questions about other things, each in words of its own: a judge that learns words as it meets them has met none. */
const OTHERS = [
  "What is the boiling point of water at sea level?", "Who painted the ceiling of the Sistine Chapel?", "How many moons does Jupiter have?",
  "Which river flows through Cairo?", "When did the Berlin Wall fall?", "Why is the sky blue during the day?",
  "What do pandas eat in the wild?", "How tall is Mount Kilimanjaro?", "Who wrote the novel Moby Dick?",
  "What causes thunder during a storm?", "How far away is the Moon from Earth?", "Which metal conducts electricity best?",
  "What language is spoken in Brazil?", "How long do tortoises usually live?", "Who discovered penicillin?",
  "What is the largest desert on the planet?", "How do bees make honey?", "Which planet has the strongest winds?",
  "What is the capital city of Australia?", "How many bones are in the adult human body?", "Who invented the telephone?",
  "What makes volcanoes erupt?", "How many strings does a violin have?", "Which ocean is the deepest?",
];

const KINDS = {
  miss: (i: number) => OTHERS[i],
  exact: stored,
  semantic: reworded,
  bare: stored,
} as const;
type Kind = keyof typeof KINDS;
const kinds = (Object.keys(KINDS) as Kind[]).filter((kind) => !only || only.includes(kind));

interface Result {
  kind: Kind;
  readyMs: number;
  firstMs: number;
  /** Median of the next 20, on the first request's connection. */
  steadyMs: number;
  /** Exact and bare: median of 10 more, each on a connection of its own (connecting included, as in the first). */
  newConnectionMs?: number;
  /** One more, on a new connection, after the server idled IDLE_MS. */
  afterIdleMs: number;
  hits: number;
}

interface Server {
  url: string;
  child: ChildProcess;
  readyMs: number;
}

/** A bare node:http server answering `{}`: what a first request costs with nothing to warm but Node itself. */
const BARE = `const s = require("node:http").createServer((q, r) => { q.resume(); q.on("end", () => r.setHeader("content-type", "application/json").end('{"answer":null}')); });
s.listen(0, "127.0.0.1", () => console.log("listening on http://127.0.0.1:" + s.address().port));`;

async function start(dataDir: string, bare = false): Promise<Server> {
  const started = performance.now();
  const command = bare ? ["-e", BARE] : [BIN, "serve", "-p", "0", "-d", dataDir, "--log-level", "warn"];
  const child = spawn(process.execPath, command, { stdio: ["ignore", "pipe", "ignore"] });
  let out = "";
  const url = await new Promise<string>((resolve, reject) => {
    child.stdout!.on("data", (chunk: Buffer) => {
      out += chunk.toString();
      const match = /listening on (http:\/\/\S+)/.exec(out);
      if (match) resolve(match[1]);
    });
    child.once("exit", (code) => reject(new Error(`semcache serve exited (${code}) before listening`)));
  });
  return { url, child, readyMs: performance.now() - started };
}

async function stop(server: Server): Promise<void> {
  const exited = once(server.child, "exit");
  server.child.kill("SIGTERM");
  await exited;
}

/**
 * POST with node:http (the connection is the caller's choice: a kept-alive one through `agent`, or a new one);
 * the time runs from the request to the whole answer read.
 */
function post(url: string, path: string, body: unknown, agent: Agent): Promise<{ ms: number; json: Record<string, unknown> }> {
  const { hostname, port } = new URL(url);
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const sent = request({ host: hostname, port, path, method: "POST", agent, headers: { "content-type": "application/json" } }, (response) => {
      let text = "";
      response.setEncoding("utf8").on("data", (chunk: string) => (text += chunk));
      response.on("end", () => {
        const ms = performance.now() - started;
        if (response.statusCode !== 200) reject(new Error(`${path} answered ${response.statusCode}: ${text}`));
        else resolve({ ms, json: JSON.parse(text) as Record<string, unknown> });
      });
    });
    sent.on("error", reject);
    sent.end(JSON.stringify(body));
  });
}

/** POST on a connection of its own (opened, used once, closed), as a new client's first request is. */
async function postOnNewConnection(url: string, path: string, body: unknown): Promise<{ ms: number; json: Record<string, unknown> }> {
  const agent = new Agent({ keepAlive: true });
  try {
    return await post(url, path, body, agent);
  } finally {
    agent.destroy();
  }
}

/** Warms this process's own HTTP client (new and kept-alive connections) on a server of its own. */
async function warmClient(): Promise<void> {
  const server = createServer((incoming, response) => {
    incoming.resume();
    incoming.on("end", () => response.end("{}"));
  }).listen(0, "127.0.0.1");
  await once(server, "listening");
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const agent = new Agent({ keepAlive: true });
  for (let i = 0; i < 5; i++) {
    await post(url, "/", {}, agent);
    await postOnNewConnection(url, "/", {});
  }
  agent.destroy();
  server.close();
}


const root = mkdtempSync(join(tmpdir(), "semcache-bench-start-"));
const seed = join(root, "seed");
try {
  await warmClient();
  const seeding = await start(seed);
  const seedAgent = new Agent({ keepAlive: true });
  for (let i = 0; i < STORED; i++) await post(seeding.url, "/put", { prompt: stored(i), answer: `Answer ${i}.` }, seedAgent);
  seedAgent.destroy();
  await stop(seeding);

  const results: Result[] = [];
  for (let round = 0; round < starts; round++) {
    for (const kind of kinds) {
      const dataDir = join(root, `${kind}-${round}`);
      cpSync(seed, dataDir, { recursive: true });
      await warmClient();
      const server = await start(dataDir, kind === "bare");
      const agent = new Agent({ keepAlive: true });
      try {
        if (pauseMs > 0) await new Promise((resolve) => setTimeout(resolve, pauseMs));
        const prompt = KINDS[kind];
        // A client's first request: it opens the connection the next ones reuse.
        const first = await post(server.url, "/get", { prompt: prompt(STORED - 1) }, agent);
        let hits = typeof first.json.answer === "string" ? 1 : 0;
        const steady: number[] = [];
        for (let i = 0; i < STEADY; i++) {
          const next = await post(server.url, "/get", { prompt: prompt(i) }, agent);
          steady.push(next.ms);
          if (typeof next.json.answer === "string") hits++;
        }
        // Only where a repeat costs what a first ask does (an embedded lookup's repeat meets words the judge knows).
        const newConnection: number[] = [];
        if (kind === "exact" || kind === "bare") {
          for (let i = 0; i < NEW_CONNECTIONS; i++) newConnection.push((await postOnNewConnection(server.url, "/get", { prompt: prompt(i) })).ms);
        }
        const newConnectionMs = newConnection.length > 0 ? median(newConnection) : undefined;
        // The same kind of request once more, after the server (and this client) idled: what a first request after
        // a quiet spell costs, start or no start.
        await new Promise((resolve) => setTimeout(resolve, IDLE_MS));
        const afterIdle = await postOnNewConnection(server.url, "/get", { prompt: prompt(STEADY) });
        if (typeof afterIdle.json.answer === "string") hits++;
        const result: Result = { kind, readyMs: server.readyMs, firstMs: first.ms, steadyMs: median(steady), newConnectionMs, afterIdleMs: afterIdle.ms, hits };
        results.push(result);
        console.log(
          `${kind} #${round + 1}: ready ${result.readyMs.toFixed(0)} ms, first ${result.firstMs.toFixed(1)} ms, steady ${result.steadyMs.toFixed(1)} ms ` +
            `(${(result.firstMs / result.steadyMs).toFixed(2)}x), ${newConnectionMs === undefined ? "" : `new connection ${newConnectionMs.toFixed(1)} ms, `}` +
            `after ${IDLE_MS / 1000} s idle ${result.afterIdleMs.toFixed(1)} ms, ${hits}/${STEADY + 2} hits`,
        );
      } finally {
        agent.destroy();
        await stop(server);
        rmSync(dataDir, { recursive: true, force: true });
      }
    }
  }
  const env = environment();
  const ratios = (of: Result[], over: (result: Result) => number) => of.map((result) => `${(result.firstMs / over(result)).toFixed(2)}x`).join(", ");
  console.log(`\n\`npm run build && npx tsx bench/server-start.ts\` on ${env.date.slice(0, 10)}, Node ${env.node}, ${cpus().length} cores\n`);
  console.log(
    table(
      [
        "first /get",
        "first ms",
        "steady ms",
        "first / steady, per start",
        "steady on a new connection ms",
        "first / new connection, per start",
        `after ${IDLE_MS / 1000} s idle, new connection ms`,
        "first / after idle, per start",
        "hits",
      ],
      kinds.map((kind) => {
        const of = results.filter((result) => result.kind === kind);
        return [
          kind,
          median(of.map((result) => result.firstMs)).toFixed(1),
          median(of.map((result) => result.steadyMs)).toFixed(1),
          ratios(of, (result) => result.steadyMs),
          ...(of[0]?.newConnectionMs === undefined
            ? ["-", "-"]
            : [median(of.map((result) => result.newConnectionMs ?? 0)).toFixed(1), ratios(of, (result) => result.newConnectionMs ?? 0)]),
          median(of.map((result) => result.afterIdleMs)).toFixed(1),
          ratios(of, (result) => result.afterIdleMs),
          kind === "bare" ? "-" : `${of.reduce((sum, result) => sum + result.hits, 0)}/${of.length * (STEADY + 2)}`,
        ];
      }),
    ),
  );
  writeJson(join(RESULTS_DIR, "server-start.json"), { environment: env, starts, results });
} finally {
  rmSync(root, { recursive: true, force: true });
}
