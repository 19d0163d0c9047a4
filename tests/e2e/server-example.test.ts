import { runCli } from "./cli-process.js";
import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));
const EXAMPLE = fileURLToPath(new URL("../../examples/server-proxy.ts", import.meta.url));

describe("examples/server-proxy.ts", () => {
  it("runs against the local fake upstream and prints what the server answered", async () => {
    const env = { ...process.env };
    delete env.OPENAI_API_KEY;
    const child = spawn(process.execPath, ["--import", "tsx", EXAMPLE], { cwd: ROOT, env, stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk: Buffer) => (stdout += chunk));
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk));
    const code = await new Promise((resolve) => child.on("close", resolve));
    expect({ code, stderr }).toEqual({ code: 0, stderr: "" });
    expect(stdout).toMatch(/^put: 200$/m);
    expect(stdout).toMatch(/^get, same words: Use the 'forgot password' link/m);
    expect(stdout).toMatch(/^get, other words: Use the 'forgot password' link/m);
    expect(stdout).toMatch(/^get, another question: null$/m);
    expect(stdout).toMatch(/^"What is the capital of France\?": MISS: /m);
    expect(stdout).toMatch(/^"What is the capital of France\?": HIT \(score 1\.0000\): /m);
    expect(stdout).toMatch(/^upstream calls: [12]$/m);
  }, 60_000);

  it("the semcache command lists its commands", async () => {
    const help = await runCli(["--help"]);
    expect(help.code).toBe(0);
    for (const command of ["serve", "import", "export", "stats", "tune"]) expect(help.stdout).toMatch(new RegExp(`^ {2}${command} `, "m"));
  }, 30_000);
});
