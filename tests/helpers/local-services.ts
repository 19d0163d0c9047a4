/**
 * Servers that run on this machine from npm packages (see /work/shared/LOCAL-SERVICES.md), started on free
 * loopback ports by tests and benchmarks and stopped by them.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { createServer, type AddressInfo } from "node:net";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = join(fileURLToPath(import.meta.url), "..", "..", "..");

/** A loopback port nothing listens on (just released by the OS). */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

async function waitFor(check: () => Promise<boolean>, what: string, timeoutMs: number, child: ChildProcess, output: () => string): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`${what} exited with ${child.exitCode}:\n${output()}`);
    if (await check().catch(() => false)) return;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  child.kill("SIGKILL");
  throw new Error(`${what} did not answer within ${timeoutMs} ms:\n${output()}`);
}

export interface ChromaServer {
  url: string;
  port: number;
  /** Stops the server (its data stays in the folder). */
  stop(): Promise<void>;
}

/**
 * The Chroma server bundled with the chromadb package (`chroma run`), persisting into `path`. It needs the glibc
 * 2.34 build of its native binding (package.json pins it with an override).
 */
export async function startChromaServer(path: string, port?: number): Promise<ChromaServer> {
  const listenPort = port ?? (await freePort());
  const child = spawn(
    process.execPath,
    [join(ROOT, "node_modules", "chromadb", "dist", "cli.mjs"), "run", "--path", path, "--host", "127.0.0.1", "--port", String(listenPort)],
    { stdio: ["ignore", "pipe", "pipe"] },
  );
  let output = "";
  child.stdout!.on("data", (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on("data", (chunk: Buffer) => (output += chunk.toString()));
  const url = `http://127.0.0.1:${listenPort}`;
  await waitFor(async () => (await fetch(`${url}/api/v2/heartbeat`)).ok, "chroma run", 60_000, child, () => output);
  return {
    url,
    port: listenPort,
    async stop() {
      if (child.exitCode !== null) return;
      const exited = new Promise((resolve) => child.once("exit", resolve));
      child.kill("SIGTERM");
      const timer = setTimeout(() => child.kill("SIGKILL"), 5000);
      await exited;
      clearTimeout(timer);
    },
  };
}

export interface S3Server {
  endpoint: string;
  port: number;
  /** Static credentials s3rver accepts. */
  credentials: { accessKeyId: string; secretAccessKey: string };
  stop(): Promise<void>;
}

/** s3rver (an S3 emulator on the local disk) in this process, keeping its buckets in `directory`. */
export async function startS3Server(directory: string, port = 0): Promise<S3Server> {
  const { default: S3rver } = await import("s3rver");
  const server = new S3rver({ directory, address: "127.0.0.1", port, silent: true });
  const address = (await server.run()) as AddressInfo;
  return {
    endpoint: `http://127.0.0.1:${address.port}`,
    port: address.port,
    credentials: { accessKeyId: "S3RVER", secretAccessKey: "S3RVER" },
    stop: () => server.close(),
  };
}
