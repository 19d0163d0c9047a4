import OpenAI from "openai";
import type { ChatCompletionChunk, ChatCompletionCreateParamsNonStreaming } from "openai/resources/chat/completions";
import { Stream } from "openai/streaming";
import { Cache, managerFactory, NotInitError, Session, ValidationError } from "../../../src/index.js";
import { wrapOpenAI, type Marked } from "../../../src/adapters/openai/index.js";
import { ask, closeAll, collect, setup } from "./harness.js";

afterEach(closeAll);

const CHAT = "/v1/chat/completions";

describe("wrapOpenAI: chat.completions.create", () => {
  it("a miss returns the model's completion unchanged; a repeat is a ChatCompletion hit with the marker and zero usage", async () => {
    const h = await setup();
    const miss = await h.openai.chat.completions.create({ model: "gpt-test", messages: ask("What is a cache?") });
    expect(miss.id).toMatch(/^chatcmpl-fake-/);
    expect(miss.semcache).toBeUndefined();
    expect(miss.usage?.total_tokens).toBeGreaterThan(0);

    const hit = await h.openai.chat.completions.create({ model: "gpt-test", messages: ask("What is a cache?") });
    expect(hit.semcache).toEqual({ hit: true, score: 1, id: expect.any(Number) });
    expect(hit).toMatchObject({
      object: "chat.completion",
      model: "gpt-test",
      choices: [{ index: 0, message: { role: "assistant", content: "Echo: What is a cache?" }, finish_reason: "stop" }],
      usage: { prompt_tokens: 0, completion_tokens: 0, total_tokens: 0 },
    });
    expect(hit.id).toMatch(/^chatcmpl-semcache-/);
    expect(h.server.modelCalls()).toBe(1);
    expect(h.cache.report.hits).toBe(1);
  });

  it("a stream hit replays SDK chunks: the role, a few words at a time, the finish; iterable as the SDK's Stream", async () => {
    const h = await setup({ server: { reply: () => "Jupiter is the largest planet in the solar system." } });
    await h.openai.chat.completions.create({ model: "m", messages: ask("largest planet?") });
    const stream = await h.openai.chat.completions.create({ model: "m", messages: ask("largest planet?"), stream: true });
    expect(stream).toBeInstanceOf(Stream);
    const chunks = await collect(stream);
    expect(chunks[0].choices[0].delta).toEqual({ role: "assistant", content: "" });
    const pieces = chunks.slice(1, -1).map((chunk) => chunk.choices[0].delta.content ?? "");
    expect(pieces.join("")).toBe("Jupiter is the largest planet in the solar system.");
    expect(pieces.length).toBeGreaterThan(1);
    for (const piece of pieces) expect(piece.trim().split(/\s+/).length).toBeLessThanOrEqual(3);
    expect(chunks[chunks.length - 1].choices[0]).toMatchObject({ delta: {}, finish_reason: "stop" });
    for (const chunk of chunks) expect(chunk).toMatchObject({ object: "chat.completion.chunk", model: "m", semcache: { hit: true, score: 1 } });
    expect(h.server.modelCalls()).toBe(1);
  });

  it("a stream hit ends with a zero usage chunk when the request asks for usage", async () => {
    const h = await setup();
    await h.openai.chat.completions.create({ model: "m", messages: ask("usage please") });
    const chunks = await collect(
      await h.openai.chat.completions.create({ model: "m", messages: ask("usage please"), stream: true, stream_options: { include_usage: true } }),
    );
    expect(chunks[chunks.length - 1]).toMatchObject({ choices: [], usage: { prompt_tokens: 0, completion_tokens: 0, total_tokens: 0 } });
  });

  it("a stream miss passes the model's chunks through and stores the joined content only when the stream completes", async () => {
    const h = await setup({ server: { streamDelayMs: 5 } });
    const stream = await h.openai.chat.completions.create({ model: "m", messages: ask("tell me a story"), stream: true });
    const chunks: Array<Marked<ChatCompletionChunk>> = [];
    for await (const chunk of stream) {
      chunks.push(chunk);
      // Nothing is stored while the stream is still running.
      expect(await h.cache.dataManager.count()).toBe(0);
    }
    expect(chunks.every((chunk) => chunk.id.startsWith("chatcmpl-fake-") && chunk.semcache === undefined)).toBe(true);
    expect(chunks.map((chunk) => chunk.choices[0]?.delta?.content ?? "").join("")).toBe("Echo: tell me a story");
    expect(await h.cache.dataManager.count()).toBe(1);
    const again = await h.openai.chat.completions.create({ model: "m", messages: ask("tell me a story") });
    expect(again.choices[0].message.content).toBe("Echo: tell me a story");
    expect(again.semcache?.hit).toBe(true);
  });

  it("a stream the reader leaves early, or aborts through the controller, stores nothing", async () => {
    const h = await setup({ server: { streamDelayMs: 20 } });
    const left = await h.openai.chat.completions.create({ model: "m", messages: ask("one two three four five"), stream: true });
    for await (const chunk of left) {
      expect(chunk.choices[0].delta.role).toBe("assistant");
      break;
    }
    const aborted = await h.openai.chat.completions.create({ model: "m", messages: ask("one two three four five"), stream: true });
    const seen: string[] = [];
    for await (const chunk of aborted) {
      seen.push(chunk.choices[0]?.delta?.content ?? "");
      if (seen.length === 2) aborted.controller.abort();
    }
    expect(seen.join("")).not.toBe("Echo: one two three four five");
    expect(await h.cache.dataManager.count()).toBe(0);
    await h.openai.chat.completions.create({ model: "m", messages: ask("one two three four five") });
    expect(h.server.modelCalls()).toBe(3);
  });

  it("aborting a replayed hit ends it quietly after the chunks read so far", async () => {
    const h = await setup({ server: { reply: () => "a b c d e f g h i j k l m n o p" } });
    await h.openai.chat.completions.create({ model: "m", messages: ask("letters") });
    const stream = await h.openai.chat.completions.create({ model: "m", messages: ask("letters"), stream: true });
    let count = 0;
    for await (const chunk of stream) {
      expect(chunk.semcache?.hit).toBe(true);
      if (++count === 2) stream.controller.abort();
    }
    expect(count).toBe(2);
  });

  it("an upstream error reaches the caller as the SDK's own error, and nothing is stored", async () => {
    const h = await setup({ server: { fail: (body) => (body.model === "broken" ? 503 : undefined) } });
    const request = { model: "broken", messages: ask("anything") };
    const direct = await h.client.chat.completions.create(request).catch((error: unknown) => error);
    const wrapped = await h.openai.chat.completions.create(request).catch((error: unknown) => error);
    expect(wrapped).toBeInstanceOf(OpenAI.InternalServerError);
    expect(wrapped).toMatchObject({ status: 503, message: (direct as Error).message });
    await expect(h.openai.chat.completions.create({ ...request, stream: true })).rejects.toBeInstanceOf(OpenAI.APIError);
    expect(await h.cache.dataManager.count()).toBe(0);
  });

  it("a stream that fails midway passes the error on and stores nothing", async () => {
    const h = await setup();
    async function* failing() {
      yield { id: "x", object: "chat.completion.chunk", created: 0, model: "m", choices: [{ index: 0, delta: { content: "partial " }, finish_reason: null }] };
      throw new Error("connection reset");
    }
    const stream = await h.openai.chat.completions.create({ model: "m", messages: ask("q"), stream: true, llm: () => failing() as never });
    await expect(collect(stream)).rejects.toThrow("connection reset");
    expect(await h.cache.dataManager.count()).toBe(0);
  });

  it("cache_skip asks the model again and stores its answer; temperature 2 never reads the cache but keeps its setting upstream", async () => {
    const h = await setup();
    await h.openai.chat.completions.create({ model: "m", messages: ask("skip me") });
    const skipped = await h.openai.chat.completions.create({ model: "m", messages: ask("skip me"), cache_skip: true });
    expect(skipped.semcache).toBeUndefined();
    expect(h.server.modelCalls()).toBe(2);
    expect(await h.cache.dataManager.count()).toBe(2);

    for (let i = 0; i < 2; i++) {
      const hot = await h.openai.chat.completions.create({ model: "m", messages: ask("skip me"), temperature: 2 });
      expect(hot.semcache).toBeUndefined();
    }
    expect(h.server.modelCalls()).toBe(4);
    expect(h.bodies(CHAT).slice(-1)[0].temperature).toBe(2);
    expect(h.cache.report.skips).toBe(3);
  });

  it("a session does not hit the entry it created; another session does", async () => {
    const h = await setup();
    const alice = new Session({ name: "alice", cache: h.cache });
    await h.openai.chat.completions.create({ model: "m", messages: ask("a question"), session: alice });
    expect((await h.openai.chat.completions.create({ model: "m", messages: ask("a question"), session: alice })).semcache).toBeUndefined();
    expect((await h.openai.chat.completions.create({ model: "m", messages: ask("a question"), session: "bob" })).semcache?.hit).toBe(true);
    expect(h.server.modelCalls()).toBe(2);
  });

  it("partitions by model and answer-changing settings: one prompt never shares an answer across them", async () => {
    const h = await setup({ server: { reply: (body) => `${String(body.model)} says hi (${String(body.reasoning_effort ?? "default")})` } });
    const text = async (body: Record<string, unknown>) =>
      (await h.openai.chat.completions.create({ model: "m", messages: ask("hello"), ...body } as ChatCompletionCreateParamsNonStreaming)).choices[0].message
        .content;
    expect(await text({ model: "a" })).toBe("a says hi (default)");
    expect(await text({ model: "b" })).toBe("b says hi (default)");
    expect(await text({ model: "a", reasoning_effort: "high" })).toBe("a says hi (high)");
    expect(h.server.modelCalls()).toBe(3);
    expect(await text({ model: "b" })).toBe("b says hi (default)");
    expect(await text({ model: "a", reasoning_effort: "high" })).toBe("a says hi (high)");
    // Stream options, user and metadata do not change the answer: these still hit.
    expect(await text({ model: "a", user: "u1", metadata: { team: "x" } })).toBe("a says hi (default)");
    expect(h.server.modelCalls()).toBe(3);
  });

  it("the messages before the question partition: another system prompt or earlier turn never shares an answer", async () => {
    const h = await setup();
    const create = (messages: ChatCompletionCreateParamsNonStreaming["messages"]) => h.openai.chat.completions.create({ model: "m", messages });
    const conversation = (name: string): ChatCompletionCreateParamsNonStreaming["messages"] => [
      { role: "user", content: `My name is ${name}.` },
      { role: "assistant", content: "Nice to meet you." },
      { role: "user", content: "What is my name?" },
    ];
    await create(conversation("Alice"));
    expect((await create(conversation("Bob"))).semcache).toBeUndefined();
    expect((await create([{ role: "system", content: "Answer in French." }, ...ask("What is a cache?")])).semcache).toBeUndefined();
    expect((await create(ask("What is a cache?"))).semcache).toBeUndefined();
    expect((await create(conversation("Alice"))).semcache).toMatchObject({ hit: true });
    expect((await create([{ role: "system", content: "Answer in French." }, ...ask("What is a cache?")])).semcache).toMatchObject({ hit: true });
    expect(h.server.modelCalls()).toBe(4);

    // An assistant prefill is the keyed message: the questions before it partition.
    const prefilled = (country: string) => create([{ role: "user", content: `Capital of ${country}?` }, { role: "assistant", content: "The answer is:" }]);
    await prefilled("France");
    expect((await prefilled("Spain")).semcache).toBeUndefined();
    expect(h.server.modelCalls()).toBe(6);
  });

  it("share_across_contexts (or the wrapper's shareAcrossContexts) shares answers across system prompts, said explicitly", async () => {
    const h = await setup({ wrap: { shareAcrossContexts: true } });
    const inFrench = [{ role: "system" as const, content: "Answer in French." }, ...ask("What is a cache?")];
    await h.openai.chat.completions.create({ model: "m", messages: ask("What is a cache?") });
    expect((await h.openai.chat.completions.create({ model: "m", messages: inFrench })).semcache).toMatchObject({ hit: true });
    // A body's own choice wins over the wrapper's, and never reaches the provider.
    expect((await h.openai.chat.completions.create({ model: "m", messages: inFrench, share_across_contexts: false })).semcache).toBeUndefined();
    expect(h.server.modelCalls()).toBe(2);
    expect(h.bodies(CHAT).every((body) => !("share_across_contexts" in body))).toBe(true);
    await expect(h.openai.chat.completions.create({ model: "m", messages: inFrench, share_across_contexts: "yes" as never })).rejects.toThrow(ValidationError);
    expect(() => wrapOpenAI(h.client, { shareAcrossContexts: 1 as never })).toThrow(ValidationError);
  });

  it("removes the cache options from the body; every other field reaches the provider untouched", async () => {
    const h = await setup();
    await h.openai.chat.completions.create({
      model: "m",
      messages: ask("fields"),
      temperature: 0,
      cache_skip: false,
      cache_context: {},
      session: "s1",
      top_k: 3,
      search_only: false,
      cache_args: { a: 1 },
      custom_field: { nested: [1, 2] },
    } as never);
    const [sent] = h.bodies(CHAT);
    expect(sent).toEqual({ model: "m", messages: ask("fields"), temperature: 0, custom_field: { nested: [1, 2] } });
  });

  it.each([
    ["cache_skip", { cache_skip: "yes" }],
    ["top_k", { top_k: 0 }],
    ["session", { session: 5 }],
    ["cache_obj", { cache_obj: {} }],
    ["cache_context", { cache_context: "x" }],
    ["cache_context stage", { cache_context: { no_such_stage: 1 } }],
    ["temperature", { temperature: 3 }],
    ["search_only", { search_only: 1 }],
    ["llm", { llm: "gpt" }],
    ["cache_args", { cache_args: [1] }],
  ])("a wrong %s gives a ValidationError before any upstream call", async (_name, bad) => {
    const h = await setup();
    await expect(h.openai.chat.completions.create({ model: "m", messages: ask("q"), ...bad } as never)).rejects.toBeInstanceOf(ValidationError);
    await expect(h.openai.chat.completions.create({ model: "m", messages: ask("q"), stream: true, ...bad } as never)).rejects.toBeInstanceOf(
      ValidationError,
    );
    // Requests the cache passes through (tools) check their options too.
    const tools = [{ type: "function" as const, function: { name: "f", parameters: {} } }];
    await expect(h.openai.chat.completions.create({ model: "m", messages: ask("q"), tools, ...bad } as never)).rejects.toBeInstanceOf(ValidationError);
    expect(h.server.requests).toHaveLength(0);
  });

  it("search_only answers from the cache only: a miss is null and calls nothing", async () => {
    const h = await setup();
    expect(await h.openai.chat.completions.create({ model: "m", messages: ask("only cached"), search_only: true })).toBeNull();
    expect(await h.openai.chat.completions.create({ model: "m", messages: ask("only cached"), stream: true, search_only: true })).toBeNull();
    expect(h.server.requests).toHaveLength(0);
    await h.openai.chat.completions.create({ model: "m", messages: ask("only cached") });
    const hit = await h.openai.chat.completions.create({ model: "m", messages: ask("only cached"), search_only: true });
    expect(hit?.choices[0].message.content).toBe("Echo: only cached");
  });

  it("a miss may go to a user function (llm) with cache_args instead of the client", async () => {
    const h = await setup();
    const seen: unknown[] = [];
    const llm = async (body: { messages: unknown[] }, options: { cacheArgs?: Record<string, unknown> }) => {
      seen.push({ body, args: options.cacheArgs });
      return {
        id: "local-1",
        object: "chat.completion" as const,
        created: 0,
        model: "local",
        choices: [{ index: 0, message: { role: "assistant" as const, content: "from the local model", refusal: null }, logprobs: null, finish_reason: "stop" as const }],
      };
    };
    const body = { model: "local", messages: ask("run locally"), llm, cache_args: { device: "cpu" } };
    expect((await h.openai.chat.completions.create(body)).choices[0].message.content).toBe("from the local model");
    expect((await h.openai.chat.completions.create(body)).semcache?.hit).toBe(true);
    expect(seen).toEqual([{ body: { model: "local", messages: ask("run locally") }, args: { device: "cpu" } }]);
    expect(h.server.requests).toHaveLength(0);
  });

  it("vision: the same picture with the same question hits; another picture never shares the answer", async () => {
    const h = await setup();
    const look = (url: string, question = "What is in this picture?") =>
      h.openai.chat.completions.create({
        model: "m",
        messages: [{ role: "user", content: [{ type: "text", text: question }, { type: "image_url", image_url: { url } }] }],
      });
    const cat = await look("data:image/png;base64,Y2F0");
    const dog = await look("data:image/png;base64,ZG9n");
    expect(cat.choices[0].message.content).not.toBe(dog.choices[0].message.content);
    const catAgain = await look("data:image/png;base64,Y2F0");
    expect(catAgain.semcache?.hit).toBe(true);
    expect(catAgain.choices[0].message.content).toBe(cat.choices[0].message.content);
    expect((await look("data:image/png;base64,Y2F0", "How many animals?")).semcache).toBeUndefined();
    expect(h.server.modelCalls()).toBe(3);
  });

  it("requests whose answer is not one text (tools, several choices, log probabilities) pass through uncached", async () => {
    const h = await setup();
    const tools = [{ type: "function" as const, function: { name: "lookup", parameters: { type: "object", properties: {} } } }];
    for (const extra of [{ tools }, { n: 2 }, { logprobs: true }]) {
      await h.openai.chat.completions.create({ model: "m", messages: ask("same"), ...extra });
      await h.openai.chat.completions.create({ model: "m", messages: ask("same"), ...extra });
    }
    expect(h.server.modelCalls()).toBe(6);
    expect(await h.cache.dataManager.count()).toBe(0);
  });

  it("a cache fault never changes the provider's answer or error", async () => {
    const errors: Error[] = [];
    const h = await setup({
      server: { fail: (body) => (body.model === "broken" ? 500 : undefined) },
      cache: (dir) => ({ dataManager: managerFactory("sqlite", { dataDir: dir }), onError: (e) => errors.push(e) }),
    });
    await h.cache.dataManager.scalar.close(); // every query now throws
    const wrapped = await h.openai.chat.completions.create({ model: "m", messages: ask("still answered") });
    const direct = await h.client.chat.completions.create({ model: "m", messages: ask("still answered") });
    expect(wrapped.choices).toEqual(direct.choices);
    expect(wrapped.usage).toEqual(direct.usage);
    const streamed = await collect(await h.openai.chat.completions.create({ model: "m", messages: ask("still answered"), stream: true }));
    expect(streamed.map((chunk) => chunk.choices[0]?.delta?.content ?? "").join("")).toBe("Echo: still answered");
    await expect(h.openai.chat.completions.create({ model: "broken", messages: ask("x") })).rejects.toMatchObject({ status: 500 });
    expect(errors.length).toBeGreaterThanOrEqual(2);
    expect(h.cache.report.errors).toBe(errors.length);
    await h.cache.dataManager.scalar.init(); // reopen, so the harness can close it
  });

  it("an uninitialised cache is a NotInitError; a client that is not one is a ValidationError", async () => {
    const h = await setup();
    const openai = wrapOpenAI(h.client, { cache: new Cache() });
    await expect(openai.chat.completions.create({ model: "m", messages: ask("q") })).rejects.toBeInstanceOf(NotInitError);
    expect(() => wrapOpenAI({} as OpenAI)).toThrow(ValidationError);
    expect(h.server.requests).toHaveLength(0);
  });

  it("the wrapper's cacheOptions apply to every call; a body's own options override them", async () => {
    const h = await setup({ wrap: { cacheOptions: { noStore: true, session: "everyone" } } });
    await h.openai.chat.completions.create({ model: "m", messages: ask("not kept") });
    expect(await h.cache.dataManager.count()).toBe(0);
    const stored = wrapOpenAI(h.client, { cache: h.cache, cacheOptions: { session: "writer" } });
    await stored.chat.completions.create({ model: "m", messages: ask("kept") });
    expect((await h.openai.chat.completions.create({ model: "m", messages: ask("kept") })).semcache?.hit).toBe(true);
    expect((await stored.chat.completions.create({ model: "m", messages: ask("kept") })).semcache).toBeUndefined();
    expect((await stored.chat.completions.create({ model: "m", messages: ask("kept"), session: "reader" })).semcache?.hit).toBe(true);
  });

  it("every other member of the client is the client's own", async () => {
    const h = await setup();
    const embedding = await h.openai.embeddings.create({ model: "e", input: "text" });
    expect(embedding.data[0].embedding).toHaveLength(64);
    expect(h.openai.baseURL).toBe(h.client.baseURL);
    expect(h.server.count("/v1/embeddings")).toBe(1);
  });
});
