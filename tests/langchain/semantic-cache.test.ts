import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { jest } from "@jest/globals";
import { MemoryVectorStore } from "@langchain/classic/vectorstores/memory";
import { join } from "node:path";
import { BaseCallbackHandler } from "@langchain/core/callbacks/base";
import { awaitAllCallbacks } from "@langchain/core/callbacks/promises";
import { AIMessage, ChatMessage, HumanMessage, SystemMessage, ToolMessage, getBufferString } from "@langchain/core/messages";
import type { LLMResult } from "@langchain/core/outputs";
import { ChatPromptTemplate } from "@langchain/core/prompts";
import { ChatOpenAI, OpenAI, OpenAIEmbeddings } from "@langchain/openai";
import { Cache, Config, DistanceEvaluation, ValidationError, cache as globalCache, get, importData, managerFactory, type CacheInitOptions } from "../../src/index.js";
import { putAnswer } from "../../src/core/pipeline.js";
import { conversationContext, fullPrompt, lastHumanTurn } from "../../src/langchain/prompt-key.js";
import { SemanticCache, llmKeyPartition, type CacheHitMarker, type SemanticCacheOptions } from "../../src/langchain/semantic-cache.js";
import { startFakeOpenAI, type FakeOpenAIOptions, type FakeOpenAIServer } from "../../src/testing/index.js";
import { tempDir } from "../helpers/fixtures.js";

const API_KEY = "sk-semcache-test-0123456789";

let cleanups: Array<() => unknown> = [];

afterEach(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
  cleanups = [];
});

interface Setup {
  cache: Cache;
  server: FakeOpenAIServer;
  dataDir: string;
  semanticCache: SemanticCache;
  chat(fields?: ConstructorParameters<typeof ChatOpenAI>[0]): ChatOpenAI;
  llm(fields?: ConstructorParameters<typeof OpenAI>[0]): OpenAI;
}

/**
 * A fake OpenAI server and a Cache on SQLite in a temp folder: exact match by default; `semantic` adds an
 * OpenAIEmbeddings (against the same fake server), an hnswlib index and DistanceEvaluation at 0.9.
 */
async function setup(
  options: { semantic?: boolean; server?: FakeOpenAIOptions; init?: CacheInitOptions; semanticCache?: Omit<SemanticCacheOptions, "cache"> } = {},
): Promise<Setup> {
  const server = await startFakeOpenAI(options.server);
  const dir = tempDir();
  const cache = new Cache();
  cleanups.push(() => server.close(), dir.cleanup, () => cache.close());
  const embeddings = new OpenAIEmbeddings({ apiKey: API_KEY, configuration: { baseURL: server.baseURL }, maxRetries: 0 });
  await cache.init(
    options.semantic
      ? {
          embeddingFunc: embeddings,
          dataManager: managerFactory("sqlite,hnswlib", { dataDir: dir.path }),
          similarityEvaluation: new DistanceEvaluation(),
          config: new Config({ similarityThreshold: 0.9 }),
          ...options.init,
        }
      : { dataManager: managerFactory("sqlite", { dataDir: dir.path }), ...options.init },
  );
  const semanticCache = new SemanticCache({ cache, ...options.semanticCache });
  const connection = { apiKey: API_KEY, configuration: { baseURL: server.baseURL }, maxRetries: 0, cache: semanticCache };
  return {
    cache,
    server,
    dataDir: dir.path,
    semanticCache,
    chat: (fields) => new ChatOpenAI({ model: "gpt-test", ...connection, ...fields }),
    llm: (fields) => new OpenAI({ model: "gpt-test-instruct", ...connection, ...fields }),
  };
}

