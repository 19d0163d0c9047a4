/**
 * A server goes on answering while a large /import runs on the embedded default (sqlite,usearch): the rows are
 * written on SQLite's writer thread and the index is built in slices with the event loop turning between them,
 * so lookups (a reworded one, which searches the growing index) are answered before the import is.
 */
import { Cache } from "../../src/index.js";
import { EMBEDDED_DEFAULT_MANAGER, managerFactory } from "../../src/presets/manager-factory.js";
import { DistanceEvaluation } from "../../src/similarity/distance.js";
import { BagOfWordsEmbedding, tempDir } from "../helpers/fixtures.js";
import { serve } from "./helpers.js";

const PAIRS = 6000;

it("answers lookups, reworded ones included, while a large import builds the index", async () => {
  const dir = tempDir();
  const cache = await new Cache().init({
    embeddingFunc: new BagOfWordsEmbedding(),
    dataManager: managerFactory(EMBEDDED_DEFAULT_MANAGER, { dataDir: dir.path }),
    similarityEvaluation: new DistanceEvaluation(),
    config: { similarityThreshold: 0.7 },
  });
  const { post, close } = await serve(cache);
  try {
    await post("/put", { prompt: "tell me a fact about volcanoes", answer: "They erupt." });
    const pairs = Array.from({ length: PAIRS }, (_, i) => ({ question: `imported question ${i} on subject s${i % 97}`, answer: `a${i}` }));
    let importDone = false;
    const importing = post("/import", { pairs }).finally(() => (importDone = true));

    const answeredDuringImport: unknown[] = [];
    try {
      while (!importDone) {
        const answer = (await post("/get", { prompt: "please tell me a fact about volcanoes" })).json().answer;
        if (!importDone) answeredDuringImport.push(answer);
      }
    } finally {
      // A lookup that threw leaves the import to finish before the server closes.
      await importing.catch(() => undefined);
    }
    const response = await importing;

    expect([response.statusCode, response.json()]).toEqual([200, { imported: PAIRS }]);
    expect(answeredDuringImport.length).toBeGreaterThanOrEqual(2);
    expect(new Set(answeredDuringImport)).toEqual(new Set(["They erupt."]));
    expect((await post("/get", { prompt: `imported question ${PAIRS - 1} on subject s${(PAIRS - 1) % 97}` })).json().answer).toBe(`a${PAIRS - 1}`);
  } finally {
    await close();
    dir.cleanup();
  }
}, 60_000);
