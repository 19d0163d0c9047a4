import { ChatOpenAI } from "@langchain/openai";
import OpenAI from "openai";
import { startFakeOpenAI, type FakeOpenAIServer } from "../../src/testing/index.js";
import { exactServer, expectErrorBody, type Listening } from "./helpers.js";

const question = (content: string) => [{ role: "user" as const, content }];

describe("POST /v1/chat/completions: the cached OpenAI-compatible proxy", () => {
  let upstream: FakeOpenAIServer;
  let server: Listening;

  beforeEach(async () => {
    upstream = await startFakeOpenAI({
      streamDelayMs: 0,
      fail: (body) => ({ unauthorized: 401, overloaded: 429, broken: 500 })[String(body.model)],
    });
    server = await exactServer({ settings: { upstream: { baseURL: upstream.baseURL } }, env: {} });
  });
  afterEach(async () => {
    await server.close();
    await upstream.close();
  });

  const client = (options: { apiKey?: string; headers?: Record<string, string> } = {}) =>
    new OpenAI({ baseURL: `${server.url}/v1`, apiKey: options.apiKey ?? "sk-caller", maxRetries: 0, defaultHeaders: options.headers });

  it("answers a repeated request from the cache with the real OpenAI SDK: x-semcache, score, Age, zero usage", async () => {
    const ask = () => client().chat.completions.create({ model: "gpt-4o", messages: question("What is the capital of France?") }).withResponse();
    const first = await ask();
    expect(first.response.headers.get("x-semcache")).toBe("MISS");
    expect(first.response.headers.get("age")).toBeNull();
    expect(first.data.choices[0].message.content).toBe("Echo: What is the capital of France?");

    const second = await ask();
    expect(second.response.headers.get("x-semcache")).toBe("HIT");
    expect(second.response.headers.get("x-semcache-score")).toBe("1.0000");
    expect(Number(second.response.headers.get("age"))).toBeGreaterThanOrEqual(0);
    expect(second.data.choices[0].message.content).toBe("Echo: What is the capital of France?");
    expect(second.data.object).toBe("chat.completion");
    expect(second.data.usage).toEqual({ prompt_tokens: 0, completion_tokens: 0, total_tokens: 0 });
    expect(upstream.modelCalls()).toBe(1);
    // Another model is another partition.
    await client().chat.completions.create({ model: "gpt-4o-mini", messages: question("What is the capital of France?") });
    expect(upstream.modelCalls()).toBe(2);
  });

  it("streams misses and hits as SSE in the provider's chunk shape, ending with data: [DONE]", async () => {
    const streamed = async () => {
      const { data: stream, response } = await client().chat.completions.create({ model: "gpt-4o", stream: true, messages: question("tell me a story") }).withResponse();
      let text = "";
      const objects = new Set<string>();
      for await (const chunk of stream) {
        objects.add(chunk.object);
        text += chunk.choices[0]?.delta?.content ?? "";
      }
      return { text, objects, status: response.headers.get("x-semcache"), type: response.headers.get("content-type") };
    };
    const miss = await streamed();
    expect(miss).toEqual({ text: "Echo: tell me a story", objects: new Set(["chat.completion.chunk"]), status: "MISS", type: expect.stringMatching(/^text\/event-stream/) });
    const hit = await streamed();
    expect(hit).toEqual({ ...miss, status: "HIT" });
    expect(upstream.modelCalls()).toBe(1);

    const raw = await server.post("/v1/chat/completions", { model: "gpt-4o", stream: true, messages: question("tell me a story") });
    const events = raw.body.trim().split("\n\n");
    expect(events[events.length - 1]).toBe("data: [DONE]");
    const chunks = events.slice(0, -1).map((event) => JSON.parse(event.replace(/^data: /, "")));
    expect(chunks[chunks.length - 1].choices[0].finish_reason).toBe("stop");
    // A non-stream request is answered from what the stream stored.
    const plain = await client().chat.completions.create({ model: "gpt-4o", messages: question("tell me a story") });
    expect(plain.choices[0].message.content).toBe("Echo: tell me a story");
    expect(upstream.modelCalls()).toBe(1);
  });

  it("follows Cache-Control: no-cache skips the lookup but stores, no-store never stores, max-age bounds the age", async () => {
    const ask = (content: string, cacheControl?: string) =>
      client({ headers: cacheControl ? { "cache-control": cacheControl } : {} }).chat.completions.create({ model: "gpt-4o", messages: question(content) }).withResponse();
    const status = async (content: string, cacheControl?: string) => (await ask(content, cacheControl)).response.headers.get("x-semcache");

    expect(await status("one", "no-store")).toBe("MISS");
    expect(await status("one")).toBe("MISS");
    expect(upstream.modelCalls()).toBe(2);
    expect(await status("one", "no-cache")).toBe("SKIP");
    expect(upstream.modelCalls()).toBe(3);
    expect(await status("one")).toBe("HIT");
    expect(await status("two")).toBe("MISS");
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(await status("two", "max-age=0")).toBe("MISS");
    expect(await status("two", "max-age=3600")).toBe("HIT");
  });

  it("keeps namespaces apart (x-semcache-namespace) and keeps the namespace out of the upstream body", async () => {
    const ask = (namespace: string) => client({ headers: { "x-semcache-namespace": namespace } }).chat.completions.create({ model: "gpt-4o", messages: question("shared") }).withResponse();
    expect((await ask("tenant-a")).response.headers.get("x-semcache")).toBe("MISS");
    expect((await ask("tenant-b")).response.headers.get("x-semcache")).toBe("MISS");
    expect((await ask("tenant-a")).response.headers.get("x-semcache")).toBe("HIT");
    expect(upstream.requests.every((request) => !("semcache_namespace" in (request.json ?? {})))).toBe(true);
    // A body field cannot pick a namespace either.
    const sneaky = await server.post("/v1/chat/completions", { model: "gpt-4o", messages: question("shared"), semcache_namespace: "tenant-a" });
    expect(sneaky.headers["x-semcache"]).toBe("MISS");
  });

  it("forwards the caller's key, or the configured one in its place", async () => {
    await client({ apiKey: "sk-caller" }).chat.completions.create({ model: "gpt-4o", messages: question("k1") });
    expect(upstream.requests.at(-1)?.headers.authorization).toBe("Bearer sk-caller");
    await server.close();
    server = await exactServer({ settings: { upstream: { baseURL: upstream.baseURL, apiKey: "sk-server" } } });
    await client({ apiKey: "sk-caller" }).chat.completions.create({ model: "gpt-4o", messages: question("k2") });
    expect(upstream.requests.at(-1)?.headers.authorization).toBe("Bearer sk-server");
  });

  it("never forwards a semcache API key upstream", async () => {
    await server.close();
    server = await exactServer({ settings: { apiKeys: ["semcache-key"], upstream: { baseURL: upstream.baseURL } }, env: { OPENAI_API_KEY: "sk-from-env" } });
    await expect(client({ apiKey: "wrong" }).chat.completions.create({ model: "gpt-4o", messages: question("x") })).rejects.toMatchObject({ status: 401 });
    await client({ apiKey: "semcache-key" }).chat.completions.create({ model: "gpt-4o", messages: question("x") });
    expect(upstream.requests.at(-1)?.headers.authorization).toBe("Bearer sk-from-env");
  });

  it("passes the upstream's 4xx errors through (the SDK raises its own error types) and answers 502 for its faults", async () => {
    await expect(client().chat.completions.create({ model: "unauthorized", messages: question("x") })).rejects.toBeInstanceOf(OpenAI.AuthenticationError);
    await expect(client().chat.completions.create({ model: "overloaded", messages: question("x") })).rejects.toBeInstanceOf(OpenAI.RateLimitError);
    const broken = await server.post("/v1/chat/completions", { model: "broken", messages: question("x") });
    expect(broken.statusCode).toBe(502);
    expectErrorBody(broken.body, "SEMCACHE_UPSTREAM");
    await upstream.close();
    const unreachable = await server.post("/v1/chat/completions", { model: "gpt-4o", messages: question("x") });
    expect(unreachable.statusCode).toBe(502);
    expectErrorBody(unreachable.body, "SEMCACHE_UPSTREAM");
    // The cache still answers what it holds.
  });

  it("sends requests the cache cannot hold (tools) upstream as SKIP", async () => {
    const tools = [{ type: "function" as const, function: { name: "f", parameters: { type: "object", properties: {} } } }];
    const ask = () => client().chat.completions.create({ model: "gpt-4o", messages: question("use a tool"), tools }).withResponse();
    expect((await ask()).response.headers.get("x-semcache")).toBe("SKIP");
    expect((await ask()).response.headers.get("x-semcache")).toBe("SKIP");
    expect(upstream.modelCalls()).toBe(2);
  });

  it("does not store a stream the client abandoned", async () => {
    await upstream.close();
    upstream = await startFakeOpenAI({ streamDelayMs: 30, reply: () => "one two three four five six seven eight nine ten" });
    await server.close();
    server = await exactServer({ settings: { upstream: { baseURL: upstream.baseURL } } });
    const controller = new AbortController();
    const stream = await client().chat.completions.create({ model: "gpt-4o", stream: true, messages: question("long") }, { signal: controller.signal });
    let received = "";
    // The SDK ends an aborted stream quietly (or with an AbortError, depending on when the abort lands).
    try {
      for await (const chunk of stream) {
        received += chunk.choices[0]?.delta?.content ?? "";
        if (received) controller.abort();
      }
    } catch (error) {
      expect((error as Error).name).toMatch(/Abort/);
    }
    expect(received.length).toBeGreaterThan(0);
    expect(received.length).toBeLessThan("one two three four five six seven eight nine ten".length);
    // Wait until the upstream has seen the abort, then ask again: still a miss.
    for (let i = 0; i < 100 && !upstream.requests[0]?.signal.aborted; i++) await new Promise((resolve) => setTimeout(resolve, 20));
    const again = await client().chat.completions.create({ model: "gpt-4o", messages: question("long") }).withResponse();
    expect(again.response.headers.get("x-semcache")).toBe("MISS");
    expect(upstream.modelCalls()).toBe(2);
  });

  it("works with LangChain's ChatOpenAI pointed at the server: invoke and .stream() hit the cache", async () => {
    const model = new ChatOpenAI({ model: "gpt-4o", apiKey: "sk-caller", configuration: { baseURL: `${server.url}/v1` }, maxRetries: 0 });
    expect((await model.invoke("What is a semantic cache?")).content).toBe("Echo: What is a semantic cache?");
    expect((await model.invoke("What is a semantic cache?")).content).toBe("Echo: What is a semantic cache?");
    const calls = upstream.modelCalls();
    expect(calls).toBe(1);
    let streamed = "";
    for await (const chunk of await model.stream("Name three colours")) streamed += chunk.content;
    expect(streamed).toBe("Echo: Name three colours");
    streamed = "";
    for await (const chunk of await model.stream("Name three colours")) streamed += chunk.content;
    expect(streamed).toBe("Echo: Name three colours");
    expect(upstream.modelCalls()).toBe(calls + 1);
  });
});
