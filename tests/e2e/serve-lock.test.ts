import { existsSync, realpathSync } from "node:fs";
import { join } from "node:path";
import { CacheClient } from "../../src/server/client.js";
import { LOCK_FILE } from "../../src/stores/data-dir-lock.js";
import { tempDir } from "../helpers/fixtures.js";
import { runCli, startServer, type CliProcess } from "./cli-process.js";

describe("two `semcache serve` on one data dir", () => {
  const running: CliProcess[] = [];
  const data = tempDir("semcache-e2e-lock-");
  afterAll(async () => {
    for (const cli of running) {
      if (cli.child.exitCode === null && cli.child.signalCode === null) cli.child.kill("SIGKILL");
      await cli.exited;
    }
    data.cleanup();
  });

  it("refuses the second with a clear error (exit 2) while the first keeps serving; after a SIGTERM the dir is free again", async () => {
    const first = await startServer(["-d", data.path]);
    running.push(first);
    const client = new CacheClient(first.url);
    try {
      expect(await client.put("How do I reset my password?", "Use the 'forgot password' link.")).toBe(200);

      const second = await runCli(["serve", "-p", "0", "--log-level", "warn", "-d", data.path]);
      expect(second.code).toBe(2);
      expect(second.stderr).toContain(
        `semcache serve: usearch: the folder ${realpathSync(join(data.path, "usearch"))} is in use by process ${first.child.pid} (since `,
      );
      expect(second.stderr).toContain("Give each process its own data dir; to share entries between processes, use a server store: docs/scaling.md.");
      expect(second.stdout).not.toMatch(/listening/);
      // The CLI commands that open the store in process are refused too (their usage says: stop the server or use --url).
      const stats = await runCli(["stats", "-d", data.path]);
      expect(stats.code).toBe(2);
      expect(stats.stderr).toContain(`is in use by process ${first.child.pid} (since `);

      // The first one is unaffected: it still answers, reworded questions included, and still stores.
      expect(await client.get("How can I reset my password?")).toBe("Use the 'forgot password' link.");
      expect(await client.put("What is the boiling point of water?", "100 °C at sea level.")).toBe(200);
    } finally {
      client.close();
    }
    first.child.kill("SIGTERM");
    expect(await first.exited).toBe(0);
    expect(existsSync(join(data.path, "usearch", LOCK_FILE))).toBe(false); // the graceful stop released the lock

    const next = await startServer(["-d", data.path]);
    running.push(next);
    const again = new CacheClient(next.url);
    try {
      expect(await again.get("How can I reset my password?")).toBe("Use the 'forgot password' link.");
      expect(await again.get("What's the boiling point of water?")).toBe("100 °C at sea level.");
    } finally {
      again.close();
    }
  }, 120_000);
});
