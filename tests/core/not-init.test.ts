/**
 * Every surface of a cache that was never initialised fails with NotInitError (SEMCACHE_NOT_INIT): nothing runs
 * uncached without saying so. The LangChain surfaces (SemanticCache, the agents middleware's lookups) fail open
 * by design: they report the NotInitError to onError and call the model; their tests are in tests/langchain.
 */
import { wrapOpenAI } from "../../src/adapters/openai/index.js";
import { cached } from "../../src/adapters/function.js";
import { flush, get, importData, put } from "../../src/core/api.js";
import { Cache } from "../../src/presets/cache.js";
import { NotInitError } from "../../src/core/errors.js";
import { CachedChatModel } from "../../src/langchain/cached-chat-model.js";
import { buildServer } from "../../src/server/app.js";
import { CacheClient } from "../../src/server/client.js";
import { FakeListChatModel } from "@langchain/core/utils/testing";

/** A stand-in OpenAI client whose chat completions answer "hi" (a stream of one chunk when asked). */
function fakeOpenAI() {
  const calls: unknown[] = [];
  const client = {
    chat: {
      completions: {
        create: async (body: { stream?: boolean }) => {
          calls.push(body);
          const completion = { id: "c", object: "chat.completion", created: 0, model: "m", choices: [{ index: 0, finish_reason: "stop", message: { role: "assistant", content: "hi" } }] };
          if (!body.stream) return completion;
          return (async function* () {
            yield { id: "c", object: "chat.completion.chunk", created: 0, model: "m", choices: [{ index: 0, delta: { content: "hi" }, finish_reason: "stop" }] };
          })();
        },
      },
    },
  };
  return { client, calls };
}

describe("an uninitialised cache", () => {
  const cache = new Cache();
  const messages = [{ role: "user", content: "hi" }];

  it("fails put, get, importData and flush (the simple API and the Cache's own methods)", async () => {
    await expect(put("q", "a", { cacheObj: cache })).rejects.toBeInstanceOf(NotInitError);
    await expect(get("q", { cacheObj: cache })).rejects.toBeInstanceOf(NotInitError);
    await expect(importData(["q"], ["a"], undefined, { cacheObj: cache })).rejects.toBeInstanceOf(NotInitError);
    await expect(flush({ cacheObj: cache })).rejects.toBeInstanceOf(NotInitError);
    await expect(cache.importData(["q"], ["a"])).rejects.toMatchObject({ code: "SEMCACHE_NOT_INIT" });
    await expect(cache.flush()).rejects.toBeInstanceOf(NotInitError);
    // The store itself is not there yet: reading it is the same typed error, not a TypeError on undefined.
    expect(() => cache.dataManager).toThrow(NotInitError);
    // Closing what was never opened is no error (close is idempotent).
    await expect(cache.close()).resolves.toBeUndefined();
  });

  it("fails the in-process CacheClient and buildServer", async () => {
    const client = new CacheClient({ cache });
    await expect(client.get("q")).rejects.toBeInstanceOf(NotInitError);
    await expect(client.put("q", "a")).rejects.toBeInstanceOf(NotInitError);
    expect(() => buildServer({ cache })).toThrow(NotInitError);
  });

  it("fails cached() functions, value and stream", async () => {
    let calls = 0;
    const fn = cached(async (x: string) => `r${x}${++calls}`, { requestOptions: { cacheObj: cache } });
    await expect(fn("x")).rejects.toBeInstanceOf(NotInitError);
    const stream = cached(
      async function* (x: string) {
        calls++;
        yield x;
      },
      { requestOptions: { cacheObj: cache } },
    );
    await expect(
      (async () => {
        for await (const chunk of stream("x")) void chunk;
      })(),
    ).rejects.toBeInstanceOf(NotInitError);
    expect(calls).toBe(0);
  });

  it("fails every call of a wrapped OpenAI client, the ones the cache would pass through included", async () => {
    const { client, calls } = fakeOpenAI();
    const openai = wrapOpenAI(client as never, { cache }) as unknown as { chat: { completions: { create(body: object): Promise<AsyncIterable<unknown>> } } };
    await expect(openai.chat.completions.create({ model: "m", messages })).rejects.toBeInstanceOf(NotInitError);
    await expect(
      (async () => {
        for await (const chunk of await openai.chat.completions.create({ model: "m", messages, stream: true })) void chunk;
      })(),
    ).rejects.toBeInstanceOf(NotInitError);
    // Tools and several choices are never cached, yet an uninitialised cache is still an error there.
    const tools = [{ type: "function", function: { name: "f", parameters: {} } }];
    await expect(openai.chat.completions.create({ model: "m", messages, tools })).rejects.toBeInstanceOf(NotInitError);
    await expect(openai.chat.completions.create({ model: "m", messages, n: 2 })).rejects.toBeInstanceOf(NotInitError);
    expect(calls).toEqual([]);
  });

  it("fails a CachedChatModel call", async () => {
    const model = new CachedChatModel({ model: new FakeListChatModel({ responses: ["x"] }), cache });
    await expect(model.invoke("hi")).rejects.toBeInstanceOf(NotInitError);
  });
});
