import { Cache, Config, DistanceEvaluation, ValidationError, ValueTooLongError, cached, get, managerFactory, put } from "../../src/index.js";
import { runCached, type CacheStatus } from "../../src/core/pipeline.js";
import { checkQuestionLength } from "../../src/core/question-length.js";
import type { EmbeddingFunction, EmbeddingInput } from "../../src/core/contracts/embedding.js";
import { BagOfWordsEmbedding } from "../helpers/fixtures.js";

/** A real embedding that records the length of every text it is handed, and may declare an input limit. */
class RecordingEmbedding extends BagOfWordsEmbedding implements EmbeddingFunction {
  readonly lengths: number[] = [];
  constructor(readonly maxInputLength?: number) {
    super();
  }
  override async embed(data: EmbeddingInput): Promise<Float32Array> {
    this.lengths.push(data.length);
    return super.embed(data);
  }
}

async function semanticCache(embedding: EmbeddingFunction, config: Config = new Config()): Promise<Cache> {
  return new Cache().init({ embeddingFunc: embedding, dataManager: managerFactory("memory,memory"), similarityEvaluation: new DistanceEvaluation(), config });
}

describe("a question over the length limit is refused before it is embedded", () => {
  it("put of a 100,000-character question throws ValueTooLongError; the embedding never sees it", async () => {
    const embedding = new RecordingEmbedding();
    const cache = await semanticCache(embedding);
    const error = await put("word ".repeat(20_000), "an answer", { cacheObj: cache }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ValueTooLongError);
    expect(error).toMatchObject({ code: "SEMCACHE_VALUE_TOO_LONG", statusCode: 413, length: 100_000, maxLength: 3000 });
    expect(embedding.lengths).toEqual([]);
    expect(await cache.dataManager.count()).toBe(0);
    await cache.close();
  });

  it("importData refuses one before embedding any question of the call, and stores nothing", async () => {
    const embedding = new RecordingEmbedding();
    const cache = await semanticCache(embedding);
    await expect(cache.importData(["a short one", "word ".repeat(20_000)], ["a", "b"])).rejects.toBeInstanceOf(ValueTooLongError);
    expect(embedding.lengths).toEqual([]);
    expect(await cache.dataManager.count()).toBe(0);
    await cache.close();
  });

  it("get of one throws the same way (as /get answers 413); a question at the limit is embedded whole", async () => {
    const embedding = new RecordingEmbedding();
    const cache = await semanticCache(embedding);
    await expect(get("x".repeat(3001), { cacheObj: cache })).rejects.toBeInstanceOf(ValueTooLongError);
    expect(embedding.lengths).toEqual([]);
    expect(await get("x".repeat(3000), { cacheObj: cache })).toBeNull();
    expect(embedding.lengths).toEqual([3000]);
    await cache.close();
  });

  it("a lookup of one skips the cache: the model answers, nothing is embedded or stored, the skipped save is counted", async () => {
    const embedding = new RecordingEmbedding();
    const cache = await semanticCache(embedding);
    const errors: Error[] = [];
    cache.onError = (error) => errors.push(error);
    const outcomes: CacheStatus[] = [];
    let modelCalls = 0;
    const ask = (prompt: string) =>
      runCached({ prompt }, { cacheObj: cache }, {
        name: "test",
        call: async () => `answer ${++modelCalls} (${prompt.length})`,
        answerOf: (answer) => answer,
        fromCache: (hit) => hit.answer,
        onOutcome: (outcome) => outcomes.push(outcome.status),
      });
    const long = "tell me more ".repeat(20_000);
    expect(await ask(long)).toBe(`answer 1 (${long.length})`);
    // Asked again, it is not answered from the cache: it was never stored.
    expect(await ask(long)).toBe(`answer 2 (${long.length})`);
    expect(outcomes).toEqual(["SKIP", "SKIP"]);
    expect(embedding.lengths).toEqual([]);
    expect(await cache.dataManager.count()).toBe(0);
    expect(cache.report.savesSkipped).toBe(2);
    expect(errors.map((error) => ValueTooLongError.isInstance(error))).toEqual([true, true]);
    await cache.close();
  });

  it("config.maxQuestionLength lowers the limit and is named in the error", async () => {
    const embedding = new RecordingEmbedding();
    const cache = await semanticCache(embedding, new Config({ maxQuestionLength: 40 }));
    await expect(put("q".repeat(41), "a", { cacheObj: cache })).rejects.toThrow(/limit is 40 \(config\.maxQuestionLength\)/);
    await put("q".repeat(40), "a", { cacheObj: cache });
    expect(embedding.lengths).toEqual([40]);
    expect(() => new Config({ maxQuestionLength: 0 })).toThrow(ValidationError);
    expect(() => new Config({ maxQuestionLength: 2.5 })).toThrow(ValidationError);
    await cache.close();
  });

  it("never truncates into another question: past the embedding's maxInputLength a question is refused, not matched", async () => {
    const embedding = new RecordingEmbedding(100);
    const cache = await semanticCache(embedding);
    const shared = "how do i configure the cache for my service ".repeat(3).slice(0, 100);
    await put(shared, "the short answer", { cacheObj: cache });
    // Truncated to 100 characters, these would embed exactly as the stored question does.
    await expect(put(`${shared} on windows`, "another", { cacheObj: cache })).rejects.toThrow(/the embedding's maxInputLength/);
    let modelCalls = 0;
    const ask = cached(async (_prompt: string) => `model answer ${++modelCalls}`, { requestOptions: { cacheObj: cache } });
    expect(await ask(`${shared} on linux`)).toBe("model answer 1");
    expect(await ask(shared)).toBe("the short answer");
    expect(Math.max(...embedding.lengths)).toBe(100);
    await cache.close();
  });

  it("counts characters as the column does: code points (an emoji is one)", () => {
    const emoji = "\u{1F600}";
    expect(() => checkQuestionLength(emoji.repeat(10), { column: 10 })).not.toThrow();
    expect(() => checkQuestionLength(emoji.repeat(11), { column: 10 })).toThrow(ValueTooLongError);
    // The embedding's limit is JavaScript's string length, which it truncates by.
    expect(() => checkQuestionLength(emoji.repeat(6), { column: 10, embedding: 11 })).toThrow(/the embedding's maxInputLength/);
  });
});
