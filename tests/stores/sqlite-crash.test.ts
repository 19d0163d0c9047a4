import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { SqliteScalarStore } from "../../src/stores/scalar/sqlite.js";
import { runUntilKilled } from "../helpers/run-until-killed.js";
import { tempDirEachTest } from "../helpers/fixtures.js";

const CHILD = fileURLToPath(new URL("../fixtures/sqlite-insert-child.ts", import.meta.url));
const KILL_AFTER = 500;

describe("SqliteScalarStore durability", () => {
  const temp = tempDirEachTest("semcache-crash-");

  it("keeps every acknowledged insert when the writing process is SIGKILLed mid-stream", async () => {
    const path = join(temp.path, "cache.db");
    const { lines, signal } = await runUntilKilled(CHILD, [path], KILL_AFTER);
    const acknowledged = new Map(lines.map((line) => line.split(" ").map(Number) as [number, number]));
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
