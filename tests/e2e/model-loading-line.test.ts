/**
 * What an in-process user sees while the offline model loads: `new SemanticCache()` says so once per process
 * (the first use pauses ~1 s), through the package's console warnings; `onProgress` takes the lines or silences
 * them. A process of its own, so "once per process" is what is tested.
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { tempDir } from "../helpers/fixtures.js";
import { startProcess } from "./cli-process.js";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));
const SEMANTIC_CACHE = fileURLToPath(new URL("../../src/langchain/index.ts", import.meta.url));

/** Looks a question up in each cache in turn (each builds its own cache, loading the model on first use), then prints what `onProgress` got. */
const SCRIPT = `
import { SemanticCache } from ${JSON.stringify(SEMANTIC_CACHE)};
const told = [];
const caches = [
  new SemanticCache({ onProgress: false }),
  new SemanticCache({ onProgress: (message) => told.push(message) }),
  new SemanticCache(),
  new SemanticCache(),
];
for (const cache of caches) {
  await cache.lookup("What is the capital of France?", "llm");
  await cache.close();
}
const refused = [];
for (const options of [{ onProgress: "yes" }, { cache: async () => caches[0], onProgress: false }]) {
  try {
    new SemanticCache(options);
  } catch (error) {
    refused.push(error.message);
  }
}
console.log(JSON.stringify({ told, refused }));
`;

describe("new SemanticCache() and its model loading", () => {
  it("says the model is loading and how long it took once per process; onProgress takes the lines, or false silences them (checked)", async () => {
    const dir = tempDir("semcache-loading-");
    const script = join(dir.path, "loading.mjs");
    writeFileSync(script, SCRIPT);
    const child = startProcess(process.execPath, ["--import", "tsx", script], ROOT);
    try {
      expect(await child.exited).toBe(0);
    } finally {
      dir.cleanup();
    }
    const { told, refused } = JSON.parse(child.stdout()) as { told: string[]; refused: string[] };
    expect(refused).toEqual([expect.stringMatching(/`onProgress` must be a function/), expect.stringMatching(/`onProgress` set up its own cache/)]);
    expect(told).toEqual([expect.stringMatching(/^loading the embedding model \(UniversalSentenceEncoderEmbeddings\)$/), expect.stringMatching(/^embedding model ready in \d+ ms$/)]);
    const ours = child.stderr().split("\n").filter((line) => line.startsWith("[langchain-semcache]"));
    expect(ours).toEqual([
      "[langchain-semcache] loading the embedding model (UniversalSentenceEncoderEmbeddings)",
      expect.stringMatching(/^\[langchain-semcache\] embedding model ready in \d+ ms$/),
    ]);
  }, 60_000);
});
