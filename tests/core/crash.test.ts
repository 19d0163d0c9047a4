import { fileURLToPath } from "node:url";
import { Cache, DistanceEvaluation, get, managerFactory } from "../../src/index.js";
import { BagOfWordsEmbedding, tempDir } from "../helpers/fixtures.js";
import { runUntilKilled } from "../helpers/run-until-killed.js";

const CHILD = fileURLToPath(new URL("../fixtures/put-child.ts", import.meta.url));

describe("durability of the embedded default", () => {
  it("a put acknowledged before SIGKILL is a hit after restart, exact and semantic", async () => {
    const dir = tempDir();
    const { lines, signal } = await runUntilKilled(CHILD, [dir.path], 120);
    expect(signal).toBe("SIGKILL");

    const cache = await new Cache().init({
      embeddingFunc: new BagOfWordsEmbedding(),
      dataManager: managerFactory("sqlite,hnswlib", { dataDir: dir.path }),
      similarityEvaluation: new DistanceEvaluation(),
    });
    try {
      const lost: string[] = [];
      for (const i of lines) {
        if ((await get(`tell me fact number ${i} about volcanoes`, { cacheObj: cache })) !== `fact ${i}`) lost.push(i);
      }
      expect(lost).toEqual([]);
      // The index file lags the rows (it is saved once it falls 1,000 vectors behind, or on close): the cache
      // rebuilt it from the rows on start, so semantic hits work too.
      const last = lines[lines.length - 1];
      expect(await get(`please tell me fact number ${last} about volcanoes`, { cacheObj: cache })).toBe(`fact ${last}`);
    } finally {
      await cache.close();
      dir.cleanup();
    }
  });
});