describe("lastHumanTurn / fullPrompt (on the prompt strings core writes)", () => {
  it("keys on the last human turn, not the system prompt or earlier turns", () => {
    const prompt = getBufferString([
      new SystemMessage("You are terse."),
      new HumanMessage("first question"),
      new AIMessage("first answer"),
      new HumanMessage("What is the capital\nof France?"),
    ]);
    expect(prompt).toBe("System: You are terse.\nHuman: first question\nAI: first answer\nHuman: What is the capital\nof France?");
    expect(lastHumanTurn(prompt)).toBe("What is the capital\nof France?");
    expect(fullPrompt(prompt)).toBe(prompt);
    expect(conversationContext(prompt)).toBe("System: You are terse.\nHuman: first question\nAI: first answer");
    expect(conversationContext(getBufferString([new HumanMessage("a lone question")]))).toBe("");
    expect(conversationContext("Translate 'cat' into French:")).toBe("");
  });

  it("keeps the turns after the question (a tool loop must not be answered with its own tool call)", () => {
    const toolCall = new AIMessage({ content: "", tool_calls: [{ id: "c1", name: "weather", args: { city: "Paris" } }] });
    const first = getBufferString([new HumanMessage("Weather in Paris?")]);
    const second = getBufferString([new HumanMessage("Weather in Paris?"), toolCall, new ToolMessage({ content: "sunny", tool_call_id: "c1" })]);
    expect(lastHumanTurn(first)).toBe("Weather in Paris?");
    expect(lastHumanTurn(second)).toMatch(/^Weather in Paris\?\nAI: .*"weather".*\nTool: sunny$/);
  });

  it("reads a ChatMessage with the user role; falls back to the whole prompt without a human turn or text", () => {
    expect(lastHumanTurn(getBufferString([new SystemMessage("s"), new ChatMessage("hello there", "user")]))).toBe("hello there");
    expect(lastHumanTurn("Translate 'cat' into French:")).toBe("Translate 'cat' into French:");
    const empty = getBufferString([new SystemMessage("s"), new HumanMessage("")]);
    expect(lastHumanTurn(empty)).toBe(empty);
  });
});

