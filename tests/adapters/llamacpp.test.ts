/** llama.cpp's server through the cache: its native /completion, and its OpenAI-compatible endpoint through wrapOpenAI. */
import OpenAI from "openai";
import { Config, MapDataManager, ValidationError } from "../../src/index.js";
import { wrapOpenAI } from "../../src/adapters/openai/index.js";
import {
  cachedLlamaCpp,
  cachedLlamaCppCompletion,
  ModelServerError,
  type LlamaCppCompletionResponse,
  type Marked,
} from "../../src/adapters/local-models/index.js";
import { ManualClock, startFakeLlamaCpp, type FakeLlamaCppOptions } from "../../src/testing/index.js";
import { aborted, closeAll, collect, defer, newCache, semantic, sqliteOnly } from "./local-models-harness.js";

afterEach(closeAll);

async function setup(options: { server?: FakeLlamaCppOptions; cache?: Parameters<typeof newCache>[0] } = {}) {
  const server = await startFakeLlamaCpp(options.server);
  defer(() => server.close());
  const cache = await newCache(options.cache);
  const llama = cachedLlamaCpp({ cache, baseUrl: server.url });
  const bodies = (path: string) => server.requests.filter((request) => request.path === path).map((request) => request.json ?? {});
  return { server, cache, llama, bodies };
}

const ZERO_TIMINGS = {
  prompt_n: 0,
  prompt_ms: 0,
  prompt_per_token_ms: 0,
  prompt_per_second: 0,
  predicted_n: 0,
  predicted_ms: 0,
  predicted_per_token_ms: 0,
  predicted_per_second: 0,
};

