/**
 * The package as a user meets it: `npm pack`, then a plain `npm install` (or `pnpm add`, pnpm 10: no flags, no
 * .npmrc of the app's own) of the tarball and the user's other packages into a new app outside this
 * repository, from the registry.
 */
import { execFile } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { fileURLToPath } from "node:url";

const run = promisify(execFile);
const ROOT = fileURLToPath(new URL("../..", import.meta.url));
const BUFFER_BYTES = 64 * 1024 * 1024;

/** What a LangChain user installs next to this package. */
export const LANGCHAIN_PACKAGES = ["@langchain/core", "@langchain/openai", "langchain"];

export interface FreshApp {
  dir: string;
  /** Wall time of the install. */
  installMs: number;
  /** Runs a command in the app; resolves with its stdout, rejects (with its stderr) on a non-zero exit. */
  exec(command: string, args: string[], env?: NodeJS.ProcessEnv): Promise<string>;
  /** The same, resolving with stdout and stderr. */
  execOutput(command: string, args: string[], env?: NodeJS.ProcessEnv): Promise<{ stdout: string; stderr: string }>;
  cleanup(): void;
}

/** Packs this repository (its prepack rebuilds dist/) into `destination`; the tarball's path. */
export async function packPackage(destination: string): Promise<string> {
  const { stdout } = await run("npm", ["pack", "--json", "--pack-destination", destination], { cwd: ROOT, maxBuffer: BUFFER_BYTES });
  const [pack] = JSON.parse(stdout.slice(stdout.indexOf("["))) as Array<{ filename: string }>;
  return join(destination, pack.filename);
}

/** The install commands: npm's own, and pnpm 10 (fetched by npx from the registry), each with no flags. */
const INSTALLERS = {
  npm: (packages: string[]) => ["npm", ["install", "--no-audit", "--no-fund", ...packages]],
  pnpm: (packages: string[]) => ["npx", ["-y", "pnpm@10", "add", ...packages]],
} as const satisfies Record<string, (packages: string[]) => [string, string[]]>;

/** A new app (ES module package.json) with `packages` installed by one plain `npm install` (or `pnpm add`). */
export async function installFreshApp(packages: string[], installer: keyof typeof INSTALLERS = "npm"): Promise<FreshApp> {
  const dir = mkdtempSync(join(tmpdir(), "semcache-fresh-app-"));
  writeFileSync(join(dir, "package.json"), `${JSON.stringify({ name: "fresh-app", private: true, type: "module" }, null, 2)}\n`);
  const execOutput = async (command: string, args: string[], env: NodeJS.ProcessEnv = {}) => {
    try {
      return await run(command, args, { cwd: dir, env: { ...process.env, ...env }, maxBuffer: BUFFER_BYTES });
    } catch (error) {
      const { stdout, stderr } = error as { stdout?: string; stderr?: string };
      throw new Error(`${command} ${args.join(" ")} failed in ${dir}:\n${stdout ?? ""}\n${stderr ?? ""}`, { cause: error });
    }
  };
  const exec = async (command: string, args: string[], env?: NodeJS.ProcessEnv) => (await execOutput(command, args, env)).stdout;
  const started = performance.now();
  try {
    const [command, args] = INSTALLERS[installer](packages);
    await exec(command, args);
  } catch (error) {
    rmSync(dir, { recursive: true, force: true });
    throw error;
  }
  return { dir, installMs: performance.now() - started, exec, execOutput, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

/** Bytes under a folder (`du`, counting each hard-linked file once). */
export async function folderBytes(path: string): Promise<number> {
  const { stdout } = await run("du", ["-sb", path]);
  return Number(stdout.split("\t")[0]);
}
