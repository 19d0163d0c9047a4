/** Runs a scenario in a fresh Node process, so one scenario's heap never skews another's figures. */
import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const BENCH_DIR = join(fileURLToPath(import.meta.url), "..", "..");

/**
 * Runs bench/<script> with `--expose-gc` (memory figures are taken after a full collection) and `--json
 * <file>`, streams its output, and returns what it wrote to that file.
 */
export async function runScenario<T>(script: string, args: readonly string[]): Promise<T> {
  const dir = mkdtempSync(join(tmpdir(), "semcache-bench-result-"));
  const out = join(dir, "result.json");
  try {
    const child = spawn(process.execPath, ["--expose-gc", "--import", "tsx", join(BENCH_DIR, script), ...args, "--json", out], {
      stdio: "inherit",
    });
    const code = await new Promise<number | null>((resolve, reject) => {
      child.once("error", reject);
      child.once("exit", resolve);
    });
    if (code !== 0) throw new Error(`bench/${script} ${args.join(" ")} exited with ${code}`);
    return JSON.parse(readFileSync(out, "utf8")) as T;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