describe("cachedLlamaCpp: /completion", () => {
  it("a miss returns llama.cpp's result unchanged; a repeat is a hit in its shape, marked, with zero counts", async () => {
    const h = await setup();
    const prompt = "Building a website can be done in 10 simple steps:";
    const miss = await h.llama.completion({ prompt, n_predict: 128 });
    expect(miss).toMatchObject({ content: `Echo: ${prompt}`, stop: true, stop_type: "eos", model: "fake-model.gguf" });
    expect(miss.tokens_predicted).toBeGreaterThan(0);
    expect(miss.semcache).toBeUndefined();
    expect(h.bodies("/completion")[0]).toEqual({ prompt, n_predict: 128 });

    const hit = await h.llama.completion({ prompt, n_predict: 128 });
    expect(hit).toEqual({
      index: 0,
      content: `Echo: ${prompt}`,
      tokens: [],
      id_slot: -1,
      tokens_predicted: 0,
      tokens_evaluated: 0,
      stop: true,
      prompt,
      has_new_line: false,
      truncated: false,
      stop_type: "eos",
      stopping_word: "",
      tokens_cached: 0,
      timings: ZERO_TIMINGS,
      semcache: { hit: true, score: 1, id: expect.any(Number) },
    });
    expect(h.server.modelCalls()).toBe(1);
  });

  it("on a semantic cache a reworded prompt hits with its score", async () => {
    const h = await setup({ cache: semantic });
    await h.llama.completion({ prompt: "what is the capital city of France" });
    const hit = await h.llama.completion({ prompt: "what is the capital of France" });
    expect(hit.content).toBe("Echo: what is the capital city of France");
    expect(hit.semcache?.score).toBeGreaterThan(0.8);
    expect(h.server.modelCalls()).toBe(1);
  });

  it("a stream miss passes the SSE events through and stores the text once the `stop: true` event came; a hit replays events", async () => {
    const h = await setup({ server: { streamDelayMs: 5 } });
    const events: Array<Marked<LlamaCppCompletionResponse>> = [];
    for await (const event of await h.llama.completion({ prompt: "tell me a story", stream: true })) {
      events.push(event);
      if (!event.stop) expect(await h.cache.dataManager.count()).toBe(0);
    }
    expect(events.map((event) => event.content).join("")).toBe("Echo: tell me a story");
    expect(events.every((event) => event.semcache === undefined)).toBe(true);
    expect(events.at(-1)).toMatchObject({ stop: true, stop_type: "eos", content: "", tokens_predicted: 5 });
    expect(await h.cache.dataManager.count()).toBe(1);

    const replayed = await collect(await h.llama.completion({ prompt: "tell me a story", stream: true }));
    const pieces = replayed.slice(0, -1);
    expect(pieces.length).toBeGreaterThan(1);
    for (const event of pieces) expect(event).toMatchObject({ index: 0, stop: false, semcache: { hit: true, score: 1 } });
    expect(pieces.map((event) => event.content).join("")).toBe("Echo: tell me a story");
    expect(replayed.at(-1)).toMatchObject({ stop: true, stop_type: "eos", content: "", timings: ZERO_TIMINGS, semcache: { hit: true } });
    // Streamed and not streamed share entries.
    expect((await h.llama.completion({ prompt: "tell me a story" })).semcache?.hit).toBe(true);
    expect(h.server.modelCalls()).toBe(1);
  });

  it("an answer cut by n_predict is passed on, not stored; one ended by a stop word is stored", async () => {
    const h = await setup();
    const cut = await h.llama.completion({ prompt: "one two three four", n_predict: 2 });
    expect(cut).toMatchObject({ content: "Echo: one ", stop_type: "limit" });
    const cutStream = await collect(await h.llama.completion({ prompt: "one two three four", n_predict: 2, stream: true }));
    expect(cutStream.at(-1)?.stop_type).toBe("limit");
    expect(await h.cache.dataManager.count()).toBe(0);
    const worded = await h.llama.completion({ prompt: "one two three four", stop: ["three"] });
    expect(worded).toMatchObject({ content: "Echo: one two ", stop_type: "word", stopping_word: "three" });
    expect((await h.llama.completion({ prompt: "one two three four", stop: ["three"] })).semcache?.hit).toBe(true);
    expect(h.server.modelCalls()).toBe(3);
  });

  it("a stream left early stores nothing and closes the connection", async () => {
    const h = await setup({ server: { streamDelayMs: 20 } });
    for await (const event of await h.llama.completion({ prompt: "one two three four five", stream: true })) {
      expect(event.stop).toBe(false);
      break;
    }
    await aborted(h.server.requests[0].signal);
    expect(h.server.requests[0].signal.aborted).toBe(true);
    expect(await h.cache.dataManager.count()).toBe(0);
  });

  it("partitions by model and every sampling setting (temperature, seed, top_k: llama.cpp's, sent on); not by cache_prompt or id_slot", async () => {
    const h = await setup({ cache: { config: new Config({ random: () => 0.99 }) } });
    const completion = (extra: Record<string, unknown>) => h.llama.completion({ prompt: "hello", ...extra });
    await completion({});
    expect((await completion({ model: "other" })).semcache).toBeUndefined();
    expect((await completion({ temperature: 0.7 })).semcache).toBeUndefined();
    expect((await completion({ temperature: 0.7, seed: 42 })).semcache).toBeUndefined();
    expect((await completion({ seed: 7 })).semcache).toBeUndefined();
    expect((await completion({ top_k: 5 })).semcache).toBeUndefined();
    expect((await completion({ grammar: 'root ::= "yes" | "no"' })).semcache).toBeUndefined();
    expect(h.server.modelCalls()).toBe(7);
    expect(h.bodies("/completion")[5]).toEqual({ prompt: "hello", top_k: 5 });
    expect((await completion({ temperature: 0.7, seed: 42 })).semcache?.hit).toBe(true);
    expect((await completion({ top_k: 5 })).semcache?.hit).toBe(true);
    expect((await completion({ cache_prompt: true, id_slot: 1 })).semcache?.hit).toBe(true);
    expect(h.server.modelCalls()).toBe(7);
  });

  it("a top-level temperature drives the cache's temperature rule and is sent on", async () => {
    const h = await setup();
    for (let i = 0; i < 2; i++) expect((await h.llama.completion({ prompt: "hot", temperature: 2 })).semcache).toBeUndefined();
    expect(h.cache.report.skips).toBe(2);
    expect(h.bodies("/completion").map((body) => body.temperature)).toEqual([2, 2]);
  });

  it("cache options: cache_skip, search_only, noStore and maxAgeSeconds per call; the cache's candidates as cacheOptions.topK", async () => {
    const clock = new ManualClock();
    const h = await setup({ cache: { dataManager: new MapDataManager({ clock }) } });
    expect(await h.llama.completion({ prompt: "opts", search_only: true })).toBeNull();
    await h.llama.completion({ prompt: "opts" }, { cacheOptions: { noStore: true, topK: 3 } });
    expect(await h.cache.dataManager.count()).toBe(0);
    await h.llama.completion({ prompt: "opts" });
    expect((await h.llama.completion({ prompt: "opts", cache_skip: true })).semcache).toBeUndefined();
    expect((await h.llama.completion({ prompt: "opts", search_only: true }))?.semcache?.hit).toBe(true);
    clock.advance(20);
    expect((await h.llama.completion({ prompt: "opts" }, { cacheOptions: { maxAgeSeconds: 0.01 } })).semcache).toBeUndefined();
    expect(h.server.modelCalls()).toBe(4);
    expect(h.bodies("/completion").every((body) => !("cache_skip" in body) && !("search_only" in body))).toBe(true);
  });

  it("prompts the cache cannot answer faithfully go through uncached: token lists, token probabilities, token ids", async () => {
    const h = await setup({ server: { reply: () => "ok" } });
    for (const extra of [{ n_probs: 3 }, { return_tokens: true }]) {
      for (let i = 0; i < 2; i++) await h.llama.completion({ prompt: "same", ...extra });
    }
    for (let i = 0; i < 2; i++) await h.llama.completion({ prompt: [1, 2, 3] }).catch(() => undefined);
    expect(h.server.modelCalls()).toBe(6);
    expect(await h.cache.dataManager.count()).toBe(0);
  });

  it("llama.cpp's errors reach the caller as ModelServerError with the status and body; nothing is stored", async () => {
    const h = await setup({ server: { fail: (body) => (body.prompt === "bad" ? 400 : undefined) } });
    const error = await h.llama.completion({ prompt: "bad" }).catch((e: unknown) => e);
    expect(ModelServerError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ status: 400, message: "fake failure 400", body: { error: { code: 400, message: "fake failure 400", type: "invalid_request_error" } } });
    await expect(h.llama.completion({ prompt: "bad", stream: true })).rejects.toMatchObject({ status: 400 });
    expect(await h.cache.dataManager.count()).toBe(0);
  });

  it("a cache fault never changes the answer: counted, and the call goes on", async () => {
    const errors: Error[] = [];
    const h = await setup({ cache: sqliteOnly((error) => errors.push(error)) });
    await h.cache.dataManager.scalar.close();
    expect((await h.llama.completion({ prompt: "still answered" })).content).toBe("Echo: still answered");
    const events = await collect(await h.llama.completion({ prompt: "still answered", stream: true }));
    expect(events.map((event) => event.content).join("")).toBe("Echo: still answered");
    expect(errors.length).toBeGreaterThanOrEqual(2);
    expect(h.cache.report.errors).toBe(errors.length);
    await h.cache.dataManager.scalar.init();
  });

  it("an API key is sent as a bearer token; wrong options are ValidationErrors", async () => {
    const h = await setup();
    const keyed = cachedLlamaCpp({ cache: h.cache, baseUrl: `${h.server.url}/`, apiKey: "secret" });
    expect(keyed.baseUrl).toBe(h.server.url);
    await keyed.completion({ prompt: "key?" });
    expect(h.server.requests[0].headers.authorization).toBe("Bearer secret");
    expect(() => cachedLlamaCpp({ apiKey: 1 as never })).toThrow(ValidationError);
    expect(() => cachedLlamaCpp({ cacheOptions: "x" as never })).toThrow(ValidationError);
  });

  it("cachedLlamaCppCompletion runs with any upstream and reports the outcome", async () => {
    const h = await setup();
    const upstream = async () => ({ content: "forty-two", stop: true, stop_type: "eos" as const });
    const first = await cachedLlamaCppCompletion(h.cache, { prompt: "answer?" }, { upstream });
    expect(first.outcome).toEqual({ status: "MISS" });
    const second = await cachedLlamaCppCompletion(h.cache, { prompt: "answer?" }, { upstream });
    expect(second.outcome).toMatchObject({ status: "HIT", score: 1 });
    expect((second.result as LlamaCppCompletionResponse).content).toBe("forty-two");
  });
});

