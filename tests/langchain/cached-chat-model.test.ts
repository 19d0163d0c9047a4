import { BaseCallbackHandler } from "@langchain/core/callbacks/base";
import { AIMessage, AIMessageChunk, HumanMessage, SystemMessage, ToolMessage, type BaseMessage } from "@langchain/core/messages";
import type { LLMResult } from "@langchain/core/outputs";
import { FakeStreamingChatModel } from "@langchain/core/utils/testing";
import { ChatOpenAI } from "@langchain/openai";
import { initChatModel } from "langchain";
import { concatAllQueries, Config, DistanceEvaluation, managerFactory, Session, ValidationError, type CacheInitOptions } from "../../src/index.js";
import { CachedChatModel } from "../../src/langchain/cached-chat-model.js";
import type { SemcacheMarker } from "../../src/langchain/messages.js";
import type { FakeOpenAIOptions, FakeOpenAIServer } from "../../src/testing/index.js";
import { BagOfWordsEmbedding, tempDir } from "../helpers/fixtures.js";
import { testResources } from "../helpers/langchain.js";

const QUESTION = "what is the capital of France";
const ANSWER = `Echo: ${QUESTION}`;
const TOOL = { type: "function" as const, function: { name: "lookup", description: "Looks a city up.", parameters: { type: "object", properties: {} } } };

const { closeAll, serve, newCache, push } = testResources();
afterEach(closeAll);

function chatModel(server: FakeOpenAIServer, fields: ConstructorParameters<typeof ChatOpenAI>[0] = {}): ChatOpenAI {
  return new ChatOpenAI({ model: "gpt-test", apiKey: "test", configuration: { baseURL: server.baseURL }, maxRetries: 0, ...fields });
}

/** A server, an exact-match cache and a wrapper around ChatOpenAI. */
async function setup(serverOptions: FakeOpenAIOptions = {}, cacheOptions: CacheInitOptions = {}) {
  const server = await serve(serverOptions);
  const cache = await newCache(cacheOptions);
  const model = new CachedChatModel({ model: chatModel(server), cache });
  return { server, cache, model };
}

function markerOf(message: BaseMessage): SemcacheMarker | undefined {
  return (message.response_metadata as Record<string, unknown>).semcache as SemcacheMarker | undefined;
}

async function collect<T>(stream: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const item of stream) out.push(item);
  return out;
}

/** Records what a LangChain callback handler is told. */
function recorder(name?: string) {
  const seen = {
    starts: [] as Array<{ runId: string; parentRunId?: string }>,
    tokens: [] as string[],
    ends: [] as LLMResult[],
  };
  class Recorder extends BaseCallbackHandler {
    name = name ?? "recorder";
    override async handleChatModelStart(_llm: unknown, _messages: unknown, runId: string, parentRunId?: string) {
      seen.starts.push({ runId, parentRunId });
    }
    override async handleLLMNewToken(token: string) {
      seen.tokens.push(token);
    }
    override async handleLLMEnd(output: LLMResult) {
      seen.ends.push(output);
    }
  }
  return { handler: new Recorder(), seen };
}

