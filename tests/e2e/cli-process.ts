import { spawn, type ChildProcess } from "node:child_process";
import { fileURLToPath } from "node:url";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));
const CLI = fileURLToPath(new URL("../../src/cli/index.ts", import.meta.url));

/** A `semcache` process, its output collected. */
export interface CliProcess {
  child: ChildProcess;
  stdout(): string;
  stderr(): string;
  /** Resolves with the exit code (or the signal's name). */
  exited: Promise<number | string>;
}

/** `semcache` started from the sources. */
export function startCli(args: string[], env: NodeJS.ProcessEnv = {}): CliProcess {
  return startProcess(process.execPath, ["--import", "tsx", CLI, ...args], ROOT, env);
}

/** Any command, its output collected. */
export function startProcess(command: string, args: string[], cwd: string, env: NodeJS.ProcessEnv = {}): CliProcess {
  const child = spawn(command, args, { cwd, stdio: ["ignore", "pipe", "pipe"], env: { ...process.env, ...env } });
  let stdout = "";
  let stderr = "";
  child.stdout?.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr?.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<number | string>((resolve) => child.on("exit", (code, signal) => resolve(code ?? signal ?? -1)));
  return { child, stdout: () => stdout, stderr: () => stderr, exited };
}

/** Runs a command to its end. */
export async function runCli(args: string[], env: NodeJS.ProcessEnv = {}): Promise<{ code: number | string; stdout: string; stderr: string }> {
  const cli = startCli(args, env);
  const code = await cli.exited;
  return { code, stdout: cli.stdout(), stderr: cli.stderr() };
}

/** `semcache serve -p 0 ...`: resolves with the base URL it printed once listening. */
export async function startServer(args: string[], env: NodeJS.ProcessEnv = {}): Promise<CliProcess & { url: string }> {
  const cli = startCli(["serve", "-p", "0", "--log-level", "warn", ...args], env);
  return { ...cli, url: await listeningUrl(cli) };
}

/** The base URL a starting `semcache serve` prints once it listens; rejects if it exits first. */
export function listeningUrl(cli: CliProcess): Promise<string> {
  return new Promise<string>((resolve, reject) => {
    const check = () => {
      const match = /semcache listening on (http:\/\/\S+)/.exec(cli.stdout());
      if (match) resolve(match[1]);
    };
    cli.child.stdout?.on("data", check);
    void cli.exited.then((code) => reject(new Error(`semcache serve exited (${code}) before listening: ${cli.stderr()}`)));
  });
}
