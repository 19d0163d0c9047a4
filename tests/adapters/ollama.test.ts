/** Ollama's /api/chat and /api/generate through the cache, against a fake server speaking Ollama's wire format. */
import { Config, NotInitError, Cache, MapDataManager, ValidationError } from "../../src/index.js";
import {
  cachedOllama,
  cachedOllamaChat,
  ModelServerError,
  type CachedOllamaOptions,
  type Marked,
  type OllamaChatResponse,
  type OllamaGenerateResponse,
  type OllamaMessage,
} from "../../src/adapters/local-models/index.js";
import { ManualClock, startFakeOllama, type FakeOllamaOptions } from "../../src/testing/index.js";
import { aborted, closeAll, collect, defer, newCache, semantic, sqliteOnly } from "./local-models-harness.js";

afterEach(closeAll);

async function setup(options: { server?: FakeOllamaOptions; cache?: Parameters<typeof newCache>[0]; client?: Omit<CachedOllamaOptions, "cache" | "host"> } = {}) {
  const server = await startFakeOllama(options.server);
  defer(() => server.close());
  const cache = await newCache(options.cache);
  const ollama = cachedOllama({ ...options.client, cache, host: server.url });
  const bodies = (path: string) => server.requests.filter((request) => request.path === path).map((request) => request.json ?? {});
  return { server, cache, ollama, bodies };
}

const ask = (content: string): OllamaMessage[] => [{ role: "user", content }];
const METRICS = ["total_duration", "load_duration", "prompt_eval_count", "prompt_eval_duration", "eval_count", "eval_duration"];
const ZERO_METRICS = Object.fromEntries(METRICS.map((name) => [name, 0]));

