import { Cache, Config, DistanceEvaluation, managerFactory } from "../../src/index.js";
import type { EmbeddingInput } from "../../src/core/contracts/embedding.js";
import { startFakeOpenAI, type FakeOpenAIServer } from "../../src/testing/index.js";
import { BagOfWordsEmbedding } from "../helpers/fixtures.js";
import { expectErrorBody, serve, type Served } from "./helpers.js";

/** A real embedding that records the length of every text it is handed. */
class RecordingEmbedding extends BagOfWordsEmbedding {
  readonly lengths: number[] = [];
  override async embed(data: EmbeddingInput): Promise<Float32Array> {
    this.lengths.push(data.length);
    return super.embed(data);
  }
}

describe("over-long questions at the server", () => {
  let upstream: FakeOpenAIServer;
  let server: Served;
  let embedding: RecordingEmbedding;

  beforeEach(async () => {
    upstream = await startFakeOpenAI({ streamDelayMs: 0 });
    embedding = new RecordingEmbedding();
    const cache = await new Cache().init({
      embeddingFunc: embedding,
      dataManager: managerFactory("memory,memory"),
      similarityEvaluation: new DistanceEvaluation(),
      config: new Config({ maxQuestionLength: 1000 }),
    });
    server = await serve(cache, { settings: { upstream: { baseURL: upstream.baseURL } }, env: {} });
  });
  afterEach(async () => {
    await server.close();
    await upstream.close();
  });

  const chat = (content: string, stream = false) =>
    server.post("/v1/chat/completions", { model: "gpt-4o", stream, messages: [{ role: "user", content }] }, { authorization: "Bearer sk-caller" });

  it("the proxy sends a 200,000-character message upstream without the cache (SKIP): never embedded, never stored", async () => {
    const long = "please summarise this ".repeat(10_000).slice(0, 200_000);
    const first = await chat(long);
    expect(first.statusCode).toBe(200);
    expect(first.headers["x-semcache"]).toBe("SKIP");
    expect(first.json().choices[0].message.content).toBe(`Echo: ${long}`);
    const streamed = await chat(long, true);
    expect(streamed.statusCode).toBe(200);
    expect(streamed.headers["x-semcache"]).toBe("SKIP");
    expect(streamed.body.trim().endsWith("data: [DONE]")).toBe(true);
    expect(upstream.modelCalls()).toBe(2);
    expect(embedding.lengths).toEqual([]);
    expect(await server.cache.dataManager.count()).toBe(0);
    // An ordinary question is still cached.
    expect((await chat("What is the capital of France?")).headers["x-semcache"]).toBe("MISS");
    expect((await chat("What is the capital of France?")).headers["x-semcache"]).toBe("HIT");
  });

  it("/put and /get of a prompt over config.maxQuestionLength answer 413 JSON naming the limit, before embedding", async () => {
    for (const [path, body] of [["/put", { answer: "a" }], ["/get", {}]] as const) {
      const answer = await server.post(path, { prompt: "p".repeat(1001), ...body });
      expect(answer.statusCode).toBe(413);
      expectErrorBody(answer.body, "SEMCACHE_VALUE_TOO_LONG");
      expect(answer.json().error.message).toContain("config.maxQuestionLength");
    }
    expect(embedding.lengths).toEqual([]);
    expect((await server.post("/put", { prompt: "p".repeat(1000), answer: "a" })).statusCode).toBe(200);
    expect(embedding.lengths).toEqual([1000]);
  });
});
