import { join } from "node:path";
import {
  Cache,
  Config,
  DEFAULT_GUARD_THRESHOLD,
  DEFAULT_PRESET_THRESHOLD,
  DistanceEvaluation,
  ExactMatchEvaluation,
  PrecisionGuardEvaluation,
  UnambiguousEvaluation,
  ValidationError,
  get,
  put,
} from "../../src/index.js";
import { DEFAULT_SIMILAR_THRESHOLD, initSimilarCache } from "../../src/presets/similar-cache.js";
import type { LangChainEmbeddingFunction } from "../../src/core/embedding-source.js";
import { UniversalSentenceEncoderEmbeddings } from "../../src/embeddings/use.js";
import { tempDir } from "../helpers/fixtures.js";

describe("initSimilarCache (offline semantic preset)", () => {
  let dir: ReturnType<typeof tempDir>;
  const embedding = new UniversalSentenceEncoderEmbeddings();

  beforeEach(() => {
    dir = tempDir();
  });
  afterEach(() => dir.cleanup());

  it("answers a paraphrase, misses an unrelated question, and still hits after a restart (cosine judge)", async () => {
    const cosine = new DistanceEvaluation();
    const first = await initSimilarCache({ cache: new Cache(), dataDir: dir.path, embedding, evaluation: cosine });
    expect(first.config.similarityThreshold).toBe(DEFAULT_SIMILAR_THRESHOLD);
    expect(first.similarityEvaluation).toBe(cosine);
    expect(first.embeddingFunc.dimension).toBe(512);
    await put("How can I lose weight quickly?", "Eat less, move more.", { cacheObj: first });
    expect(await get("What is the fastest way to lose weight?", { cacheObj: first })).toBe("Eat less, move more.");
    expect(await get("Which programming language should I learn first?", { cacheObj: first })).toBeNull();
    await first.close();

    const second = await initSimilarCache({ cache: new Cache(), dataDir: dir.path, embedding, evaluation: cosine });
    expect(await get("What is the quickest way to lose weight?", { cacheObj: second })).toBe("Eat less, move more.");
    await second.close();
  });

  it("judges with the preset for any Universal Sentence Encoder (its cosines), and with the cosine for another embedding", async () => {
    const use = await initSimilarCache({ cache: new Cache(), dataDir: dir.path, embedding });
    expect(use.similarityEvaluation).toBeInstanceOf(UnambiguousEvaluation);
    expect(use.config.similarityThreshold).toBe(DEFAULT_PRESET_THRESHOLD);
    await use.close();

    const other = await initSimilarCache({ cache: new Cache(), dataDir: join(dir.path, "other"), embedding: (text) => [text.length, 1] });
    expect(other.similarityEvaluation).toBeInstanceOf(DistanceEvaluation);
    expect(other.config.similarityThreshold).toBe(DEFAULT_SIMILAR_THRESHOLD);
    await other.close();
  });

  it("resolves once the embedding has embedded one text (the probe that learns the dimension counts), and tells onProgress", async () => {
    const texts: string[] = [];
    const known = { dimension: 2, embed: async (text: unknown) => (texts.push(String(text)), Float32Array.of(1, 0)) };
    const messages: string[] = [];
    const c = await initSimilarCache({ cache: new Cache(), dataDir: dir.path, embedding: known, onProgress: (message) => messages.push(message) });
    expect(texts).toHaveLength(1);
    expect(messages).toEqual([expect.stringMatching(/^loading the embedding model \(embedding\)$/), expect.stringMatching(/^embedding model ready in \d+ ms$/)]);
    await c.close();

    texts.length = 0;
    const lazy = await initSimilarCache({ cache: new Cache(), dataDir: dir.path, embedding: known, warmUp: false, onProgress: (message) => messages.push(message) });
    expect(texts).toHaveLength(0);
    expect(messages).toHaveLength(2);
    await lazy.close();

    texts.length = 0;
    const probed = await initSimilarCache({ cache: new Cache(), dataDir: join(dir.path, "probed"), embedding: async function byLength(text) { texts.push(String(text)); return [1, 0, 0]; } });
    expect(texts).toHaveLength(1);
    expect(probed.embeddingFunc.dimension).toBe(3);
    await probed.close();
  });

  it("uses the default model, the global cache and the default threshold when given nothing but a dataDir", async () => {
    const { cache } = await import("../../src/index.js");
    const result = await initSimilarCache({ dataDir: dir.path });
    expect(result).toBe(cache);
    expect(result.embeddingFunc.dimension).toBe(512);
    // The model (on its worker thread) has embedded the warm-up text: no request pays for loading it.
    expect((result.embeddingFunc as LangChainEmbeddingFunction).embeddings).toMatchObject({ worker: true, stats: { texts: 1 } });
    expect(result.similarityEvaluation).toBeInstanceOf(UnambiguousEvaluation);
    const judge = result.similarityEvaluation as UnambiguousEvaluation;
    expect(judge.inner).toBeInstanceOf(PrecisionGuardEvaluation);
    expect((judge.inner as PrecisionGuardEvaluation).cosineWeight).toBe(0.5);
    expect(result.config.similarityThreshold).toBe(DEFAULT_PRESET_THRESHOLD);
    await put("How do I reset my password?", "Use the link on the sign-in page.");
    expect(await get("How can I reset my password?")).toBe("Use the link on the sign-in page.");
    expect(await get("How do I reset my router?")).toBeNull();
    await cache.close();

    // The guard on its own keeps the threshold picked for it.
    const guarded = await initSimilarCache({ cache: new Cache(), dataDir: dir.path, evaluation: new PrecisionGuardEvaluation() });
    expect(guarded.config.similarityThreshold).toBe(DEFAULT_GUARD_THRESHOLD);
    await guarded.close();
  });

  it("takes the threshold, evaluation and config it is given", async () => {
    const exact = new ExactMatchEvaluation();
    const c = await initSimilarCache({ cache: new Cache(), dataDir: dir.path, embedding, threshold: 0.99, evaluation: exact, config: { topK: 2 } });
    expect(c.config.similarityThreshold).toBe(0.99);
    expect(c.config.topK).toBe(2);
    expect(c.similarityEvaluation).toBe(exact);
    await put("How can I lose weight quickly?", "Eat less.", { cacheObj: c });
    expect(await get("What is the fastest way to lose weight?", { cacheObj: c })).toBeNull();
    await c.close();

    const config = new Config({ similarityThreshold: 0.5 });
    const kept = await initSimilarCache({ cache: new Cache(), dataDir: dir.path, embedding, config });
    expect(kept.config).toBe(config);
    await kept.close();

    const overridden = await initSimilarCache({ cache: new Cache(), dataDir: dir.path, embedding, config, threshold: 0.7 });
    expect(overridden.config.similarityThreshold).toBe(0.7);
    expect(overridden.config.partitionKeys).toEqual(config.partitionKeys);
    await overridden.close();
  });

  it("evicts above maxSize", async () => {
    const c = await initSimilarCache({ cache: new Cache(), dataDir: dir.path, embedding, maxSize: 2, cleanSize: 1, eviction: "FIFO" });
    await put("first question about cooking pasta", "a1", { cacheObj: c });
    await put("second question about tax returns", "a2", { cacheObj: c });
    await put("third question about mountain hiking", "a3", { cacheObj: c });
    await c.flush();
    expect(await get("first question about cooking pasta", { cacheObj: c })).toBeNull();
    expect(await get("third question about mountain hiking", { cacheObj: c })).toBe("a3");
    await c.close();
  });

  it("refuses a threshold outside [0, 1]", async () => {
    await expect(initSimilarCache({ cache: new Cache(), dataDir: dir.path, embedding, threshold: 1.5 })).rejects.toThrow(ValidationError);
  });
});