describe("cachedOllama: /api/chat", () => {
  it("a miss returns Ollama's answer unchanged; a repeat is a hit in Ollama's shape, marked, with zero counts", async () => {
    const h = await setup();
    const miss = await h.ollama.chat({ model: "llama3.2", messages: ask("Why is the sky blue?") });
    expect(miss).toMatchObject({ model: "llama3.2", message: { role: "assistant", content: "Echo: Why is the sky blue?" }, done: true, done_reason: "stop" });
    expect(miss.eval_count).toBeGreaterThan(0);
    expect(miss.semcache).toBeUndefined();
    // The client asks for one answer, as the `ollama` package does.
    expect(h.bodies("/api/chat")[0]).toEqual({ model: "llama3.2", messages: ask("Why is the sky blue?"), stream: false });

    const hit = await h.ollama.chat({ model: "llama3.2", messages: ask("Why is the sky blue?") });
    expect(hit).toEqual({
      model: "llama3.2",
      created_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d/),
      message: { role: "assistant", content: "Echo: Why is the sky blue?" },
      done_reason: "stop",
      done: true,
      ...ZERO_METRICS,
      semcache: { hit: true, score: 1, id: expect.any(Number) },
    });
    expect(h.server.modelCalls()).toBe(1);
    expect(h.cache.report.hits).toBe(1);
  });

  it("on a semantic cache a reworded question hits with its score", async () => {
    const h = await setup({ cache: semantic });
    await h.ollama.chat({ model: "llama3.2", messages: ask("what is the capital city of France") });
    const hit = await h.ollama.chat({ model: "llama3.2", messages: ask("what is the capital of France") });
    expect(hit.message.content).toBe("Echo: what is the capital city of France");
    expect(hit.semcache?.score).toBeGreaterThan(0.8);
    expect(hit.semcache?.score).toBeLessThan(1);
    expect(h.server.modelCalls()).toBe(1);
  });

  it("a stream miss passes Ollama's NDJSON lines through and stores the text only once the done line came", async () => {
    const h = await setup({ server: { streamDelayMs: 5 } });
    const stream = await h.ollama.chat({ model: "m", messages: ask("tell me a story"), stream: true });
    const lines: Array<Marked<OllamaChatResponse>> = [];
    for await (const line of stream) {
      lines.push(line);
      if (!line.done) expect(await h.cache.dataManager.count()).toBe(0);
    }
    expect(lines.map((line) => line.message.content).join("")).toBe("Echo: tell me a story");
    expect(lines.every((line) => line.semcache === undefined)).toBe(true);
    expect(lines.at(-1)).toMatchObject({ done: true, done_reason: "stop", message: { content: "" }, eval_count: 5 });
    expect(h.bodies("/api/chat")[0].stream).toBe(true);
    expect(await h.cache.dataManager.count()).toBe(1);
    // Streamed and not streamed share entries.
    expect((await h.ollama.chat({ model: "m", messages: ask("tell me a story") })).semcache?.hit).toBe(true);
    expect(h.server.modelCalls()).toBe(1);
  });

  it("a stream hit replays NDJSON-shaped lines a few words each, every one marked, the last `done: true` with the counts", async () => {
    const h = await setup({ server: { reply: () => "Rayleigh scattering makes short blue wavelengths spread across the sky." } });
    await h.ollama.chat({ model: "m", messages: ask("sky?") });
    const lines = await collect(await h.ollama.chat({ model: "m", messages: ask("sky?"), stream: true }));
    const pieces = lines.slice(0, -1);
    expect(pieces.length).toBeGreaterThan(1);
    for (const line of pieces) {
      expect(line).toEqual({ model: "m", created_at: expect.any(String), message: { role: "assistant", content: expect.any(String) }, done: false, semcache: expect.objectContaining({ hit: true }) });
    }
    expect(pieces.map((line) => line.message.content).join("")).toBe("Rayleigh scattering makes short blue wavelengths spread across the sky.");
    expect(lines.at(-1)).toEqual({
      model: "m",
      created_at: expect.any(String),
      message: { role: "assistant", content: "" },
      done_reason: "stop",
      done: true,
      ...ZERO_METRICS,
      semcache: { hit: true, score: 1, id: expect.any(Number) },
    });
    expect(h.server.modelCalls()).toBe(1);
  });

  it("a stream left early stores nothing and stops the request; an answer cut by num_predict is passed on, not stored", async () => {
    const h = await setup({ server: { streamDelayMs: 20 } });
    for await (const line of await h.ollama.chat({ model: "m", messages: ask("one two three four five"), stream: true })) {
      expect(line.done).toBe(false);
      break;
    }
    await aborted(h.server.requests[0].signal);
    expect(h.server.requests[0].signal.aborted).toBe(true); // the connection was closed: Ollama stops generating
    const cut = await h.ollama.chat({ model: "m", messages: ask("one two three four five"), options: { num_predict: 2 } });
    expect(cut).toMatchObject({ message: { content: "Echo: one " }, done_reason: "length" });
    const cutStream = await collect(await h.ollama.chat({ model: "m", messages: ask("one two three four five"), options: { num_predict: 2 }, stream: true }));
    expect(cutStream.at(-1)?.done_reason).toBe("length");
    expect(await h.cache.dataManager.count()).toBe(0);
    expect((await h.ollama.chat({ model: "m", messages: ask("one two three four five"), options: { num_predict: 2 } })).semcache).toBeUndefined();
    expect(h.server.modelCalls()).toBe(4);
  });

  it("the messages before the question partition: another system prompt, or Alice's name against Bob's, never shares an answer", async () => {
    const h = await setup({
      server: {
        reply: (body) => {
          const messages = body.messages as OllamaMessage[];
          const name = /My name is (\w+)/.exec(messages.map((message) => message.content).join(" "))?.[1];
          const system = messages.find((message) => message.role === "system")?.content;
          return name ? `Your name is ${name}.` : `${system ?? "plain"}: ${messages.at(-1)?.content}`;
        },
      },
    });
    const conversation = (name: string): OllamaMessage[] => [
      { role: "user", content: `My name is ${name}.` },
      { role: "assistant", content: "Nice to meet you." },
      { role: "user", content: "What is my name?" },
    ];
    const chat = (messages: OllamaMessage[]) => h.ollama.chat({ model: "m", messages });
    expect((await chat(conversation("Alice"))).message.content).toBe("Your name is Alice.");
    const bob = await chat(conversation("Bob"));
    expect(bob.message.content).toBe("Your name is Bob.");
    expect(bob.semcache).toBeUndefined();
    const french = [{ role: "system", content: "Answer in French." }, ...ask("What is a cache?")];
    const pirate = [{ role: "system", content: "Talk like a pirate." }, ...ask("What is a cache?")];
    expect((await chat(french)).message.content).toBe("Answer in French.: What is a cache?");
    expect((await chat(pirate)).message.content).toBe("Talk like a pirate.: What is a cache?");
    expect((await chat(ask("What is a cache?"))).semcache).toBeUndefined();
    expect(h.server.modelCalls()).toBe(5);
    expect((await chat(conversation("Alice"))).message.content).toBe("Your name is Alice.");
    expect((await chat(french)).semcache).toMatchObject({ hit: true });
    expect(h.server.modelCalls()).toBe(5);
    // Said explicitly, answers are shared across contexts: the lone question's answer serves the pirate.
    const shared = await h.ollama.chat({ model: "m", messages: pirate, share_across_contexts: true });
    expect(shared.message.content).toBe("plain: What is a cache?");
    expect(shared.semcache?.hit).toBe(true);
    expect(h.bodies("/api/chat").every((body) => !("share_across_contexts" in body))).toBe(true);
  });

  it("the same question about another picture never hits", async () => {
    const h = await setup();
    const look = (image: string) => h.ollama.chat({ model: "llava", messages: [{ role: "user", content: "What is in this picture?", images: [image] }] });
    await look("aW1hZ2Ugb25l");
    expect((await look("aW1hZ2UgdHdv")).semcache).toBeUndefined();
    expect((await look("aW1hZ2Ugb25l")).semcache?.hit).toBe(true);
    expect(h.server.modelCalls()).toBe(2);
  });

  it("partitions by model and by the options that change the answer (temperature, seed, format); not by keep_alive or where the model runs", async () => {
    // A fixed random source: a temperature below 2 never skips the cache here.
    const h = await setup({ cache: { config: new Config({ random: () => 0.99 }) }, server: { reply: (body) => `${String(body.model)} ${JSON.stringify(body.options ?? {})}` } });
    const chat = (extra: Record<string, unknown>) => h.ollama.chat({ model: "a", messages: ask("hello"), ...extra });
    await chat({});
    expect((await chat({ model: "b" })).message.content).toBe("b {}");
    expect((await chat({ options: { temperature: 0.7 } })).semcache).toBeUndefined();
    expect((await chat({ options: { temperature: 0.7, seed: 42 } })).semcache).toBeUndefined();
    expect((await chat({ options: { temperature: 0.7, seed: 7 } })).semcache).toBeUndefined();
    expect((await chat({ format: "json" })).semcache).toBeUndefined();
    expect(h.server.modelCalls()).toBe(6);
    expect((await chat({ options: { temperature: 0.7, seed: 42 } })).message.content).toBe('a {"temperature":0.7,"seed":42}');
    expect((await chat({ keep_alive: "10m", options: { num_thread: 8, num_gpu: 0, seed: undefined } })).message.content).toBe("a {}");
    expect((await chat({ model: "b" })).semcache?.hit).toBe(true);
    expect(h.server.modelCalls()).toBe(6);
  });

  it("options.temperature drives the cache's temperature rule: at 2 the cache is never read, though the answer is stored", async () => {
    const h = await setup();
    for (let i = 0; i < 2; i++) expect((await h.ollama.chat({ model: "m", messages: ask("hot"), options: { temperature: 2 } })).semcache).toBeUndefined();
    expect(h.cache.report.skips).toBe(2);
    expect(await h.cache.dataManager.count()).toBe(2);
    expect(h.bodies("/api/chat")[0].options).toEqual({ temperature: 2 });
    // The call's own cache temperature wins.
    expect((await h.ollama.chat({ model: "m", messages: ask("hot"), options: { temperature: 2 } }, { cacheOptions: { temperature: 0 } })).semcache?.hit).toBe(true);
  });

  it("cache options: cache_skip, search_only, and per call or per client noStore and maxAgeSeconds", async () => {
    const clock = new ManualClock();
    const h = await setup({ cache: { dataManager: new MapDataManager({ clock }) } });
    const body = { model: "m", messages: ask("options?") };
    expect(await h.ollama.chat({ ...body, search_only: true })).toBeNull();
    expect(await h.ollama.chat({ ...body, stream: true, search_only: true })).toBeNull();
    expect(h.server.modelCalls()).toBe(0);
    await h.ollama.chat(body, { cacheOptions: { noStore: true } });
    expect(await h.cache.dataManager.count()).toBe(0);
    await h.ollama.chat(body);
    expect((await h.ollama.chat({ ...body, cache_skip: true })).semcache).toBeUndefined();
    expect(h.bodies("/api/chat").every((sent) => !("cache_skip" in sent))).toBe(true);
    expect((await h.ollama.chat({ ...body, search_only: true }))?.semcache?.hit).toBe(true);
    clock.advance(20);
    expect((await h.ollama.chat(body, { cacheOptions: { maxAgeSeconds: 0.01 } })).semcache).toBeUndefined();
    expect(h.server.modelCalls()).toBe(4);

    const noStore = cachedOllama({ cache: h.cache, host: h.server.url, cacheOptions: { noStore: true } });
    await noStore.chat({ model: "m", messages: ask("never kept") });
    expect((await noStore.chat({ model: "m", messages: ask("never kept") })).semcache).toBeUndefined();
  });

  it("requests whose answer is not one text go to Ollama uncached: tools, thinking, a tool's result, a model load", async () => {
    const h = await setup();
    const tools = [{ type: "function", function: { name: "weather", parameters: { type: "object", properties: {} } } }];
    const requests = [
      { model: "m", messages: ask("weather?"), tools },
      { model: "m", messages: ask("think first"), think: true },
      { model: "m", messages: [...ask("weather?"), { role: "tool", content: "sunny", tool_name: "weather" }] },
    ];
    for (const request of requests) for (let i = 0; i < 2; i++) await h.ollama.chat(request);
    const load = await h.ollama.chat({ model: "m", messages: [] });
    expect(load.done_reason).toBe("load");
    expect(h.server.modelCalls()).toBe(7);
    expect(await h.cache.dataManager.count()).toBe(0);
  });

  it("Ollama's errors reach the caller as ModelServerError with the status and body; nothing is stored", async () => {
    const h = await setup({ server: { fail: (body) => (body.model === "missing" ? 404 : undefined) } });
    const error = await h.ollama.chat({ model: "missing", messages: ask("anything") }).catch((e: unknown) => e);
    expect(ModelServerError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ status: 404, body: { error: "fake failure 404" }, message: "fake failure 404" });
    await expect(h.ollama.chat({ model: "missing", messages: ask("anything"), stream: true })).rejects.toMatchObject({ status: 404 });
    await expect(h.ollama.generate({ model: "", prompt: "x" })).rejects.toMatchObject({ status: 400, message: "model is required" });
    expect(await h.cache.dataManager.count()).toBe(0);
  });

  it("an error line inside a stream fails the stream and stores nothing", async () => {
    const h = await setup();
    async function* failing(): AsyncGenerator<OllamaChatResponse> {
      yield { model: "m", created_at: new Date().toISOString(), message: { role: "assistant", content: "partial " }, done: false };
      throw new ModelServerError("an error was encountered while running the model", undefined, { error: "an error was encountered while running the model" });
    }
    const stream = await h.ollama.chat({ model: "m", messages: ask("q"), stream: true, llm: () => failing() });
    await expect(collect(stream)).rejects.toThrow("an error was encountered");
    expect(await h.cache.dataManager.count()).toBe(0);
  });

  it("a cache fault never changes Ollama's answer or error: it is counted and the call goes on", async () => {
    const errors: Error[] = [];
    const h = await setup({ cache: sqliteOnly((error) => errors.push(error)), server: { fail: (body) => (body.model === "broken" ? 500 : undefined) } });
    await h.cache.dataManager.scalar.close(); // every query now throws
    expect((await h.ollama.chat({ model: "m", messages: ask("still answered") })).message.content).toBe("Echo: still answered");
    const lines = await collect(await h.ollama.chat({ model: "m", messages: ask("still answered"), stream: true }));
    expect(lines.map((line) => line.message.content).join("")).toBe("Echo: still answered");
    expect((await h.ollama.generate({ model: "m", prompt: "still generated" })).response).toBe("Echo: still generated");
    await expect(h.ollama.chat({ model: "broken", messages: ask("x") })).rejects.toMatchObject({ status: 500 });
    expect(errors.length).toBeGreaterThanOrEqual(3);
    expect(h.cache.report.errors).toBe(errors.length);
    await h.cache.dataManager.scalar.init(); // reopen, so the cache closes cleanly
  });

  it("an uninitialised cache is a NotInitError; wrong options are ValidationErrors, before any call", async () => {
    const h = await setup();
    const uninitialised = cachedOllama({ cache: new Cache(), host: h.server.url });
    await expect(uninitialised.chat({ model: "m", messages: ask("q") })).rejects.toBeInstanceOf(NotInitError);
    await expect(h.ollama.chat({ model: "m", messages: ask("q"), cache_skip: "yes" as never })).rejects.toBeInstanceOf(ValidationError);
    expect(() => cachedOllama({ cache: {} as never })).toThrow(ValidationError);
    expect(() => cachedOllama({ host: "" })).toThrow(ValidationError);
    expect(h.server.modelCalls()).toBe(0);
  });
});

