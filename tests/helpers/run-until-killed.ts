import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));

/**
 * Runs a TypeScript child script that prints one acknowledgement line per durable write, SIGKILLs it once it
 * has acknowledged `killAfter` lines, and returns those lines and the signal that ended it.
 */
export function runUntilKilled(script: string, args: string[], killAfter: number): Promise<{ lines: string[]; signal: NodeJS.Signals | null }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ["--import", "tsx", script, ...args], { cwd: ROOT, stdio: ["ignore", "pipe", "pipe"] });
    const lines: string[] = [];
    let pending = "";
    let stderr = "";
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    child.stdout.on("data", (chunk: Buffer) => {
      const parts = (pending + chunk.toString()).split("\n");
      pending = parts.pop() ?? "";
      lines.push(...parts);
      if (lines.length >= killAfter) child.kill("SIGKILL");
    });
    child.on("error", reject);
    child.on("exit", (code, signal) => {
      if (lines.length < killAfter) reject(new Error(`child exited early (code ${code}): ${stderr}`));
      else resolve({ lines, signal });
    });
  });
}
