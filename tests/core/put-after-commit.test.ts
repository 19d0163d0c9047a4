/**
 * A put is failed only when nothing was stored: once the entry is saved, a later step that fails (here the
 * auto flush, unable to write the map file) is counted and handed to onError, and the put resolves. Thrown,
 * it made the caller retry and store the answer twice.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { Cache, MapDataManager, StoreError, get, put } from "../../src/index.js";
import { tempDir } from "../helpers/fixtures.js";

describe("put whose auto flush fails after the entry is stored", () => {
  it("resolves, stores the answer once, and reports the flush fault", async () => {
    const dir = tempDir();
    const errors: Error[] = [];
    const cache = await new Cache().init({
      dataManager: new MapDataManager({ dataDir: dir.path }),
      config: { autoFlush: 1 },
      onError: (error) => errors.push(error),
    });
    try {
      // A non-empty folder where the flush writes its temporary file: the write fails with a real I/O error, as on
      // a full disk (permissions would not stop root).
      const temp = join(dir.path, `data_map.json.${process.pid}.tmp`);
      mkdirSync(temp);
      writeFileSync(join(temp, "blocker"), "x");

      await expect(put("how do tides work", "the moon", { cacheObj: cache })).resolves.toBeUndefined();

      expect(await cache.dataManager.count()).toBe(1);
      expect(await get("how do tides work", { cacheObj: cache })).toBe("the moon");
      expect(cache.report.errors).toBe(1);
      expect(errors).toHaveLength(1);
      expect(StoreError.isInstance(errors[0])).toBe(true);
    } finally {
      await cache.close().catch(() => undefined);
      dir.cleanup();
    }
  });
});