describe("SemanticCache with ChatOpenAI", () => {
  it("a miss calls the model once; the hit returns the same message (type, content, metadata) as a new one, usage zeroed", async () => {
    const s = await setup();
    const model = s.chat();
    const miss = await model.invoke("What is the capital of France?");
    const hit = await model.invoke("What is the capital of France?");
    expect(s.server.modelCalls()).toBe(1);
    expect(hit).toBeInstanceOf(AIMessage);
    expect(hit.content).toBe(miss.content);
    expect(hit.content).toBe("Echo: What is the capital of France?");
    // A new message: LangGraph replaces a message by id, so a replay must not carry the stored one's.
    expect(hit.id).not.toBe(miss.id);
    const { semcache, ...metadata } = hit.response_metadata;
    expect(metadata).toEqual(miss.response_metadata);
    expect(semcache).toEqual({ hit: true, score: 1, id: expect.any(Number) });
    expect(hit.usage_metadata).toEqual({ input_tokens: 0, output_tokens: 0, total_tokens: 0 });
    expect(miss.usage_metadata?.total_tokens).toBeGreaterThan(0); // the miss's own message is never mutated
    expect(s.cache.report.hits).toBe(1);
  });

  it("round-trips tool calls and additional_kwargs, with fresh tool call ids", async () => {
    const reply = () => ({ toolCalls: [{ id: "call_1", name: "get_weather", arguments: '{"city":"Paris"}' }] });
    const s = await setup({ server: { reply } });
    const model = s.chat();
    const miss = await model.invoke("Weather in Paris?");
    const hit = (await model.invoke("Weather in Paris?")) as AIMessage;
    expect(s.server.modelCalls()).toBe(1);
    // A replayed tool call gets a fresh id, the same in tool_calls and the provider's raw tool_calls.
    const [call] = hit.tool_calls!;
    expect(call).toEqual({ id: expect.stringMatching(/^call_\w{24}$/), name: "get_weather", args: { city: "Paris" }, type: "tool_call" });
    expect((miss as AIMessage).tool_calls).toEqual([{ ...call, id: "call_1" }]);
    const raw = hit.additional_kwargs.tool_calls!;
    expect(raw).toEqual(miss.additional_kwargs.tool_calls!.map((item) => ({ ...item, id: call.id })));
    expect(hit.response_metadata.finish_reason).toBe("tool_calls");
  });

  it("keys on the last human turn within its context: another system prompt misses, unless shareAcrossContexts", async () => {
    const s = await setup();
    const model = s.chat();
    await model.invoke([new SystemMessage("Be brief."), new HumanMessage("Name a prime number.")]);
    expect((await model.invoke([new SystemMessage("Be brief."), new HumanMessage("Name a prime number.")])).response_metadata.semcache).toMatchObject({ hit: true });
    await model.invoke([new SystemMessage("Be chatty."), new HumanMessage("Name a prime number.")]);
    expect(s.server.modelCalls()).toBe(2);
    await model.invoke([new SystemMessage("Be brief."), new HumanMessage("Name an even number.")]);
    expect(s.server.modelCalls()).toBe(3);

    const shared = s.chat({ cache: new SemanticCache({ cache: s.cache, shareAcrossContexts: true }) });
    await shared.invoke([new SystemMessage("Be brief."), new HumanMessage("Name a square number.")]);
    const hit = await shared.invoke([new SystemMessage("Be chatty."), new HumanMessage("Name a square number.")]);
    expect(hit.content).toBe("Echo: Name a square number.");
    expect(s.server.modelCalls()).toBe(4);
  });

  it("warm() stores pairs where a model's calls look them up: its partition, each question in its context", async () => {
    const s = await setup();
    const chat = s.chat();
    const llm = s.llm();
    await s.semanticCache.warm(chat, [
      { question: "Who wrote Hamlet?", answer: "Shakespeare." },
      { question: [new SystemMessage("Answer in French."), new HumanMessage("Who wrote Hamlet?")], answer: "Shakespeare, en français." },
    ]);
    await s.semanticCache.warm(llm, [{ question: "Write a haiku", answer: "An old silent pond" }]);
    expect((await chat.invoke("Who wrote Hamlet?")).content).toBe("Shakespeare.");
    expect((await chat.invoke([new SystemMessage("Answer in French."), new HumanMessage("Who wrote Hamlet?")])).content).toBe("Shakespeare, en français.");
    expect(await llm.invoke("Write a haiku")).toBe("An old silent pond");
    expect(s.server.modelCalls()).toBe(0);
    // Another model's partition is not warmed.
    await s.chat({ model: "gpt-other" }).invoke("Who wrote Hamlet?");
    expect(s.server.modelCalls()).toBe(1);
    await expect(s.semanticCache.warm({} as never, [])).rejects.toThrow(ValidationError);
  });

  it("clear() empties the cache its calls use: requestOptions.cacheObj when set", async () => {
    const s = await setup();
    const viaOptions = new SemanticCache({ requestOptions: { cacheObj: s.cache } });
    await s.chat({ cache: viaOptions }).invoke("Who wrote Hamlet?");
    expect(await s.cache.dataManager.count()).toBe(1);
    await viaOptions.clear();
    expect(await s.cache.dataManager.count()).toBe(0);
  });

  it("a template's system variables keep answers apart ({language}), and a reworded question hits within one", async () => {
    const s = await setup({ semantic: true });
    const chain = ChatPromptTemplate.fromMessages([
      ["system", "Answer in {language}."],
      ["human", "{q}"],
    ]).pipe(s.chat());
    const english = await chain.invoke({ language: "English", q: "What is the capital city of France?" });
    const french = await chain.invoke({ language: "French", q: "What is the capital city of France?" });
    expect(french.response_metadata.semcache).toBeUndefined();
    expect(s.server.modelCalls()).toBe(2);
    const reworded = await chain.invoke({ language: "French", q: "What is the capital of France?" });
    expect(reworded.response_metadata.semcache).toMatchObject({ hit: true });
    expect(reworded.content).toBe(french.content);
    expect((await chain.invoke({ language: "English", q: "What is the capital of France?" })).content).toBe(english.content);
    expect(s.server.modelCalls()).toBe(2);
  });

  it("two conversations with different earlier turns do not share an answer to the same question", async () => {
    const s = await setup();
    const model = s.chat();
    const ask = (name: string) => model.invoke([new HumanMessage(`My friend ${name} was born in 1990.`), new AIMessage("Noted."), new HumanMessage("How old is he?")]);
    await ask("Tom");
    const other = await ask("Bob");
    expect(other.response_metadata.semcache).toBeUndefined();
    expect((await ask("Tom")).response_metadata.semcache).toMatchObject({ hit: true });
    expect(s.server.modelCalls()).toBe(2);
  });

  it("with fullPrompt, the whole transcript is the key", async () => {
    const s = await setup({ semanticCache: { preEmbeddingFunc: fullPrompt } });
    const model = s.chat();
    await model.invoke([new SystemMessage("Be brief."), new HumanMessage("Name a prime number.")]);
    await model.invoke([new SystemMessage("Be chatty."), new HumanMessage("Name a prime number.")]);
    expect(s.server.modelCalls()).toBe(2);
  });

  it("a reworded question hits through a real embedding (OpenAIEmbeddings, sqlite + hnswlib, distance)", async () => {
    const s = await setup({ semantic: true });
    const model = s.chat();
    await model.invoke("What is the capital city of France?");
    const reworded = await model.invoke("What is the capital of France?");
    expect(reworded.content).toBe("Echo: What is the capital city of France?");
    const { score } = reworded.response_metadata.semcache as CacheHitMarker;
    expect(score).toBeGreaterThanOrEqual(0.9);
    expect(score).toBeLessThan(1);
    expect(s.server.modelCalls()).toBe(1);
    const other = await model.invoke("What is the capital city of Spain?");
    expect(other.content).toBe("Echo: What is the capital city of Spain?");
    expect(s.server.modelCalls()).toBe(2);
    // One embedding a question: a miss's lookup and its update share it (the cache's embedding memo).
    expect(s.server.count("/v1/embeddings")).toBe(3);
  });

  it("embeds a miss once between LangChain's lookup and update; embeddingMemoSize 0 embeds it in each", async () => {
    const s = await setup({ semantic: true });
    await s.chat().invoke("How do I bake sourdough bread?");
    expect(s.server.count("/v1/embeddings")).toBe(1);
    // Asked again: an exact hit, and the memo answers its embedding too.
    await s.chat().invoke("How do I bake sourdough bread?");
    expect(s.server.count("/v1/embeddings")).toBe(1);

    const off = await setup({ semantic: true, init: { config: { similarityThreshold: 0.9, embeddingMemoSize: 0 } } });
    await off.chat().invoke("How do I bake sourdough bread?");
    expect(off.server.count("/v1/embeddings")).toBe(2);
  });

  it("partitions by model and by temperature", async () => {
    // random() never below the skip probability: temperature 0.5 then always reads the cache.
    const s = await setup({ init: { config: { random: () => 0.999 } } });
    const ask = (fields: ConstructorParameters<typeof ChatOpenAI>[0]) => s.chat(fields).invoke("Tell me a joke.");
    await ask({ model: "model-a" });
    await ask({ model: "model-b" });
    await ask({ model: "model-a", temperature: 0.5 });
    expect(s.server.modelCalls()).toBe(3);
    const again = [await ask({ model: "model-a" }), await ask({ model: "model-b" }), await ask({ model: "model-a", temperature: 0.5 })];
    expect(s.server.modelCalls()).toBe(3);
    expect(again.map((m) => m.response_metadata.model_name)).toEqual(["model-a", "model-b", "model-a"]);
  });

  it("hits are deterministic whatever the model's temperature; temperatureSkip applies GPTCache's random skip", async () => {
    const s = await setup();
    for (const temperature of [0.7, 2]) {
      await s.chat({ temperature }).invoke("Tell me a joke.");
      expect((await s.chat({ temperature }).invoke("Tell me a joke.")).response_metadata.semcache).toMatchObject({ hit: true });
    }
    expect(s.server.modelCalls()).toBe(2);

    const skipping = new SemanticCache({ cache: s.cache, temperatureSkip: true });
    await s.chat({ temperature: 2, cache: skipping }).invoke("Tell me a joke.");
    expect(s.server.modelCalls()).toBe(3);
    expect(s.cache.report.skips).toBe(1);
  });

  it("questions with files bypass the cache too (LangChain writes any attachment as a [placeholder])", async () => {
    const s = await setup();
    const ask = (data: string) =>
      s.chat().invoke([new HumanMessage({ content: [{ type: "text", text: "Summarise this file." }, { type: "file", mimeType: "application/pdf", data }] })]);
    await ask("JVBERi0xLjQK");
    await ask("JVBERi0xLjUK");
    expect(s.server.modelCalls()).toBe(2);
    expect(await s.cache.dataManager.count()).toBe(0);
  });

  it("a requestOptions cacheObj that is not initialised: the call goes to the model, counted, never an error", async () => {
    const s = await setup();
    const other = new Cache();
    const warn = jest.spyOn(console, "warn").mockImplementation(() => undefined);
    cleanups.push(() => warn.mockRestore());
    const model = s.chat({ cache: new SemanticCache({ cache: s.cache, requestOptions: { cacheObj: other } }) });
    expect((await model.invoke("q1")).content).toBe("Echo: q1");
    expect(other.report.errors).toBeGreaterThan(0);
    expect(warn).toHaveBeenCalledTimes(1);
  });

  it("questions with images bypass the cache (LangChain's prompt string has no image data)", async () => {
    const s = await setup();
    const ask = (url: string) =>
      s.chat().invoke([new HumanMessage({ content: [{ type: "text", text: "What is in this picture?" }, { type: "image_url", image_url: { url } }] })]);
    await ask("data:image/png;base64,Y2F0");
    await ask("data:image/png;base64,ZG9n");
    expect(s.server.modelCalls()).toBe(2);
    expect(await s.cache.dataManager.count()).toBe(0);
  });

  it("the same model with a rotated API key and another base URL still hits", async () => {
    const s = await setup();
    await s.chat().invoke("Stable question");
    const otherUrl = s.server.baseURL.replace("127.0.0.1", "localhost");
    const rotated = s.chat({ apiKey: "sk-rotated-key-9876543210", configuration: { baseURL: otherUrl } });
    expect(rotated._getSerializedCacheKeyParametersForCall({})).not.toBe(s.chat()._getSerializedCacheKeyParametersForCall({}));
    const hit = await rotated.invoke("Stable question");
    expect(hit.response_metadata.semcache).toBeDefined();
    expect(s.server.modelCalls()).toBe(1);
  });

  it("stores no API key or base URL anywhere in the data folder", async () => {
    const s = await setup({ semantic: true });
    const model = s.chat();
    expect(model._getSerializedCacheKeyParametersForCall({})).toContain(API_KEY);
    await model.invoke("A question worth storing");
    await s.llm().invoke("A completion worth storing");
    await s.cache.flush();
    const files = readdirSync(s.dataDir, { recursive: true, withFileTypes: true }).filter((entry) => entry.isFile());
    const bytes = Buffer.concat(files.map((entry) => readFileSync(join(entry.parentPath, entry.name))));
    expect(bytes.includes("A question worth storing")).toBe(true); // the scan does see the rows
    expect(bytes.includes(API_KEY)).toBe(false);
    expect(bytes.includes(new URL(s.server.baseURL).host)).toBe(false);
  });

  it("a cache fault during lookup and save: the model is still called and answers, faults counted", async () => {
    const errors: Error[] = [];
    const s = await setup({ semantic: true, init: { onError: (error) => errors.push(error) } });
    const model = s.chat();
    await model.invoke("before the fault");
    await s.cache.dataManager.scalar.close(); // every query now throws
    const answer = await model.invoke("before the fault");
    expect(answer.content).toBe("Echo: before the fault");
    expect(answer.response_metadata.semcache).toBeUndefined();
    expect(s.server.modelCalls()).toBe(2);
    expect(s.cache.report.errors).toBeGreaterThanOrEqual(2); // the lookup and the update
    expect(errors.length).toBe(s.cache.report.errors);
    await expect(s.cache.close()).rejects.toThrow(/not open/);
  });

  it("an answer too long to store is returned and counted as a skipped save", async () => {
    const s = await setup();
    const dir = tempDir();
    cleanups.push(dir.cleanup);
    const small = new Cache();
    cleanups.push(() => small.close());
    await small.init({ dataManager: managerFactory("sqlite", { dataDir: dir.path, scalarParams: { tableLenConfig: { answer: 20 } } }) });
    const model = s.chat({ cache: new SemanticCache({ cache: small }) });
    const answer = await model.invoke("a question whose echo is long");
    expect(answer.content).toBe("Echo: a question whose echo is long");
    expect(small.report.savesSkipped).toBe(1);
    await model.invoke("a question whose echo is long");
    expect(s.server.modelCalls()).toBe(2);
  });

  it("a stored entry that is not a list of generations is a miss (counted), and is replaced", async () => {
    const s = await setup();
    const model = s.chat();
    const request = { prompt: "broken entry", ...llmKeyPartition(model._getSerializedCacheKeyParametersForCall({})) };
    await putAnswer(request, { cacheObj: s.cache }, { answer: '{"not":"generations"}', answerType: "object" });
    expect((await model.invoke("broken entry")).content).toBe("Echo: broken entry");
    expect(s.cache.report.errors).toBe(1);
    expect(s.server.modelCalls()).toBe(1);
    const hit = await model.invoke("broken entry"); // the newest entry for a key answers
    expect(hit.response_metadata.semcache).toBeDefined();
    expect(s.server.modelCalls()).toBe(1);
  });

  it("batch: hits and misses mixed, answers in order, only misses reach the model", async () => {
    const s = await setup();
    const model = s.chat();
    await model.invoke("q1");
    await model.invoke("q3");
    const answers = await model.batch(["q1", "q2", "q3", "q4"]);
    expect(answers.map((m) => m.content)).toEqual(["Echo: q1", "Echo: q2", "Echo: q3", "Echo: q4"]);
    expect(answers.map((m) => m.response_metadata.semcache !== undefined)).toEqual([true, false, true, false]);
    expect(s.server.modelCalls()).toBe(4);
  });

  it("callback handlers see the hit: handleLLMNewToken and handleLLMEnd with cached: true", async () => {
    const s = await setup();
    const model = s.chat();
    await model.invoke("observed question");
    const seen: Array<{ output: LLMResult; extra?: Record<string, unknown> }> = [];
    const tokens: string[] = [];
    const handler = BaseCallbackHandler.fromMethods({
      handleLLMNewToken: (token: string) => void tokens.push(token),
      handleLLMEnd: (output: LLMResult, _runId: string, _parent?: string, _tags?: string[], extra?: Record<string, unknown>) =>
        void seen.push({ output, extra }),
    });
    await model.invoke("observed question", { callbacks: [handler] });
    await awaitAllCallbacks();
    expect(seen).toHaveLength(1);
    expect(seen[0].extra).toEqual({ cached: true });
    expect(seen[0].output.generations[0][0].text).toBe("Echo: observed question");
    expect(tokens).toEqual(["Echo: observed question"]);
    expect(s.server.modelCalls()).toBe(1);
  });

  it("requestOptions as a function of the prompt: cacheSkip sends matching prompts to the model", async () => {
    const s = await setup({ semanticCache: { requestOptions: (prompt) => ({ cacheSkip: prompt.includes("live") }) } });
    const model = s.chat();
    await model.invoke("live score");
    await model.invoke("live score");
    await model.invoke("static fact");
    await model.invoke("static fact");
    expect(s.server.modelCalls()).toBe(3);
  });

  it("a hit in the next cache (L2) is written back to L1 without the hit marker", async () => {
    const s = await setup(); // s.cache is L2
    await s.chat().invoke("layered question");
    const dir = tempDir();
    const l1 = new Cache();
    cleanups.push(dir.cleanup, () => l1.close());
    await l1.init({ dataManager: managerFactory("sqlite", { dataDir: dir.path }), nextCache: s.cache });
    const model = s.chat({ cache: new SemanticCache({ cache: l1 }) });
    expect((await model.invoke("layered question")).content).toBe("Echo: layered question");
    expect(s.cache.report.hits).toBe(1);
    await l1.flush();
    const stored = readFileSync(join(dir.path, "sqlite.db"));
    expect(stored.includes("Echo: layered question")).toBe(true);
    expect(stored.includes(`"semcache":`)).toBe(false); // the marker as a JSON key (tables are named semcache_*)
    const fromL1 = await model.invoke("layered question");
    expect(fromL1.response_metadata.semcache).toBeDefined();
    expect(l1.report.hits).toBe(1);
    expect(s.server.modelCalls()).toBe(1);
  });

  it("a text entry (importData for the model's partition) answers a chat model with an AIMessage", async () => {
    const s = await setup();
    const model = s.chat();
    const partition = llmKeyPartition(model._getSerializedCacheKeyParametersForCall({}));
    await importData(["Who wrote Hamlet?"], ["Shakespeare."], undefined, { cacheObj: s.cache, partition });
    const hit = await model.invoke("Who wrote Hamlet?");
    expect(hit).toBeInstanceOf(AIMessage);
    expect(hit.content).toBe("Shakespeare.");
    expect(s.server.modelCalls()).toBe(0);
  });
});