describe("llama.cpp's OpenAI-compatible endpoint goes through wrapOpenAI", () => {
  it("an openai client aimed at the server's /v1 is cached like OpenAI itself, streams included", async () => {
    const h = await setup();
    const openai = wrapOpenAI(new OpenAI({ apiKey: "sk-no-key-required", baseURL: h.server.baseURL, maxRetries: 0 }), { cache: h.cache });
    const messages = [{ role: "user" as const, content: "Why is the sky blue?" }];
    const miss = await openai.chat.completions.create({ model: "local", messages });
    expect(miss.choices[0].message.content).toBe("Echo: Why is the sky blue?");
    expect((miss as unknown as { timings?: unknown }).timings).toBeDefined();
    const hit = await openai.chat.completions.create({ model: "local", messages });
    expect(hit.semcache).toMatchObject({ hit: true, score: 1 });
    const chunks = await collect(await openai.chat.completions.create({ model: "local", messages, stream: true }));
    expect(chunks.map((chunk) => chunk.choices[0]?.delta?.content ?? "").join("")).toBe("Echo: Why is the sky blue?");
    expect(h.server.modelCalls()).toBe(1);

    // A streamed miss through the server's SSE (ending `data: [DONE]`) is stored too.
    const streamed = await collect(await openai.chat.completions.create({ model: "local", messages: [{ role: "user", content: "stream me" }], stream: true }));
    expect(streamed.at(-1)?.choices[0].finish_reason).toBe("stop");
    expect((await openai.chat.completions.create({ model: "local", messages: [{ role: "user", content: "stream me" }] })).semcache?.hit).toBe(true);
    expect(h.server.modelCalls()).toBe(2);
  });
});
