import { BaseCallbackHandler } from "@langchain/core/callbacks/base";
import type { Generation, LLMResult } from "@langchain/core/outputs";
import { OpenAI } from "@langchain/openai";
import { Config, Session } from "../../src/index.js";
import { CachedLLM } from "../../src/langchain/cached-llm.js";
import type { SemcacheMarker } from "../../src/langchain/messages.js";
import type { FakeOpenAIOptions, FakeOpenAIServer } from "../../src/testing/index.js";
import { testResources } from "../helpers/langchain.js";

const PROMPT = "Name the largest planet in the solar system";
const ANSWER = `Echo: ${PROMPT}`;

const resources = testResources();
const { newCache } = resources;
afterEach(resources.closeAll);

/** Echoes the prompt (the SDK sends it as a string or, batched, as a list). */
const echo = (body: Record<string, unknown>) => `Echo: ${[body.prompt].flat().join(" | ")}`;

/** A fake OpenAI server for this test, echoing prompts unless told otherwise. */
const serve = (options: FakeOpenAIOptions = {}): Promise<FakeOpenAIServer> => resources.serve({ reply: echo, ...options });

function openAI(server: FakeOpenAIServer, fields: ConstructorParameters<typeof OpenAI>[0] = {}): OpenAI {
  return new OpenAI({ model: "gpt-instruct-test", apiKey: "test", configuration: { baseURL: server.baseURL }, maxRetries: 0, ...fields });
}

async function setup(serverOptions: FakeOpenAIOptions = {}) {
  const server = await serve(serverOptions);
  const cache = await newCache();
  const llm = new CachedLLM({ model: openAI(server), cache });
  return { server, cache, llm };
}

function markerOf(generation: Generation): SemcacheMarker | undefined {
  return generation.generationInfo?.semcache as SemcacheMarker | undefined;
}

async function collect<T>(stream: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const item of stream) out.push(item);
  return out;
}