describe("SemanticCache with an LLM (completions)", () => {
  it("miss then hit; the answer is stored as text that the simple API reads too", async () => {
    const s = await setup();
    const llm = s.llm();
    const miss = await llm.invoke("Write a haiku");
    const hit = await llm.generate(["Write a haiku"]);
    expect(s.server.modelCalls()).toBe(1);
    expect(hit.generations[0][0].text).toBe(miss);
    expect(hit.generations[0][0].generationInfo).toEqual({ semcache: { hit: true, score: 1, id: expect.any(Number) }, tokenUsage: {} });
    expect(hit.llmOutput).toEqual({});
    const partition = llmKeyPartition(llm._getSerializedCacheKeyParametersForCall({}));
    expect(await get("Write a haiku", { cacheObj: s.cache, partition })).toBe(miss);
  });

  it("batch mixes hits and misses in order; chat and LLM entries never share a partition", async () => {
    const s = await setup();
    const llm = s.llm();
    await llm.invoke("p2");
    const answers = await llm.batch(["p1", "p2", "p3"]);
    expect(answers).toEqual(['Echo: ["p1"]', 'Echo: ["p2"]', 'Echo: ["p3"]']);
    expect(s.server.modelCalls()).toBe(3);
    await s.chat({ model: "gpt-test-instruct" }).invoke("p2");
    expect(s.server.modelCalls()).toBe(4);
  });
});

