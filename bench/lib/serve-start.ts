/**
 * One start of a `semcache serve` command: the time until it prints its listening line, its first /get (a
 * miss: the model embeds a new question), and the median of 20 more misses after it.
 */
import { spawn } from "node:child_process";
import { once } from "node:events";
import { mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";

export interface ServeStart {
  readyMs: number;
  firstMs: number;
  steadyMedianMs: number;
}

const STEADY_REQUESTS = 20;

async function timedGet(url: string, prompt: string): Promise<number> {
  const started = performance.now();
  const response = await fetch(`${url}/get`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ prompt }) });
  await response.json();
  return performance.now() - started;
}

/** Warms this process's own HTTP client on a server of its own, so the first request timed costs the server's first. */
async function warmClient(): Promise<void> {
  const server = createServer((_request, response) => response.end("{}")).listen(0, "127.0.0.1");
  await once(server, "listening");
  const { port } = server.address() as AddressInfo;
  for (let i = 0; i < 3; i++) await (await fetch(`http://127.0.0.1:${port}/`, { method: "POST", body: "{}" })).text();
  server.close();
}

export async function measureServeStart(bin: string, cwd: string): Promise<ServeStart> {
  await warmClient();
  const dataDir = mkdtempSync(join(tmpdir(), "semcache-bench-serve-"));
  const started = performance.now();
  const child = spawn(bin, ["serve", "-p", "0", "-d", dataDir, "--log-level", "warn"], { cwd, stdio: ["ignore", "pipe", "ignore"] });
  try {
    let out = "";
    const url = await new Promise<string>((resolve, reject) => {
      child.stdout.on("data", (chunk: Buffer) => {
        out += chunk.toString();
        const match = /listening on (http:\/\/\S+)/.exec(out);
        if (match) resolve(match[1]);
      });
      child.once("exit", (code) => reject(new Error(`semcache serve exited (${code}) before listening`)));
    });
    const readyMs = performance.now() - started;
    const firstMs = await timedGet(url, "How do I bake sourdough bread at home?");
    const steady: number[] = [];
    for (let i = 0; i < STEADY_REQUESTS; i++) steady.push(await timedGet(url, `How long should question number ${i} about gardening take to answer?`));
    steady.sort((a, b) => a - b);
    return { readyMs, firstMs, steadyMedianMs: steady[STEADY_REQUESTS / 2] };
  } finally {
    child.kill("SIGTERM");
    await new Promise((resolve) => (child.exitCode === null ? child.once("exit", resolve) : resolve(undefined)));
    rmSync(dataDir, { recursive: true, force: true });
  }
}