describe("CachedLLM with OpenAI (completions)", () => {
  it("answers a repeat from the cache: marked generation, zero usage, no second model call", async () => {
    const { server, llm } = await setup();
    expect(await llm.invoke(PROMPT)).toBe(ANSWER);
    const result = await llm.generate([PROMPT]);
    expect(result.generations[0][0].text).toBe(ANSWER);
    expect(markerOf(result.generations[0][0])).toEqual({ hit: true, score: 1, id: expect.any(Number) });
    expect(result.llmOutput?.tokenUsage).toEqual({ promptTokens: 0, completionTokens: 0, totalTokens: 0 });
    expect(server.modelCalls()).toBe(1);
    expect([server.requests.at(-1)?.json?.prompt].flat()).toEqual([PROMPT]);
  });

  it("replays a stream hit as several text chunks, and passes a miss through before it completes", async () => {
    const { server, llm } = await setup({ streamDelayMs: 25 });
    const order: string[] = [];
    for await (const text of await llm.stream(PROMPT)) {
      if (!text || order.length > 0) continue;
      order.push("first chunk");
      if (!server.requests.at(-1)?.signal.aborted) order.push("upstream still streaming");
      order.push((await llm.invoke(PROMPT, { searchOnly: true })) === "" ? "not stored yet" : "stored early");
    }
    expect(order).toEqual(["first chunk", "upstream still streaming", "not stored yet"]);

    const chunks = await collect(await llm.stream(PROMPT));
    expect(chunks.length).toBeGreaterThan(1);
    expect(chunks.join("")).toBe(ANSWER);
    expect(server.modelCalls()).toBe(1);
  });

  it("an aborted stream closes the upstream connection and stores nothing", async () => {
    const long = Array.from({ length: 400 }, (_, i) => `word${i}`).join(" ");
    const { server, llm } = await setup({ streamDelayMs: 20, reply: () => long });
    const controller = new AbortController();
    let received = "";
    const consume = async () => {
      for await (const text of await llm.stream(PROMPT, { signal: controller.signal })) {
        received += text;
        if (received.includes("word1")) controller.abort();
      }
    };
    await expect(consume()).rejects.toThrow();
    // The full stream would take 8 s (past this test's timeout): the server sees the client go away now.
    const upstream = server.requests.at(-1)!.signal;
    if (!upstream.aborted) await new Promise((resolve) => upstream.addEventListener("abort", resolve));
    expect(received.length).toBeLessThan(long.length);
    expect(await llm.invoke(PROMPT, { searchOnly: true })).toBe("");
  });

  it("surfaces the wrapped LLM's own error and stores nothing", async () => {
    let failing = true;
    const server = await serve({ fail: () => (failing ? 503 : undefined) });
    const direct = await openAI(server).invoke(PROMPT).catch((error: unknown) => error);
    const llm = new CachedLLM({ model: openAI(server), cache: await newCache() });
    const viaCache = await llm.invoke(PROMPT).catch((error: unknown) => error);
    expect(direct).toBeInstanceOf(Error);
    expect((viaCache as Error).constructor).toBe((direct as Error).constructor);
    expect((viaCache as { status?: number }).status).toBe(503);
    failing = false;
    const calls = server.modelCalls();
    const result = await llm.generate([PROMPT]);
    expect(markerOf(result.generations[0][0])).toBeUndefined();
    expect(server.modelCalls()).toBe(calls + 1);
  });

  it("batch and multi-prompt generate: upstream calls equal the misses, usage only theirs", async () => {
    const { server, llm } = await setup();
    await llm.invoke("first");
    expect(await llm.batch(["first", "second", "third"])).toEqual(["Echo: first", "Echo: second", "Echo: third"]);
    expect(server.modelCalls()).toBe(3);
    const result = await llm.generate(["first", "fourth"]);
    expect(result.generations.map((generations) => markerOf(generations[0])?.hit)).toEqual([true, undefined]);
    const fourthOnly = await openAI(server).generate(["fourth"]);
    expect(result.llmOutput?.tokenUsage).toEqual(fourthOnly.llmOutput?.tokenUsage);
  });

  it("cacheSkip, temperature 2 and temperatureSkip at the model's 2 call the model; the cache's temperature option is not sent upstream", async () => {
    const server = await serve();
    const cache = await newCache();
    const llm = new CachedLLM({ model: openAI(server), cache });
    await llm.invoke(PROMPT);
    await llm.invoke(PROMPT, { cacheSkip: true });
    await llm.invoke(PROMPT, { temperature: 2 });
    expect(server.requests.at(-1)?.json).not.toHaveProperty("temperature");
    const hot = new CachedLLM({ model: openAI(server, { temperature: 2 }), cache, temperatureSkip: true });
    await hot.invoke(PROMPT);
    await hot.invoke(PROMPT);
    expect(server.modelCalls()).toBe(5);
    // Without temperatureSkip the model's temperature only partitions: its repeat is a hit.
    const deterministic = new CachedLLM({ model: openAI(server, { temperature: 2 }), cache });
    expect(markerOf((await deterministic.generate([PROMPT])).generations[0][0])).toMatchObject({ hit: true });
    expect(server.modelCalls()).toBe(5);
    expect(markerOf((await llm.generate([PROMPT])).generations[0][0])).toMatchObject({ hit: true });
  });

  it("partitions by model and temperature", async () => {
    const server = await serve();
    const cache = await newCache({ config: new Config({ random: () => 0.999 }) });
    const llms = [{ model: "a" }, { model: "b" }, { model: "a", temperature: 0.7 }].map(
      (fields) => new CachedLLM({ model: openAI(server, fields), cache }),
    );
    for (const llm of llms) await llm.invoke(PROMPT);
    for (const llm of llms) await llm.invoke(PROMPT);
    expect(server.modelCalls()).toBe(3);
  });

  it("sessions: bound or per call; a session does not hit its own entry until dropped", async () => {
    const server = await serve();
    const cache = await newCache();
    const alice = new CachedLLM({ model: openAI(server), cache, session: new Session({ name: "alice", cache }) });
    await alice.invoke(PROMPT);
    await alice.invoke(PROMPT);
    expect(server.modelCalls()).toBe(2);
    await alice.invoke(PROMPT, { session: "bob" });
    await collect(await alice.stream(PROMPT, { session: "carol" }));
    expect(server.modelCalls()).toBe(2);
    await new Session({ name: "alice", cache }).drop();
    await alice.invoke(PROMPT);
    expect(server.modelCalls()).toBe(2);
  });

  it("ten concurrent identical invokes make one model call", async () => {
    const { server, llm } = await setup();
    const answers = await Promise.all(Array.from({ length: 10 }, () => llm.generate([PROMPT])));
    expect(server.modelCalls()).toBe(1);
    expect(answers.map((answer) => answer.generations[0][0].text)).toEqual(Array(10).fill(ANSWER));
    const shared = answers.filter((answer) => markerOf(answer.generations[0][0]) !== undefined);
    expect(shared).toHaveLength(9);
    for (const answer of shared) {
      expect(markerOf(answer.generations[0][0])).toEqual({ hit: false, shared: true });
      expect(answer.llmOutput?.tokenUsage?.totalTokens).toBe(0);
    }
  });

  it("callbacks: tokens and one end per call, on hits and misses", async () => {
    const { llm } = await setup();
    const runs: Array<{ tokens: string[]; ends: LLMResult[] }> = [];
    const record = () => {
      const run = { tokens: [] as string[], ends: [] as LLMResult[] };
      runs.push(run);
      return BaseCallbackHandler.fromMethods({
        handleLLMNewToken: (token) => void run.tokens.push(token),
        handleLLMEnd: (output) => void run.ends.push(output),
      });
    };
    await collect(await llm.stream(PROMPT, { callbacks: [record()] }));
    await collect(await llm.stream(PROMPT, { callbacks: [record()] }));
    await llm.invoke(PROMPT, { callbacks: [record()] });
    for (const run of runs) {
      expect(run.tokens.join("")).toBe(ANSWER);
      expect(run.ends).toHaveLength(1);
    }
    expect(runs[1].tokens.length).toBeGreaterThan(1);
  });

  it("searchOnly: a miss returns an empty text marked hit: false, with no model call", async () => {
    const { server, llm } = await setup();
    expect(await llm.invoke(PROMPT, { searchOnly: true })).toBe("");
    expect(markerOf((await llm.generate([PROMPT], { searchOnly: true })).generations[0][0])).toEqual({ hit: false });
    expect(await collect(await llm.stream(PROMPT, { searchOnly: true }))).toEqual([""]);
    expect(server.modelCalls()).toBe(0);
  });

  it("rejects a model that is not a text LLM", () => {
    expect(() => new CachedLLM({ model: {} as never })).toThrow(/LLM/);
  });
});
