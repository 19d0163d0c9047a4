/**
 * The embedded default's index was hnswlib before it was usearch. A data dir written then opens with the new
 * default: its usearch index starts empty and is rebuilt from the SQLite rows, so every entry still answers.
 */
import { existsSync } from "node:fs";
import { join } from "node:path";
import { Cache, DistanceEvaluation, get, managerFactory, put } from "../../src/index.js";
import { EMBEDDED_DEFAULT_MANAGER } from "../../src/presets/manager-factory.js";
import { BagOfWordsEmbedding, tempDir } from "../helpers/fixtures.js";

const PAIRS = [
  ["how do I reset my router password", "Hold the reset button for ten seconds."],
  ["what is the boiling point of water at sea level", "100 degrees Celsius."],
  ["which planet is the largest in the solar system", "Jupiter."],
] as const;

async function open(dataDir: string, kinds?: string): Promise<Cache> {
  return new Cache().init({
    embeddingFunc: new BagOfWordsEmbedding(),
    dataManager: managerFactory(kinds, { dataDir }),
    similarityEvaluation: new DistanceEvaluation(),
    config: { similarityThreshold: 0.7 },
  });
}

describe("a data dir from the hnswlib default", () => {
  const dir = tempDir("semcache-upgrade-");
  afterAll(() => dir.cleanup());

  it("opens with the usearch default, which rebuilds its index from the stored rows", async () => {
    expect(EMBEDDED_DEFAULT_MANAGER).toBe("sqlite,usearch");
    const before = await open(dir.path, "sqlite,hnswlib");
    for (const [question, answer] of PAIRS) await put(question, answer, { cacheObj: before });
    expect(await get("how do I reset the password of my router", { cacheObj: before })).toBe(PAIRS[0][1]);
    await before.close();

    const after = await open(dir.path);
    expect(after.dataManager.vector?.kind).toBe("usearch");
    expect(await after.dataManager.vector?.count()).toBe(PAIRS.length);
    // Reworded (not the stored key), so the answer comes through the vector search.
    expect(await get("how do I reset the password of my router", { cacheObj: after })).toBe(PAIRS[0][1]);
    expect(await get("which planet is the largest one in the solar system", { cacheObj: after })).toBe(PAIRS[2][1]);
    await after.close();
    expect(existsSync(join(dir.path, "usearch", "manifest.json"))).toBe(true);
  });
});
