import { Cache } from "../../src/presets/cache.js";
import { StringEmbedding } from "../../src/embeddings/string.js";
import { ExactMatchEvaluation } from "../../src/similarity/exact-match.js";
import { ValidationError } from "../../src/core/errors.js";

/** A component that says it was written against contract version `version`. */
function claiming<T extends object>(component: T, version: string): T {
  return Object.assign(component, { specificationVersion: version });
}

describe("the kernel checks the contract version of the components it is given", () => {
  it("refuses an evaluation written against an unknown version, naming it", async () => {
    const init = new Cache().init({ similarityEvaluation: claiming(new ExactMatchEvaluation(), "v2") });
    await expect(init).rejects.toBeInstanceOf(ValidationError);
    await expect(new Cache().init({ similarityEvaluation: claiming(new ExactMatchEvaluation(), "v2") })).rejects.toThrow(
      /"ExactMatchEvaluation" similarity evaluation implements contract v2; this version of langchain-semcache implements v1/,
    );
  });

  it("refuses an embedding written against an unknown version", async () => {
    await expect(new Cache().init({ embeddingFunc: claiming(new StringEmbedding(), "v9") })).rejects.toThrow(/"StringEmbedding" embedding implements contract v9/);
  });

  it("takes components that say v1 or nothing", async () => {
    const cache = await new Cache().init({ embeddingFunc: claiming(new StringEmbedding(), "v1"), similarityEvaluation: new ExactMatchEvaluation() });
    expect(cache.initialized).toBe(true);
    await cache.close();
  });
});