describe("cachedOllama: /api/generate", () => {
  it("miss then hit in /api/generate's shape (no `context`: a hit ran no model); its own namespace apart from chat", async () => {
    const h = await setup();
    const miss = await h.ollama.generate({ model: "llama3.2", prompt: "Why is the sky blue?" });
    expect(miss).toMatchObject({ model: "llama3.2", response: "Echo: Why is the sky blue?", done: true, done_reason: "stop", context: [1, 2, 3] });
    const hit = await h.ollama.generate({ model: "llama3.2", prompt: "Why is the sky blue?" });
    expect(hit).toEqual({
      model: "llama3.2",
      created_at: expect.any(String),
      response: "Echo: Why is the sky blue?",
      done: true,
      done_reason: "stop",
      ...ZERO_METRICS,
      semcache: { hit: true, score: 1, id: expect.any(Number) },
    });
    expect((await h.ollama.chat({ model: "llama3.2", messages: ask("Why is the sky blue?") })).semcache).toBeUndefined();
    expect(h.server.modelCalls()).toBe(2);
  });

  it("streams: a miss passes the lines through; a hit replays `response` pieces ending with a done line", async () => {
    const h = await setup();
    const missLines = await collect(await h.ollama.generate({ model: "m", prompt: "count one two three four", stream: true }));
    expect(missLines.map((line) => line.response).join("")).toBe("Echo: count one two three four");
    expect(missLines.at(-1)).toMatchObject({ done: true, done_reason: "stop", context: [1, 2, 3] });
    const hitLines: Array<Marked<OllamaGenerateResponse>> = await collect(await h.ollama.generate({ model: "m", prompt: "count one two three four", stream: true }));
    expect(hitLines.slice(0, -1).map((line) => line.response).join("")).toBe("Echo: count one two three four");
    expect(hitLines.slice(0, -1).every((line) => line.done === false && line.semcache?.hit === true)).toBe(true);
    expect(hitLines.at(-1)).toEqual({ model: "m", created_at: expect.any(String), response: "", done: true, done_reason: "stop", ...ZERO_METRICS, semcache: expect.objectContaining({ hit: true }) });
    expect(h.server.modelCalls()).toBe(1);
  });

  it("system, template and options partition; an empty prompt (a model load) goes through uncached", async () => {
    const h = await setup();
    await h.ollama.generate({ model: "m", prompt: "hello" });
    expect((await h.ollama.generate({ model: "m", prompt: "hello", system: "Be brief." })).semcache).toBeUndefined();
    expect((await h.ollama.generate({ model: "m", prompt: "hello", options: { seed: 1 } })).semcache).toBeUndefined();
    expect((await h.ollama.generate({ model: "m", prompt: "hello", raw: true })).semcache).toBeUndefined();
    expect((await h.ollama.generate({ model: "m", prompt: "hello", system: "Be brief." })).semcache?.hit).toBe(true);
    await h.ollama.generate({ model: "m", prompt: "" });
    await h.ollama.generate({ model: "m", prompt: "" });
    expect(h.server.modelCalls()).toBe(6);
  });
});