describe("CachedChatModel with ChatOpenAI", () => {
  it("answers a repeat from the cache: marked, zero usage, no second model call", async () => {
    const { server, model } = await setup();
    const miss = await model.invoke(QUESTION);
    expect(miss.content).toBe(ANSWER);
    expect(markerOf(miss)).toBeUndefined();
    expect((miss as AIMessage).usage_metadata?.total_tokens).toBeGreaterThan(0);

    const hit = await model.invoke(QUESTION);
    expect(hit).toBeInstanceOf(AIMessage);
    expect(hit.content).toBe(ANSWER);
    expect(markerOf(hit)).toEqual({ hit: true, score: 1, id: expect.any(Number) });
    expect((hit as AIMessage).usage_metadata).toEqual({ input_tokens: 0, output_tokens: 0, total_tokens: 0 });
    expect(server.modelCalls()).toBe(1);
  });

  it("sends the real messages upstream and the cache options nowhere", async () => {
    const { server, model } = await setup();
    await model.invoke([new SystemMessage("Be brief."), new HumanMessage(QUESTION)], { cacheSkip: true, topK: 3 });
    const body = server.requests.at(-1)?.json ?? {};
    expect(body.messages).toEqual([
      { role: "system", content: "Be brief." },
      { role: "user", content: QUESTION },
    ]);
    for (const option of ["cacheSkip", "topK", "cacheObj", "session", "searchOnly"]) expect(body).not.toHaveProperty(option);
  });

  it("replays a stream hit as several AIMessageChunks with zero usage", async () => {
    const { server, model } = await setup();
    await model.invoke(QUESTION);
    const chunks = await collect(await model.stream(QUESTION));
    expect(chunks.length).toBeGreaterThan(1);
    for (const chunk of chunks) expect(chunk).toBeInstanceOf(AIMessageChunk);
    expect(chunks.map((chunk) => chunk.content).join("")).toBe(ANSWER);
    const joined = chunks.reduce((sum, chunk) => sum.concat(chunk));
    expect(markerOf(joined)).toMatchObject({ hit: true, score: 1 });
    expect(joined.usage_metadata).toMatchObject({ input_tokens: 0, output_tokens: 0, total_tokens: 0 });
    expect(server.modelCalls()).toBe(1);
  });

  it("passes a stream miss through as it arrives and stores it only when it completes", async () => {
    const { server, model } = await setup({ streamDelayMs: 25 });
    const order: string[] = [];
    for await (const chunk of await model.stream(QUESTION)) {
      if (!chunk.content || order.includes("first chunk")) continue;
      order.push("first chunk");
      // The upstream response is still open, and nothing is stored yet.
      if (!server.requests.at(-1)?.signal.aborted) order.push("upstream still streaming");
      const probe = await model.invoke(QUESTION, { searchOnly: true });
      order.push(probe.content === "" ? "not stored yet" : "stored early");
    }
    expect(order).toEqual(["first chunk", "upstream still streaming", "not stored yet"]);
    const after = await model.invoke(QUESTION);
    expect(markerOf(after)).toMatchObject({ hit: true });
    expect(after.content).toBe(ANSWER);
    expect(server.modelCalls()).toBe(1);
  });

  it("an aborted stream miss closes the upstream connection and stores nothing", async () => {
    const long = Array.from({ length: 400 }, (_, i) => `word${i}`).join(" ");
    const { server, model } = await setup({ streamDelayMs: 20, reply: () => long });
    const controller = new AbortController();
    const received: string[] = [];
    const consume = async () => {
      for await (const chunk of await model.stream(QUESTION, { signal: controller.signal })) {
        received.push(String(chunk.content));
        if (received.join("").includes("word1")) controller.abort();
      }
    };
    await expect(consume()).rejects.toThrow();
    // The full stream would take 8 s (past this test's timeout): the server sees the client go away now.
    const upstream = server.requests.at(-1)!.signal;
    if (!upstream.aborted) await new Promise((resolve) => upstream.addEventListener("abort", resolve));
    expect(received.join("").length).toBeLessThan(long.length);
    expect((await model.invoke(QUESTION, { searchOnly: true })).content).toBe("");
  });

  it("an abort signal stops a hit's replay", async () => {
    const { model } = await setup();
    await model.invoke(QUESTION);
    const controller = new AbortController();
    const received: string[] = [];
    const consume = async () => {
      for await (const chunk of await model.stream(QUESTION, { signal: controller.signal })) {
        received.push(String(chunk.content));
        controller.abort();
      }
    };
    await expect(consume()).rejects.toThrow();
    expect(received).toHaveLength(1);
    await expect(model.invoke(QUESTION, { signal: AbortSignal.abort() })).rejects.toThrow();
  });

  it("surfaces the wrapped model's own error on an upstream failure and stores nothing", async () => {
    let failing = true;
    const server = await serve({ fail: () => (failing ? 500 : undefined) });
    const cache = await newCache();
    const direct = await chatModel(server).invoke(QUESTION).catch((error: unknown) => error);
    const model = new CachedChatModel({ model: chatModel(server), cache });
    const viaCache = await model.invoke(QUESTION).catch((error: unknown) => error);
    const viaStream = await (async () => collect(await model.stream(QUESTION)))().catch((error: unknown) => error);
    expect(direct).toBeInstanceOf(Error);
    for (const error of [viaCache, viaStream]) {
      expect((error as Error).constructor).toBe((direct as Error).constructor);
      expect((error as { status?: number }).status).toBe((direct as { status?: number }).status);
    }
    failing = false;
    const calls = server.modelCalls();
    expect(markerOf(await model.invoke(QUESTION))).toBeUndefined();
    expect(server.modelCalls()).toBe(calls + 1);
  });

  it("cacheSkip calls the model and still stores the answer", async () => {
    const { server, model } = await setup();
    await model.invoke(QUESTION);
    const skipped = await model.invoke(QUESTION, { cacheSkip: true });
    expect(markerOf(skipped)).toBeUndefined();
    expect(server.modelCalls()).toBe(2);
    await model.invoke("a fresh question", { cacheSkip: true });
    expect(markerOf(await model.invoke("a fresh question"))).toMatchObject({ hit: true });
    expect(server.modelCalls()).toBe(3);
  });

  it("hits whatever the model's temperature; temperatureSkip or a temperature call option (not sent upstream) applies GPTCache's rule", async () => {
    const server = await serve();
    const cache = await newCache();
    const hot = new CachedChatModel({ model: chatModel(server, { temperature: 2 }), cache });
    await hot.invoke(QUESTION);
    expect(markerOf(await hot.invoke(QUESTION))).toMatchObject({ hit: true });
    expect(server.modelCalls()).toBe(1);

    const skipping = new CachedChatModel({ model: chatModel(server, { temperature: 2 }), cache, temperatureSkip: true });
    expect(markerOf(await skipping.invoke(QUESTION))).toBeUndefined();
    expect(server.modelCalls()).toBe(2);
    expect(() => new CachedChatModel({ model: chatModel(server), cache, temperatureSkip: "yes" as never })).toThrow(ValidationError);

    const cold = new CachedChatModel({ model: chatModel(server), cache });
    await cold.invoke(QUESTION);
    expect(markerOf(await cold.invoke(QUESTION, { temperature: 2 }))).toBeUndefined();
    expect(server.requests.at(-1)?.json).not.toHaveProperty("temperature");
    expect(markerOf(await cold.invoke(QUESTION))).toMatchObject({ hit: true });
    expect(server.modelCalls()).toBe(4);
  });

  it("sessions: a session never hits its own entry, others do, and drop() forgets the links", async () => {
    const server = await serve();
    const cache = await newCache();
    const alice = new CachedChatModel({ model: chatModel(server), cache, session: "alice" });
    const bob = new CachedChatModel({ model: chatModel(server), cache, session: new Session({ name: "bob", cache }) });
    await alice.invoke(QUESTION);
    expect(markerOf(await alice.invoke(QUESTION))).toBeUndefined();
    expect(server.modelCalls()).toBe(2);
    expect(markerOf(await bob.invoke(QUESTION))).toMatchObject({ hit: true });
    expect(markerOf(await alice.invoke(QUESTION, { session: "carol" }))).toMatchObject({ hit: true });
    const streamed = await collect(await alice.stream(QUESTION));
    expect(markerOf(streamed[0])).toBeUndefined();
    expect(server.modelCalls()).toBe(3);

    await new Session({ name: "alice", cache }).drop();
    expect(markerOf(await alice.invoke(QUESTION))).toMatchObject({ hit: true });
    expect(server.modelCalls()).toBe(3);
  });

  it("partitions by model and by sampling settings", async () => {
    const server = await serve();
    const cache = await newCache({ config: new Config({ random: () => 0.999 }) });
    const variants = [
      { model: "gpt-a" },
      { model: "gpt-b" },
      { model: "gpt-a", topP: 0.5 },
      { model: "gpt-a", temperature: 1 },
    ];
    const models = variants.map((fields) => new CachedChatModel({ model: chatModel(server, fields), cache }));
    for (const model of models) expect(markerOf(await model.invoke(QUESTION))).toBeUndefined();
    expect(server.modelCalls()).toBe(variants.length);
    for (const model of models) expect(markerOf(await model.invoke(QUESTION))).toMatchObject({ hit: true });
    expect(server.modelCalls()).toBe(variants.length);
  });

  it("batch: upstream calls equal the misses", async () => {
    const { server, model } = await setup();
    await model.invoke("first question");
    const results = await model.batch(["first question", "second question", "third question"]);
    expect(results.map((message) => message.content)).toEqual(["Echo: first question", "Echo: second question", "Echo: third question"]);
    expect(results.map((message) => markerOf(message)?.hit)).toEqual([true, undefined, undefined]);
    expect(server.modelCalls()).toBe(3);
  });

  it("ten concurrent identical invokes share one model call, whose usage counts once", async () => {
    const { server, model } = await setup();
    const results = await Promise.all(Array.from({ length: 10 }, () => model.invoke(QUESTION)));
    expect(server.modelCalls()).toBe(1);
    expect(new Set(results.map((message) => message.content))).toEqual(new Set([ANSWER]));
    const owners = results.filter((message) => markerOf(message) === undefined);
    expect(owners).toHaveLength(1);
    const shared = results.filter((message) => markerOf(message) !== undefined);
    for (const message of shared) {
      expect(markerOf(message)).toEqual({ hit: false, shared: true });
      expect((message as AIMessage).usage_metadata?.total_tokens).toBe(0);
      expect(message).not.toBe(owners[0]);
    }
  });

  describe("tools: one policy with every LangChain surface", () => {
    const toolReply: FakeOpenAIOptions["reply"] = (body) => {
      const messages = body.messages as Array<{ role: string; content?: string }>;
      if (messages.at(-1)?.role === "tool") return `The tool says: ${messages.at(-1)?.content}`;
      return Array.isArray(body.tools) ? { toolCalls: [{ id: "call_1", name: "lookup", arguments: '{"city":"Paris"}' }] } : `Echo: ${QUESTION}`;
    };
    const OTHER_TOOL = { type: "function" as const, function: { ...TOOL.function, parameters: { type: "object", properties: { city: { type: "string" } } } } };

    it("bindTools: a tool call is stored and replayed with a fresh id, invoked or streamed, in the tools' own partition", async () => {
      const { server, model } = await setup({ reply: toolReply });
      const withTools = model.bindTools([TOOL]);
      expect(withTools).toBeInstanceOf(CachedChatModel);
      const miss = await withTools.invoke(QUESTION);
      expect(miss.tool_calls).toEqual([expect.objectContaining({ name: "lookup", args: { city: "Paris" }, id: "call_1" })]);
      const hit = await withTools.invoke(QUESTION);
      expect(markerOf(hit)).toEqual({ hit: true, score: 1, id: expect.any(Number) });
      expect(hit.tool_calls).toEqual([expect.objectContaining({ name: "lookup", args: { city: "Paris" } })]);
      expect(hit.tool_calls?.[0]?.id).not.toBe("call_1");
      const streamed = (await collect(await withTools.stream(QUESTION))).reduce((sum, chunk) => sum.concat(chunk));
      expect(streamed.tool_calls).toEqual([expect.objectContaining({ name: "lookup", args: { city: "Paris" } })]);
      expect(server.modelCalls()).toBe(1);
      // The same question without tools, or with another tool schema, is another partition.
      expect((await model.invoke(QUESTION)).content).toBe(ANSWER);
      await model.bindTools([OTHER_TOOL]).invoke(QUESTION);
      expect(server.modelCalls()).toBe(3);
      expect(server.requests.at(-1)?.json?.tools).toHaveLength(1);
    });

    it("tools as a call option partition as bound tools do", async () => {
      const { server, model } = await setup({ reply: toolReply });
      await model.invoke(QUESTION);
      for (let i = 0; i < 2; i++) expect((await model.invoke(QUESTION, { tools: [TOOL] })).tool_calls?.[0]?.name).toBe("lookup");
      expect(server.modelCalls()).toBe(2);
    });

    it("after a tool result the whole transcript matches exactly: another result reaches the model, new call ids do not", async () => {
      const { server, model } = await setup({ reply: toolReply });
      const withTools = model.bindTools([TOOL]);
      const transcript = (callId: string, result: string) => [
        new HumanMessage(QUESTION),
        new AIMessage({ content: "", tool_calls: [{ id: callId, name: "lookup", args: { city: "Paris" }, type: "tool_call" }] }),
        new ToolMessage({ content: result, tool_call_id: callId }),
      ];
      expect((await withTools.invoke(transcript("call_a", "sunny"))).content).toBe("The tool says: sunny");
      const again = await withTools.invoke(transcript("call_b", "sunny"));
      expect(markerOf(again)).toEqual({ hit: true, score: 1, id: expect.any(Number) });
      expect((await withTools.invoke(transcript("call_c", "rainy"))).content).toBe("The tool says: rainy");
      expect(server.modelCalls()).toBe(2);
    });

    it("structured output is the wrapped model's own, uncached", async () => {
      const { server, model } = await setup({ reply: toolReply });
      const schema = { type: "object", properties: { city: { type: "string" } }, required: ["city"] };
      const structured = model.withStructuredOutput(schema, { name: "lookup", method: "functionCalling" });
      expect(await structured.invoke(QUESTION)).toEqual({ city: "Paris" });
      expect(await structured.invoke(QUESTION)).toEqual({ city: "Paris" });
      expect(server.modelCalls()).toBe(2);
    });

    it("a streamed answer with text and tool calls is stored whole and replayed whole", async () => {
      // LangChain's own fake streams a text chunk that carries a tool call, then more text.
      const call = { id: "call_1", name: "lookup", args: { city: "Paris" }, type: "tool_call" as const };
      const wrapped = new FakeStreamingChatModel({
        sleep: 0,
        chunks: [new AIMessageChunk({ content: "Let me look that up. ", tool_calls: [call] }), new AIMessageChunk({ content: "One moment." })],
      });
      const upstream = recorder();
      wrapped.callbacks = [upstream.handler];
      const model = new CachedChatModel({ model: wrapped, cache: await newCache() });
      for (let i = 0; i < 2; i++) {
        const chunks = await collect(await model.stream("stream it"));
        const joined = chunks.reduce((sum, chunk) => sum.concat(chunk));
        expect(joined.content).toBe("Let me look that up. One moment.");
        expect(joined.tool_calls).toEqual([expect.objectContaining({ name: "lookup", args: { city: "Paris" } })]);
        expect(markerOf(joined)).toEqual(i === 0 ? undefined : { hit: true, score: 1, id: expect.any(Number) });
      }
      const invoked = await model.invoke("stream it");
      expect(invoked.tool_calls).toEqual([expect.objectContaining({ name: "lookup", args: { city: "Paris" } })]);
      expect(invoked.tool_calls?.[0]?.id).not.toBe("call_1");
      expect(upstream.seen.starts).toHaveLength(1);
    });

    it("a question with an image bypasses the cache (the key would see only its text)", async () => {
      const { server, model } = await setup();
      const ask = (url: string) =>
        model.invoke([
          new HumanMessage({ content: [{ type: "text", text: "what is in this picture" }, { type: "image_url", image_url: { url } }] }),
        ]);
      await ask("https://example.com/cat.png");
      expect(markerOf(await ask("https://example.com/dog.png"))).toBeUndefined();
      expect(server.modelCalls()).toBe(2);
    });
  });

  it("a model loaded by name (initChatModel) passes through uncached: its key would not say which model answered", async () => {
    const server = await serve();
    const named = await initChatModel("openai:gpt-4o-mini", { apiKey: "test", configuration: { baseURL: server.baseURL }, useResponsesApi: false, maxRetries: 0 });
    const model = new CachedChatModel({ model: named as never, cache: await newCache() });
    for (let i = 0; i < 2; i++) expect(markerOf(await model.invoke(QUESTION))).toBeUndefined();
    expect(server.modelCalls()).toBe(2);
  });

  it("warm() stores pairs in the partition the model's calls read, each in its context", async () => {
    const { server, model } = await setup();
    await model.warm([
      { question: "Who wrote Hamlet?", answer: "Shakespeare." },
      { question: [new SystemMessage("Answer in French."), new HumanMessage("Who wrote Hamlet?")], answer: "Shakespeare (en français)." },
    ]);
    expect((await model.invoke("Who wrote Hamlet?")).content).toBe("Shakespeare.");
    expect((await model.invoke([new SystemMessage("Answer in French."), new HumanMessage("Who wrote Hamlet?")])).content).toBe("Shakespeare (en français).");
    expect((await model.bindTools([TOOL]).invoke("Who wrote Hamlet?")).content).toBe("Echo: Who wrote Hamlet?");
    expect(server.modelCalls()).toBe(1);
    await expect(model.warm([{ question: "q", answer: "" }])).rejects.toThrow(ValidationError);
  });

  it("searchOnly: a miss is an empty message marked hit: false (no model call); a hit answers", async () => {
    const { server, model } = await setup();
    const miss = await model.invoke(QUESTION, { searchOnly: true });
    expect(miss.content).toBe("");
    expect(markerOf(miss)).toEqual({ hit: false });
    const streamed = await collect(await model.stream(QUESTION, { searchOnly: true }));
    expect(streamed.map((chunk) => chunk.content)).toEqual([""]);
    expect(markerOf(streamed[0])).toEqual({ hit: false });
    expect(server.modelCalls()).toBe(0);
    await model.invoke(QUESTION);
    expect((await model.invoke(QUESTION, { searchOnly: true })).content).toBe(ANSWER);
  });

  describe("callbacks", () => {
    it("handlers see one run per call, hit or miss: tokens for streams, one end, usage once", async () => {
      const { server, model } = await setup();
      const missRun = recorder();
      const streamed = await collect(await model.stream(QUESTION, { callbacks: [missRun.handler] }));
      expect(missRun.seen.starts).toHaveLength(1);
      expect(missRun.seen.tokens.join("")).toBe(ANSWER);
      expect(missRun.seen.ends).toHaveLength(1);
      const usage = (missRun.seen.ends[0].generations[0][0] as { message?: AIMessage }).message?.usage_metadata;
      expect(usage?.total_tokens).toBe(streamed.reduce((sum, chunk) => sum.concat(chunk)).usage_metadata?.total_tokens);

      const hitRun = recorder();
      await collect(await model.stream(QUESTION, { callbacks: [hitRun.handler] }));
      expect(hitRun.seen.tokens.length).toBeGreaterThan(1);
      expect(hitRun.seen.tokens.join("")).toBe(ANSWER);
      expect(hitRun.seen.ends).toHaveLength(1);

      const invokeHit = recorder();
      await model.invoke(QUESTION, { callbacks: [invokeHit.handler] });
      expect(invokeHit.seen.tokens).toEqual([ANSWER]);
      expect(invokeHit.seen.ends).toHaveLength(1);
      expect(invokeHit.seen.ends[0].llmOutput?.tokenUsage).toEqual({ promptTokens: 0, completionTokens: 0, totalTokens: 0 });

      const invokeMiss = recorder();
      await model.invoke("another question", { callbacks: [invokeMiss.handler] });
      expect(invokeMiss.seen.starts).toHaveLength(1);
      expect(invokeMiss.seen.ends).toHaveLength(1);
      expect(invokeMiss.seen.ends[0].llmOutput?.tokenUsage?.totalTokens).toBeGreaterThan(0);
      expect(server.modelCalls()).toBe(2);
    });

    it("streamEvents shows each token once, from the wrapper's run, on a miss and on a hit; the end carries the marker", async () => {
      const { model } = await setup();
      for (let round = 0; round < 2; round++) {
        const streamed: string[] = [];
        const ends: BaseMessage[] = [];
        for await (const event of model.streamEvents(QUESTION, { version: "v2" })) {
          if (event.event === "on_chat_model_stream") {
            expect(event.name).toBe("CachedChatModel");
            streamed.push(String(event.data.chunk.content));
          }
          if (event.event === "on_chat_model_end") ends.push(event.data.output as BaseMessage);
        }
        expect(streamed.join("")).toBe(ANSWER);
        expect(ends).toHaveLength(1);
        expect(markerOf(ends[0])).toEqual(round === 0 ? undefined : { hit: true, score: 1, id: expect.any(Number) });
      }
    });

    it("handlers on the wrapped model see the real model calls only; LangSmith's tracer sees them nested", async () => {
      const server = await serve();
      const cache = await newCache();
      const onModel = recorder();
      const model = new CachedChatModel({ model: chatModel(server, { callbacks: [onModel.handler] }), cache });
      const tracer = recorder("langchain_tracer");
      await model.invoke(QUESTION, { callbacks: [tracer.handler] });
      await model.invoke(QUESTION, { callbacks: [tracer.handler] });
      expect(onModel.seen.starts).toHaveLength(1);
      const [missRun, modelRun, hitRun] = tracer.seen.starts;
      expect(tracer.seen.starts).toHaveLength(3);
      expect(modelRun.parentRunId).toBe(missRun.runId);
      expect(hitRun.parentRunId).toBeUndefined();
    });
  });

  describe("the key", () => {
    const conversation = (system: string, ...turns: string[]) => [
      new SystemMessage(system),
      ...turns.map((text, i) => (i % 2 === 0 ? new HumanMessage(text) : new AIMessage(text))),
    ];

    it("lastContent (the default) keys on the last message within its context: another system prompt or earlier turn misses", async () => {
      const { server, cache, model } = await setup();
      await model.invoke(conversation("You are terse.", QUESTION));
      expect(markerOf(await model.invoke(conversation("You are terse.", QUESTION)))).toMatchObject({ hit: true });
      expect(markerOf(await model.invoke(conversation("You are a pirate.", QUESTION)))).toBeUndefined();
      expect(markerOf(await model.invoke(conversation("You are terse.", "My name is Bob.", "Hi Bob!", QUESTION)))).toBeUndefined();
      expect(server.modelCalls()).toBe(3);

      const shared = new CachedChatModel({ model: chatModel(server), cache, shareAcrossContexts: true });
      await shared.invoke(conversation("You are terse.", "Which is the largest planet?"));
      expect(markerOf(await shared.invoke(conversation("You are a pirate.", "Which is the largest planet?")))).toMatchObject({ hit: true });
      expect(server.modelCalls()).toBe(4);
      expect(() => new CachedChatModel({ model: chatModel(server), cache, shareAcrossContexts: "no" as never })).toThrow(ValidationError);
    });

    it("concatAllQueries matches on the recent user turns; the earlier turns still partition unless shared", async () => {
      const { server } = await setup();
      const concat = await newCache({ preEmbeddingFunc: concatAllQueries });
      const model = new CachedChatModel({ model: chatModel(server), cache: concat, shareAcrossContexts: true });
      await model.invoke(conversation("You are terse.", "hello", "hi!", QUESTION));
      expect(markerOf(await model.invoke(conversation("You are a pirate.", "hello", "ahoy!", QUESTION)))).toMatchObject({ hit: true });
      expect(markerOf(await model.invoke(conversation("You are terse.", "bonjour", "hi!", QUESTION)))).toBeUndefined();
      expect(server.modelCalls()).toBe(2);
    });
  });

  it("a semantic cache (sqlite, hnswlib, embeddings) answers a paraphrase with its score", async () => {
    const dir = tempDir();
    push(dir.cleanup);
    const { server, model } = await setup(
      {},
      {
        embeddingFunc: new BagOfWordsEmbedding(),
        dataManager: managerFactory("sqlite,hnswlib", { dataDir: dir.path }),
        similarityEvaluation: new DistanceEvaluation(),
        config: { similarityThreshold: 0.8 },
      },
    );
    await model.invoke("what is the capital city of France");
    const hit = await model.invoke("what is the capital of France");
    const marker = markerOf(hit) as { hit: true; score: number };
    expect(marker.hit).toBe(true);
    expect(marker.score).toBeGreaterThan(0.8);
    expect(marker.score).toBeLessThan(1);
    expect(hit.content).toBe("Echo: what is the capital city of France");
    expect(server.modelCalls()).toBe(1);
  });

  it("rejects a model that is not a chat model", () => {
    expect(() => new CachedChatModel({ model: {} as never })).toThrow(/chat model/);
  });
});

describe("CachedChatModel over a model that streams inside invoke", () => {
  /** A chat model that, like `streaming: true` models, reports tokens on its own run during invoke. */
  class TokenReportingModel extends FakeStreamingChatModel {
    override async _generate(messages: BaseMessage[], _options: this["ParsedCallOptions"], runManager?: Parameters<FakeStreamingChatModel["_generate"]>[2]) {
      const text = "one two three";
      for (const token of ["one ", "two ", "three"]) await runManager?.handleLLMNewToken(token);
      return { generations: [{ text, message: new AIMessage(text) }] };
    }
  }

  it("passes the wrapped model's tokens on to the wrapper's handlers on a miss", async () => {
    const cache = await newCache();
    const model = new CachedChatModel({ model: new TokenReportingModel({}), cache });
    const tokens: string[] = [];
    const handler = BaseCallbackHandler.fromMethods({ handleLLMNewToken: (token) => void tokens.push(token) });
    await model.invoke("count to three", { callbacks: [handler] });
    expect(tokens).toEqual(["one ", "two ", "three"]);
    tokens.length = 0;
    await model.invoke("count to three", { callbacks: [handler] });
    expect(tokens).toEqual(["one two three"]); // a hit reports its text as one token, as LangChain's cache does
  });
});
