import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { SqliteScalarStore } from "../../src/stores/scalar/sqlite.js";

const CHILD = fileURLToPath(new URL("../fixtures/sqlite-insert-child.ts", import.meta.url));
const ROOT = fileURLToPath(new URL("../..", import.meta.url));
const KILL_AFTER = 500;

/** Runs the child until it has acknowledged KILL_AFTER inserts, SIGKILLs it, and returns what it acknowledged. */
function insertUntilKilled(path: string): Promise<{ acknowledged: Map<number, number>; signal: NodeJS.Signals | null }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ["--import", "tsx", CHILD, path], { cwd: ROOT, stdio: ["ignore", "pipe", "pipe"] });
    const acknowledged = new Map<number, number>();
    let pending = "";
    let stderr = "";
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    child.stdout.on("data", (chunk: Buffer) => {
      const lines = (pending + chunk.toString()).split("\n");
      pending = lines.pop() ?? "";
      for (const line of lines) {
        const [id, i] = line.split(" ").map(Number);
        acknowledged.set(id, i);
      }
      if (acknowledged.size >= KILL_AFTER) child.kill("SIGKILL");
    });
    child.on("error", reject);
    child.on("exit", (code, signal) => {
      if (acknowledged.size < KILL_AFTER) reject(new Error(`child exited early (code ${code}): ${stderr}`));
      else resolve({ acknowledged, signal });
    });
  });
}

describe("SqliteScalarStore durability", () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), "semcache-crash-"));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it("keeps every acknowledged insert when the writing process is SIGKILLed mid-stream", async () => {
    const path = join(dir, "cache.db");
    const { acknowledged, signal } = await insertUntilKilled(path);
    expect(signal).toBe("SIGKILL");

    const store = new SqliteScalarStore({ path });
    await store.init();
    try {
      const missing: number[] = [];
      for (const [id, i] of acknowledged) {
        const record = await store.get(id);
        if (record?.question !== `question ${i}` || record.embedding?.[1] !== i + 1) missing.push(id);
      }
      expect(missing).toEqual([]);
      expect(await store.count()).toBeGreaterThanOrEqual(acknowledged.size);
    } finally {
      await store.close();
    }
  });
});