describe("cachedOllamaChat: the low-level flow", () => {
  it("reads a body as Ollama does (no `stream`: a stream), with any upstream, and reports each outcome", async () => {
    const h = await setup();
    const sent: unknown[] = [];
    const upstream = async (body: { stream?: boolean }) => {
      sent.push(body);
      const response = await fetch(`${h.server.url}/api/chat`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
      if (!body.stream) return (await response.json()) as OllamaChatResponse;
      const text = await response.text();
      return (async function* () {
        for (const line of text.trim().split("\n")) yield JSON.parse(line) as OllamaChatResponse;
      })();
    };
    const miss = await cachedOllamaChat(h.cache, { model: "m", messages: ask("wire?") }, { upstream });
    expect(miss.outcome).toEqual({ status: "MISS" });
    expect(sent[0]).toEqual({ model: "m", messages: ask("wire?"), stream: true });
    const lines = await collect(miss.result as AsyncIterable<OllamaChatResponse>);
    expect(lines.at(-1)?.done).toBe(true);
    const hit = await cachedOllamaChat(h.cache, { model: "m", messages: ask("wire?"), stream: false }, { upstream, cacheOptions: { noStore: true } });
    expect(hit.outcome).toMatchObject({ status: "HIT", score: 1 });
    expect((hit.result as OllamaChatResponse).message.content).toBe("Echo: wire?");
    expect(sent).toHaveLength(1);
  });

  it("a host without a scheme is read as http", async () => {
    const h = await setup();
    const ollama = cachedOllama({ cache: h.cache, host: h.server.url.replace("http://", "") });
    expect(ollama.host).toBe(h.server.url);
    expect((await ollama.chat({ model: "m", messages: ask("scheme?") })).message.content).toBe("Echo: scheme?");
  });
});
