/**
 * `cachedChatCompletion`, the entry point the HTTP proxy builds on: any upstream call, the outcome of each
 * request (also for streams, before the first chunk), and the Cache-Control controls noStore and maxAgeSeconds.
 */
import type { ChatCompletion, ChatCompletionChunk, ChatCompletionCreateParams } from "openai/resources/chat/completions";
import { ValidationError } from "../../../src/index.js";
import { cachedChatCompletion, type Marked, type UpstreamSettings } from "../../../src/adapters/openai/index.js";
import { MapDataManager } from "../../../src/presets/map-manager.js";
import { ManualClock } from "../../../src/testing/manual-clock.js";
import { ask, closeAll, collect, setup, type Harness } from "./harness.js";

afterEach(closeAll);

type Upstream = UpstreamSettings<ChatCompletionCreateParams, ChatCompletion | AsyncIterable<ChatCompletionChunk>>["upstream"];

/** An upstream that answers through the harness's real client and records what it was sent. */
function viaClient(h: Harness) {
  const sent: Array<{ body: ChatCompletionCreateParams; signal?: AbortSignal }> = [];
  const upstream: Upstream = async (body, signal) => {
    sent.push({ body, signal });
    return h.client.chat.completions.create(body, { signal });
  };
  return { sent, upstream };
}