describe("SemanticCache with no arguments (its own offline preset, built on first use)", () => {
  function chatWith(server: FakeOpenAIServer, cache: SemanticCache): ChatOpenAI {
    return new ChatOpenAI({ model: "m", apiKey: API_KEY, configuration: { baseURL: server.baseURL }, maxRetries: 0, cache });
  }

  it("answers a repeat and a reworded question from the cache, and misses another question", async () => {
    const server = await startFakeOpenAI();
    cleanups.push(() => server.close());
    const model = chatWith(server, new SemanticCache());
    // Concurrent first calls share one initialisation: both miss, and the one model answer serves both.
    await Promise.all([model.invoke("What is the capital of France?"), model.invoke("What is the capital of France?")]);
    const calls = server.modelCalls();
    const repeat = await model.invoke("What is the capital of France?");
    const reworded = await model.invoke("What's the capital of France?");
    expect(server.modelCalls()).toBe(calls);
    expect(repeat.response_metadata.semcache).toMatchObject({ hit: true, score: 1 });
    expect(reworded.content).toBe("Echo: What is the capital of France?");
    expect((reworded.response_metadata.semcache as CacheHitMarker).hit).toBe(true);
    await model.invoke("What is the capital of Germany?");
    expect(server.modelCalls()).toBe(calls + 1);
  }, 60_000);

  it("writes nothing to disk without a dataDir; with one, entries survive a new SemanticCache", async () => {
    const server = await startFakeOpenAI();
    const dir = tempDir();
    cleanups.push(() => server.close(), dir.cleanup);
    const before = readdirSync(process.cwd()).sort();
    await chatWith(server, new SemanticCache()).invoke("Where is the Eiffel Tower?");
    expect(readdirSync(process.cwd()).sort()).toEqual(before);

    const first = new SemanticCache({ dataDir: dir.path });
    await chatWith(server, first).invoke("How tall is Mount Everest?");
    // One cache at a time on a data dir (its index folder is locked): close() closes the cache it built.
    await first.close();
    const second = new SemanticCache({ dataDir: dir.path });
    cleanups.push(() => second.close());
    const reopened = await chatWith(server, second).invoke("How tall is Mount Everest?");
    expect(reopened.response_metadata.semcache).toMatchObject({ hit: true });
    expect(server.modelCalls()).toBe(2);

    await second.clear();
    expect((await chatWith(server, second).invoke("How tall is Mount Everest?")).response_metadata.semcache).toBeUndefined();
    expect(server.modelCalls()).toBe(3);
  }, 60_000);

  it("a cache that cannot start never fails the model call: it misses, with one warning", async () => {
    const server = await startFakeOpenAI();
    const dir = tempDir();
    cleanups.push(() => server.close(), dir.cleanup);
    const file = join(dir.path, "not-a-folder");
    writeFileSync(file, "");
    const warn = jest.spyOn(console, "warn").mockImplementation(() => undefined);
    cleanups.push(() => warn.mockRestore());
    // The loading lines are silenced: the warning counted here is the one about the failed start.
    const model = chatWith(server, new SemanticCache({ dataDir: join(file, "data"), onProgress: false }));
    expect((await model.invoke("q1")).content).toBe("Echo: q1");
    expect((await model.invoke("q1")).content).toBe("Echo: q1");
    expect(server.modelCalls()).toBe(2);
    expect(warn).toHaveBeenCalledTimes(1);
    expect(String(warn.mock.calls[0][0])).toMatch(/^\[langchain-semcache\] the semantic cache could not start, so calls go to the model uncached: /);
  }, 60_000);

  it("a cache handed over uninitialised: calls miss (counted, one warning) until it is initialised, then hit", async () => {
    const server = await startFakeOpenAI();
    const cache = new Cache();
    cleanups.push(() => server.close(), () => cache.close());
    const warn = jest.spyOn(console, "warn").mockImplementation(() => undefined);
    cleanups.push(() => warn.mockRestore());
    const model = chatWith(server, new SemanticCache({ cache }));
    await model.invoke("q1");
    await model.invoke("q1");
    expect(server.modelCalls()).toBe(2);
    expect(cache.report.errors).toBe(4);
    expect(warn).toHaveBeenCalledTimes(1);
    await cache.init();
    await model.invoke("q1");
    expect((await model.invoke("q1")).response_metadata.semcache).toMatchObject({ hit: true });
    expect(server.modelCalls()).toBe(3);
  });

  it("fromEmbeddings: your LangChain Embeddings and VectorStore, judged by cosine similarity at the threshold", async () => {
    const server = await startFakeOpenAI();
    cleanups.push(() => server.close());
    const embeddings = new OpenAIEmbeddings({ apiKey: API_KEY, configuration: { baseURL: server.baseURL }, maxRetries: 0 });
    const store = new MemoryVectorStore(embeddings);
    const model = chatWith(server, SemanticCache.fromEmbeddings(embeddings, { threshold: 0.95, store }));
    await model.invoke("How do I sort a list in Python?");
    const hit = await model.invoke("How do I sort a list in Python?");
    expect(hit.response_metadata.semcache).toMatchObject({ hit: true });
    expect(store.memoryVectors).toHaveLength(1);
    expect(() => SemanticCache.fromEmbeddings({} as never)).toThrow(ValidationError);
    expect(() => SemanticCache.fromEmbeddings(embeddings, { store: 3 as never })).toThrow(ValidationError);
    expect(() => SemanticCache.fromEmbeddings(embeddings, { threshold: 2 })).toThrow(ValidationError);
  });
});

