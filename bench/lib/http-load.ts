/**
 * Helpers of the HTTP server benchmarks: a target server in its own process (bench/lib/server-target.ts), and
 * an autocannon load whose latency is taken from each response's own time.
 */
import { spawn } from "node:child_process";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import autocannon from "autocannon";

const TARGET = fileURLToPath(new URL("./server-target.ts", import.meta.url));

export interface RunningTarget {
  url: string;
  stop(): Promise<void>;
}

/** Starts server-target.ts with `args` and resolves with its URL once it listens. */
export async function startTarget(name: string, args: readonly string[]): Promise<RunningTarget> {
  const child = spawn(process.execPath, ["--import", "tsx", TARGET, ...args], { stdio: ["ignore", "pipe", "inherit"] });
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  const lines = createInterface({ input: child.stdout });
  const first = await new Promise<string>((resolve, reject) => {
    lines.once("line", resolve);
    child.once("exit", (code) => reject(new Error(`bench target ${name} exited with ${code} before listening`)));
  });
  const { url } = JSON.parse(first) as { url: string };
  return {
    url,
    stop: async () => {
      child.kill("SIGTERM");
      await exited;
    },
  };
}

/** The value at quantile q (0..1) of ascending-sorted values, nearest rank. */
export function quantile(sorted: Float64Array, q: number): number {
  return sorted.length ? sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)] : Number.NaN;
}

export interface Load {
  result: autocannon.Result;
  /** Milliseconds, of the 2xx responses. */
  p50: number;
  p99: number;
}

/**
 * POSTs `body()` to `path` from `connections` connections for `seconds`. Latency comes from each 2xx response's
 * own time: autocannon's histogram floors to whole milliseconds, too coarse for a 2x comparison near 1 ms.
 */
export async function load(url: string, options: { seconds: number; connections: number; path: string; body: () => string }): Promise<Load> {
  const times: number[] = [];
  const record = (_client: unknown, statusCode: number, _bytes: number, milliseconds: number) => {
    if (statusCode >= 200 && statusCode <= 299) times.push(milliseconds);
  };
  const cannon: autocannon.Options = {
    url,
    connections: options.connections,
    duration: options.seconds,
    requests: [
      {
        method: "POST",
        path: options.path,
        headers: { "content-type": "application/json" },
        setupRequest: (request) => ({ ...request, body: options.body() }),
      },
    ],
  };
  const result = await new Promise<autocannon.Result>((resolve, reject) => {
    autocannon(cannon, (error, result) => (error ? reject(error as Error) : resolve(result))).on("response", record);
  });
  const sorted = Float64Array.from(times).sort();
  return { result, p50: quantile(sorted, 0.5), p99: quantile(sorted, 0.99) };
}
