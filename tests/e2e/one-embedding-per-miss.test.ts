/**
 * One embedding per miss, on every surface: for a question the cache has not seen, the whole miss (the lookup,
 * the model call, the save of its answer) embeds that question exactly once.
 *
 * - Where the lookup and the save are one flow (the OpenAI adapter, CachedChatModel, the proxy, the agents
 *   middleware) the flow hands its lookup's vector to the save. Those caches run with embeddingMemoSize 0, so
 *   the memo cannot hide a second embedding (it forgets under load, and a stream's save comes late).
 * - Where they are two calls (the server's /get then /put, the API's get then put), the cache's embedding memo
 *   (on by default) hands the put the get's vector; with embeddingMemoSize 0 those cost two embeddings.
 *
 * The same question asked again is a hit that costs no embedding at all, memo or not: the lookup tries the
 * exact key first, and the stored entry carries its own vector.
 *
 * Every surface runs over a real semantic cache (the embedded default, SQLite and usearch; DistanceEvaluation)
 * whose embedding counts its calls; the models are ChatOpenAI or the OpenAI SDK against the local fake OpenAI server.
 * LangChain's SemanticCache (llm.cache) is covered in tests/langchain/semantic-cache.test.ts.
 */
import { ChatOpenAI } from "@langchain/openai";
import { createAgent } from "langchain";
import OpenAI from "openai";
import { DistanceEvaluation, EMBEDDED_DEFAULT_MANAGER, get, managerFactory, put, type Cache, type CacheInitOptions } from "../../src/index.js";
import { wrapOpenAI } from "../../src/adapters/openai/index.js";
import { semanticCacheMiddleware } from "../../src/agents/index.js";
import { CachedChatModel } from "../../src/langchain/cached-chat-model.js";
import type { FakeOpenAIServer } from "../../src/testing/index.js";
import { BagOfWordsEmbedding, tempDir } from "../helpers/fixtures.js";
import { testResources } from "../helpers/langchain.js";
import { serve as serveApp, type Served } from "../server/helpers.js";

const { closeAll, serve, newCache, push } = testResources();
afterEach(closeAll);

/**
 * A semantic cache on the embedded default (SQLite and usearch) in a temp folder, embedding with a BagOfWordsEmbedding that counts its
 * calls; `memo: false` turns the embedding memo off (embeddingMemoSize 0).
 */
async function semanticCache({ memo }: { memo: boolean }): Promise<{ cache: Cache; embedding: BagOfWordsEmbedding }> {
  const dir = tempDir();
  push(dir.cleanup);
  const embedding = new BagOfWordsEmbedding();
  const options: CacheInitOptions = {
    embeddingFunc: embedding,
    dataManager: managerFactory(EMBEDDED_DEFAULT_MANAGER, { dataDir: dir.path }),
    similarityEvaluation: new DistanceEvaluation(),
    config: { similarityThreshold: 0.9, ...(memo ? {} : { embeddingMemoSize: 0 }) },
  };
  return { cache: await newCache(options), embedding };
}

/** The embedding calls `run` makes. */
async function embeddingsDuring(embedding: BagOfWordsEmbedding, run: () => Promise<unknown>): Promise<number> {
  const before = embedding.calls;
  await run();
  return embedding.calls - before;
}

/** An app over `cache` (closed with the test), proxying to `upstream`. */
async function app(cache: Cache, upstream?: FakeOpenAIServer): Promise<Served> {
  const served = await serveApp(cache, { settings: upstream ? { upstream: { baseURL: upstream.baseURL } } : {}, env: {} });
  push(() => served.close());
  return served;
}

function chatModel(server: FakeOpenAIServer): ChatOpenAI {
  return new ChatOpenAI({ model: "gpt-test", apiKey: "sk-test", configuration: { baseURL: server.baseURL }, maxRetries: 0 });
}

const user = (content: string) => [{ role: "user" as const, content }];