describe("SemanticCache options", () => {
  it("uses the global cache when given it", async () => {
    const server = await startFakeOpenAI();
    cleanups.push(() => server.close(), () => globalCache.close());
    await globalCache.init();
    const model = new ChatOpenAI({ model: "m", apiKey: API_KEY, configuration: { baseURL: server.baseURL }, maxRetries: 0, cache: new SemanticCache({ cache: globalCache }) });
    await model.invoke("global question");
    await model.invoke("global question");
    expect(server.modelCalls()).toBe(1);
    expect(globalCache.report.hits).toBe(1);
  });

  it("refuses LangChain's hashing key encoders with a clear error (the key text is chosen with preEmbeddingFunc)", () => {
    expect(() => new SemanticCache().makeDefaultKeyEncoder()).toThrow(/preEmbeddingFunc/);
  });

  it("rejects bad options with ValidationError", () => {
    expect(() => new SemanticCache({ cache: {} as Cache })).toThrow(ValidationError);
    expect(() => new SemanticCache({ cache: new Cache(), dataDir: "d" })).toThrow(ValidationError);
    expect(() => new SemanticCache({ dataDir: "" })).toThrow(ValidationError);
    expect(() => new SemanticCache({ threshold: -1 })).toThrow(ValidationError);
    expect(() => new SemanticCache({ shareAcrossContexts: "yes" as never })).toThrow(ValidationError);
    expect(() => new SemanticCache({ temperatureSkip: 1 as never })).toThrow(ValidationError);
    expect(() => new SemanticCache({ preEmbeddingFunc: "last" as never })).toThrow(ValidationError);
    expect(() => new SemanticCache({ requestOptions: 3 as never })).toThrow(ValidationError);
  });
});