describe("cachedChatCompletion", () => {
  it("reports MISS, then HIT with the score, the entry id and its age; SKIP when the lookup is skipped", async () => {
    const h = await setup();
    const { upstream, sent } = viaClient(h);
    const body = { model: "m", messages: ask("outcomes") };
    const miss = await cachedChatCompletion(h.cache, body, { upstream });
    expect(miss.outcome).toEqual({ status: "MISS" });
    expect((miss.result as ChatCompletion).id).toMatch(/^chatcmpl-fake-/);

    const hit = await cachedChatCompletion(h.cache, body, { upstream });
    expect(hit.outcome).toEqual({ status: "HIT", score: 1, id: expect.any(Number), ageSeconds: expect.any(Number) });
    expect(hit.outcome.ageSeconds).toBeGreaterThanOrEqual(0);
    expect((hit.result as Marked<ChatCompletion>).semcache).toEqual({ hit: true, score: 1, id: hit.outcome.id });

    const skipped = await cachedChatCompletion(h.cache, body, { upstream, cacheOptions: { cacheSkip: true } });
    expect(skipped.outcome).toEqual({ status: "SKIP" });
    const tools = await cachedChatCompletion(h.cache, { ...body, tools: [{ type: "function", function: { name: "f" } }] }, { upstream });
    expect(tools.outcome).toEqual({ status: "SKIP" });
    expect(sent).toHaveLength(3);
  });

  it("knows a stream's outcome before its first chunk is read, and passes a miss's chunks on as the upstream yields them", async () => {
    const h = await setup();
    let yielded = 0;
    const upstream: Upstream = async () =>
      (async function* () {
        for (const piece of ["Hello ", "from ", "upstream."]) {
          yielded++;
          yield { id: "up-1", object: "chat.completion.chunk", created: 0, model: "m", choices: [{ index: 0, delta: { content: piece }, logprobs: null, finish_reason: null }] };
        }
        yield { id: "up-1", object: "chat.completion.chunk", created: 0, model: "m", choices: [{ index: 0, delta: {}, logprobs: null, finish_reason: "stop" }] };
      })() as AsyncIterable<ChatCompletionChunk>;
    const body = { model: "m", messages: ask("stream outcome"), stream: true as const };

    const miss = await cachedChatCompletion(h.cache, body, { upstream });
    expect(miss.outcome.status).toBe("MISS");
    expect(yielded).toBe(0); // nothing read yet: headers can go out first
    let received = 0;
    for await (const chunk of miss.result as AsyncIterable<ChatCompletionChunk>) {
      if (chunk.choices[0].delta.content) expect(yielded).toBe(++received);
    }

    const hit = await cachedChatCompletion(h.cache, body, { upstream });
    expect(hit.outcome).toMatchObject({ status: "HIT", score: 1 });
    const chunks = await collect(hit.result as AsyncIterable<ChatCompletionChunk>);
    expect(chunks.map((chunk) => chunk.choices[0]?.delta?.content ?? "").join("")).toBe("Hello from upstream.");
    expect(yielded).toBe(3);
  });

  it("hands upstream the body without cache options, and the caller's signal", async () => {
    const h = await setup();
    const { upstream, sent } = viaClient(h);
    const controller = new AbortController();
    await cachedChatCompletion(h.cache, { model: "m", messages: ask("signal"), session: "s", top_k: 2, seed: 7 }, { upstream, signal: controller.signal });
    expect(sent[0].body).toEqual({ model: "m", messages: ask("signal"), seed: 7 });
    expect(sent[0].signal).toBe(controller.signal);
  });

  it("noStore looks up but never stores: a miss is answered and forgotten, an existing entry still hits", async () => {
    const h = await setup();
    const { upstream } = viaClient(h);
    const body = { model: "m", messages: ask("private") };
    const first = await cachedChatCompletion(h.cache, body, { upstream, cacheOptions: { noStore: true } });
    expect(first.outcome.status).toBe("MISS");
    expect((first.result as ChatCompletion).choices[0].message.content).toBe("Echo: private");
    const streamed = await cachedChatCompletion(h.cache, { ...body, stream: true }, { upstream, cacheOptions: { noStore: true } });
    await collect(streamed.result as AsyncIterable<ChatCompletionChunk>);
    expect(await h.cache.dataManager.count()).toBe(0);

    await cachedChatCompletion(h.cache, body, { upstream });
    expect(await h.cache.dataManager.count()).toBe(1);
    const hit = await cachedChatCompletion(h.cache, body, { upstream, cacheOptions: { noStore: true } });
    expect(hit.outcome.status).toBe("HIT");
    expect(h.server.modelCalls()).toBe(3);
  });

  it("maxAgeSeconds: an entry older than that is not a hit (the fresh answer is stored); a younger one is", async () => {
    const clock = new ManualClock();
    const h = await setup({ cache: { dataManager: new MapDataManager({ clock }) } });
    const { upstream } = viaClient(h);
    const body = { model: "m", messages: ask("fresh enough?") };
    await cachedChatCompletion(h.cache, body, { upstream });
    clock.advance(30);
    const stale = await cachedChatCompletion(h.cache, body, { upstream, cacheOptions: { maxAgeSeconds: 0.01 } });
    expect(stale.outcome.status).toBe("MISS");
    expect(h.server.modelCalls()).toBe(2);
    expect(await h.cache.dataManager.count()).toBe(2);
    const young = await cachedChatCompletion(h.cache, body, { upstream, cacheOptions: { maxAgeSeconds: 3600 } });
    expect(young.outcome.status).toBe("HIT");
    expect(young.outcome.ageSeconds).toBe(0);
    clock.advance(1);
    const streamed = await cachedChatCompletion(h.cache, { ...body, stream: true }, { upstream, cacheOptions: { maxAgeSeconds: 0 } });
    expect(streamed.outcome.status).toBe("MISS");
    await collect(streamed.result as AsyncIterable<ChatCompletionChunk>);
  });

  it.each([
    ["noStore", { noStore: "yes" }],
    ["maxAgeSeconds", { maxAgeSeconds: -1 }],
    ["maxAgeSeconds", { maxAgeSeconds: Number.NaN }],
  ])("a wrong %s is a ValidationError before any upstream call", async (_name, bad) => {
    const h = await setup();
    const { upstream, sent } = viaClient(h);
    await expect(cachedChatCompletion(h.cache, { model: "m", messages: ask("q") }, { upstream, cacheOptions: bad as never })).rejects.toBeInstanceOf(
      ValidationError,
    );
    expect(sent).toHaveLength(0);
  });

  it("refuses a missing upstream, a body that is not an object, and a cache that is not a Cache", async () => {
    const h = await setup();
    const { upstream } = viaClient(h);
    await expect(cachedChatCompletion(h.cache, { model: "m", messages: ask("q") }, {} as never)).rejects.toBeInstanceOf(ValidationError);
    await expect(cachedChatCompletion(h.cache, "hello" as never, { upstream })).rejects.toBeInstanceOf(ValidationError);
    await expect(cachedChatCompletion({} as never, { model: "m", messages: ask("q") }, { upstream })).rejects.toBeInstanceOf(ValidationError);
  });

  it("an upstream that answers a stream request with something else is a TypeError, and nothing is stored", async () => {
    const h = await setup();
    const upstream: Upstream = async () => ({ not: "a stream" }) as never;
    await expect(cachedChatCompletion(h.cache, { model: "m", messages: ask("q"), stream: true }, { upstream })).rejects.toBeInstanceOf(TypeError);
    expect(await h.cache.dataManager.count()).toBe(0);
  });
});