describe("one embedding per miss, none for a repeat", () => {
  it("the OpenAI SDK adapter (wrapOpenAI): a create miss and a stream miss", async () => {
    const { cache, embedding } = await semanticCache({ memo: false });
    const server = await serve();
    const openai = wrapOpenAI(new OpenAI({ apiKey: "sk-test", baseURL: server.baseURL, maxRetries: 0 }), { cache });
    const create = (content: string) => openai.chat.completions.create({ model: "gpt-test", messages: user(content) });
    const stream = async (content: string) => {
      for await (const chunk of await openai.chat.completions.create({ model: "gpt-test", messages: user(content), stream: true })) void chunk;
    };

    expect(await embeddingsDuring(embedding, () => create("What is a semantic cache?"))).toBe(1);
    expect(server.modelCalls()).toBe(1);
    let hit: Awaited<ReturnType<typeof create>> | undefined;
    expect(await embeddingsDuring(embedding, async () => (hit = await create("What is a semantic cache?")))).toBe(0);
    expect(hit?.semcache).toMatchObject({ hit: true, score: 1 });

    // A stream miss stores its answer once the stream ends, with the lookup's vector.
    expect(await embeddingsDuring(embedding, () => stream("How do vector indexes work?"))).toBe(1);
    expect(server.modelCalls()).toBe(2);
    expect(await cache.dataManager.count()).toBe(2);
    expect(await embeddingsDuring(embedding, () => stream("How do vector indexes work?"))).toBe(0);
    expect(server.modelCalls()).toBe(2);
  });

  it("the wrapped LangChain chat model (CachedChatModel): an invoke miss and a stream miss", async () => {
    const { cache, embedding } = await semanticCache({ memo: false });
    const server = await serve();
    const model = new CachedChatModel({ model: chatModel(server), cache });
    const stream = async (question: string) => {
      for await (const chunk of await model.stream(question)) void chunk;
    };

    expect(await embeddingsDuring(embedding, () => model.invoke("What is the capital of France?"))).toBe(1);
    expect(server.modelCalls()).toBe(1);
    expect(await embeddingsDuring(embedding, () => model.invoke("What is the capital of France?"))).toBe(0);
    expect(server.modelCalls()).toBe(1);

    expect(await embeddingsDuring(embedding, () => stream("What is the tallest mountain?"))).toBe(1);
    expect(server.modelCalls()).toBe(2);
    expect(await cache.dataManager.count()).toBe(2);
    expect(await embeddingsDuring(embedding, () => stream("What is the tallest mountain?"))).toBe(0);
    expect(server.modelCalls()).toBe(2);
  });

  it("the server's proxy, POST /v1/chat/completions", async () => {
    const { cache, embedding } = await semanticCache({ memo: false });
    const upstream = await serve();
    const served = await app(cache, upstream);
    const ask = () =>
      served.post("/v1/chat/completions", { model: "gpt-test", messages: user("Why is the sky blue?") }, { authorization: "Bearer sk-caller" });

    let answer: Awaited<ReturnType<typeof ask>> | undefined;
    expect(await embeddingsDuring(embedding, async () => (answer = await ask()))).toBe(1);
    expect(answer?.headers["x-semcache"]).toBe("MISS");
    expect(upstream.modelCalls()).toBe(1);
    expect(await embeddingsDuring(embedding, async () => (answer = await ask()))).toBe(0);
    expect(answer?.headers["x-semcache"]).toBe("HIT");
    expect(upstream.modelCalls()).toBe(1);
  });

  it("the server's /get miss, then /put of the answer: two requests, one embedding", async () => {
    const { cache, embedding } = await semanticCache({ memo: true });
    const served = await app(cache);
    const prompt = "How long should I boil an egg?";

    const calls = await embeddingsDuring(embedding, async () => {
      expect((await served.post("/get", { prompt })).json()).toEqual({ prompt, answer: null });
      expect((await served.post("/put", { prompt, answer: "Nine minutes." })).json()).toEqual({ ok: true });
    });
    expect(calls).toBe(1);
    expect(await cache.dataManager.count()).toBe(1);
    let answer: unknown;
    expect(await embeddingsDuring(embedding, async () => (answer = (await served.post("/get", { prompt })).json().answer))).toBe(0);
    expect(answer).toBe("Nine minutes.");
  });

  it("the put/get API: a get miss, then a put, one embedding", async () => {
    const { cache, embedding } = await semanticCache({ memo: true });
    const prompt = "Which planet is closest to the sun?";

    const calls = await embeddingsDuring(embedding, async () => {
      expect(await get(prompt, { cacheObj: cache })).toBeNull();
      await put(prompt, "Mercury.", { cacheObj: cache });
    });
    expect(calls).toBe(1);
    let answer: string | null = null;
    expect(await embeddingsDuring(embedding, async () => (answer = await get(prompt, { cacheObj: cache })))).toBe(0);
    expect(answer).toBe("Mercury.");
  });

  it("the agents middleware (semanticCacheMiddleware in createAgent)", async () => {
    const { cache, embedding } = await semanticCache({ memo: false });
    const server = await serve();
    const agent = createAgent({ model: chatModel(server), tools: [], middleware: [semanticCacheMiddleware({ cache })] });
    const ask = () => agent.invoke({ messages: [{ role: "user", content: "What does a semantic cache store?" }] });

    expect(await embeddingsDuring(embedding, ask)).toBe(1);
    expect(server.modelCalls()).toBe(1);
    let last: unknown;
    expect(await embeddingsDuring(embedding, async () => (last = (await ask()).messages.at(-1)?.response_metadata))).toBe(0);
    expect(last).toMatchObject({ semcache: { hit: true, score: 1 } });
    expect(server.modelCalls()).toBe(1);
  });
});
