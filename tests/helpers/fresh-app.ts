/**
 * The package as a user meets it: `npm pack`, then a plain `npm install` (no flags, no .npmrc of the app's
 * own) of the tarball and the user's other packages into a new app outside this repository, from the registry.
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
  /** Wall time of the `npm install`. */
  installMs: number;
  /** Runs a command in the app; resolves with its stdout, rejects (with its stderr) on a non-zero exit. */
  exec(command: string, args: string[], env?: NodeJS.ProcessEnv): Promise<string>;
  cleanup(): void;
}

/** Packs this repository (its prepack rebuilds dist/) into `destination`; the tarball's path. */
export async function packPackage(destination: string): Promise<string> {
  const { stdout } = await run("npm", ["pack", "--json", "--pack-destination", destination], { cwd: ROOT, maxBuffer: BUFFER_BYTES });
  const [pack] = JSON.parse(stdout.slice(stdout.indexOf("["))) as Array<{ filename: string }>;
  return join(destination, pack.filename);
}

/** A new app (ES module package.json) with `packages` installed by one plain `npm install`. */
export async function installFreshApp(packages: string[]): Promise<FreshApp> {
  const dir = mkdtempSync(join(tmpdir(), "semcache-fresh-app-"));
  writeFileSync(join(dir, "package.json"), `${JSON.stringify({ name: "fresh-app", private: true, type: "module" }, null, 2)}\n`);
  const exec = async (command: string, args: string[], env: NodeJS.ProcessEnv = {}) => {
    try {
      return (await run(command, args, { cwd: dir, env: { ...process.env, ...env }, maxBuffer: BUFFER_BYTES })).stdout;
    } catch (error) {
      const { stdout, stderr } = error as { stdout?: string; stderr?: string };
      throw new Error(`${command} ${args.join(" ")} failed in ${dir}:\n${stdout ?? ""}\n${stderr ?? ""}`, { cause: error });
    }
  };
  const started = performance.now();
  try {
    await exec("npm", ["install", "--no-audit", "--no-fund", ...packages]);
  } catch (error) {
    rmSync(dir, { recursive: true, force: true });
    throw error;
  }
  return { dir, installMs: performance.now() - started, exec, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

/** Bytes under a folder (`du`, counting each hard-linked file once). */
export async function folderBytes(path: string): Promise<number> {
  const { stdout } = await run("du", ["-sb", path]);
  return Number(stdout.split("\t")[0]);
}
