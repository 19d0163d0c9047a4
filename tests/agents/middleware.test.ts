/**
 * semanticCacheMiddleware in a LangChain v1 agent (the real `langchain` package's createAgent and
 * createMiddleware), with ChatOpenAI against the local fake OpenAI server.
 */
import { jest } from "@jest/globals";
import type { AIMessage, BaseMessage } from "@langchain/core/messages";
import { ChatOpenAI } from "@langchain/openai";
import { MemorySaver } from "@langchain/langgraph";
import { createAgent, initChatModel, tool } from "langchain";
import { z } from "zod";
import { semanticCacheMiddleware } from "../../src/agents/index.js";
import { Cache, ValidationError } from "../../src/index.js";
import type { SemcacheMarker } from "../../src/langchain/messages.js";
import { testResources } from "../helpers/langchain.js";
import type { FakeOpenAIServer } from "../../src/testing/index.js";

const { closeAll, serve, newCache, push } = testResources();
afterEach(closeAll);

let toolRuns: string[];
/** What the weather tool answers. */
let weather: string;

beforeEach(() => {
  toolRuns = [];
  weather = "sunny";
});

/** A model that asks for the weather tool, then answers from its result; every tool call gets a new id. */
async function weatherServer(): Promise<FakeOpenAIServer> {
  let calls = 0;
  return serve({
    reply: (body) => {
      const messages = body.messages as Array<{ role: string; content?: string | Array<{ text?: string }> }>;
      const text = (content: (typeof messages)[number]["content"]) => (typeof content === "string" ? content : content?.map((part) => part.text).join(""));
      const last = messages.at(-1);
      if (last?.role === "tool") return `The weather: ${text(last.content)}.`;
      if (!Array.isArray(body.tools)) return `Echo: ${messages.map((m) => text(m.content)).join(" | ")}`;
      return { toolCalls: [{ id: `call_${++calls}_${Date.now()}`, name: "get_weather", arguments: JSON.stringify({ city: "Paris" }) }] };
    },
  });
}

const getWeather = tool(
  async ({ city }: { city: string }) => {
    toolRuns.push(city);
    return `${weather} in ${city}`;
  },
  { name: "get_weather", description: "The weather of a city", schema: z.object({ city: z.string() }) },
);

function chatModel(server: FakeOpenAIServer): ChatOpenAI {
  return new ChatOpenAI({ model: "gpt-4o-mini", apiKey: "sk-test", configuration: { baseURL: server.baseURL }, maxRetries: 0 });
}

const ask = (content: string) => ({ messages: [{ role: "user", content }] });
const WEATHER = ask("What is the weather in Paris?");

function markerOf(message: BaseMessage | undefined): SemcacheMarker | undefined {
  return (message?.response_metadata as Record<string, unknown> | undefined)?.semcache as SemcacheMarker | undefined;
}

function toolCallId(messages: BaseMessage[]): string | undefined {
  return (messages.find((m) => (m as AIMessage).tool_calls?.length) as AIMessage | undefined)?.tool_calls?.[0]?.id;
}

describe("semanticCacheMiddleware in createAgent", () => {
  it("a second identical run makes no model call and ends with the same answer; replayed tool calls get fresh ids", async () => {
    const server = await weatherServer();
    const cache = await newCache();
    const agent = createAgent({ model: chatModel(server), tools: [getWeather], middleware: [semanticCacheMiddleware({ cache })] });
    const first = await agent.invoke(WEATHER);
    expect(server.modelCalls()).toBe(2);
    const second = await agent.invoke(WEATHER);
    expect(server.modelCalls()).toBe(2);
    expect(second.messages.at(-1)?.content).toBe("The weather: sunny in Paris.");
    expect(second.messages.at(-1)?.content).toBe(first.messages.at(-1)?.content);
    expect(markerOf(second.messages.at(-1))).toEqual({ hit: true, score: 1, id: expect.any(Number) });
    expect((second.messages.at(-1) as AIMessage).usage_metadata?.total_tokens).toBe(0);
    expect(toolRuns).toEqual(["Paris", "Paris"]);
    expect(toolCallId(second.messages)).not.toBe(toolCallId(first.messages));
    expect(cache.report.hits).toBe(2);
  });

  it("a tool that answers otherwise: the step that reads its result goes to the model", async () => {
    const server = await weatherServer();
    const agent = createAgent({ model: chatModel(server), tools: [getWeather], middleware: [semanticCacheMiddleware({ cache: await newCache() })] });
    await agent.invoke(WEATHER);
    weather = "rainy";
    const second = await agent.invoke(WEATHER);
    expect(server.modelCalls()).toBe(3);
    expect(second.messages.at(-1)?.content).toBe("The weather: rainy in Paris.");
  });

  it("other tools (another schema) are another partition", async () => {
    const server = await weatherServer();
    const cache = await newCache();
    const otherTool = tool(async () => "cloudy", { name: "get_weather", description: "The weather of a city", schema: z.object({ city: z.string(), day: z.string() }) });
    await createAgent({ model: chatModel(server), tools: [getWeather], middleware: [semanticCacheMiddleware({ cache })] }).invoke(WEATHER);
    await createAgent({ model: chatModel(server), tools: [otherTool], middleware: [semanticCacheMiddleware({ cache })] }).invoke(WEATHER);
    expect(server.modelCalls()).toBe(4);
  });

  it("streamed with streamMode messages: a hit arrives whole, marked, with no model call", async () => {
    const server = await weatherServer();
    const agent = createAgent({ model: chatModel(server), tools: [getWeather], middleware: [semanticCacheMiddleware({ cache: await newCache() })] });
    await agent.invoke(WEATHER);
    const streamed: BaseMessage[] = [];
    for await (const [message] of await agent.stream(WEATHER, { streamMode: "messages" })) streamed.push(message as BaseMessage);
    expect(server.modelCalls()).toBe(2);
    const answers = streamed.filter((message) => message.getType() === "ai");
    expect(answers.map(markerOf)).toEqual([expect.objectContaining({ hit: true }), expect.objectContaining({ hit: true })]);
    expect(answers.at(-1)?.content).toBe("The weather: sunny in Paris.");
  });

  it("its own offline preset: the system prompt keeps answers apart, a reworded question hits within one", async () => {
    const server = await weatherServer();
    const middleware = semanticCacheMiddleware();
    push(() => middleware.close());
    const agentIn = (language: string) => createAgent({ model: chatModel(server), tools: [], systemPrompt: `Answer in ${language}.`, middleware: [middleware] });
    const english = await agentIn("English").invoke(ask("What is the capital of France?"));
    const french = await agentIn("French").invoke(ask("What is the capital of France?"));
    expect(server.modelCalls()).toBe(2);
    expect(french.messages.at(-1)?.content).toBe("Echo: Answer in French. | What is the capital of France?");
    const reworded = await agentIn("French").invoke(ask("What's the capital of France?"));
    expect(markerOf(reworded.messages.at(-1))).toMatchObject({ hit: true });
    expect(reworded.messages.at(-1)?.content).toBe(french.messages.at(-1)?.content);
    expect((await agentIn("English").invoke(ask("What's the capital of France?"))).messages.at(-1)?.content).toBe(english.messages.at(-1)?.content);
    expect(server.modelCalls()).toBe(2);
    await middleware.clear();
    await agentIn("English").invoke(ask("What is the capital of France?"));
    expect(server.modelCalls()).toBe(3);
  });

  it("earlier turns partition: two conversations do not share the answer to 'How old is he?'", async () => {
    const server = await weatherServer();
    const agent = createAgent({ model: chatModel(server), tools: [], middleware: [semanticCacheMiddleware({ cache: await newCache() })] });
    const about = (person: string) => ({
      messages: [
        { role: "user", content: `Tell me about ${person}.` },
        { role: "assistant", content: `${person} is a writer.` },
        { role: "user", content: "How old is he?" },
      ],
    });
    await agent.invoke(about("Victor Hugo"));
    const other = await agent.invoke(about("Jules Verne"));
    expect(markerOf(other.messages.at(-1))).toBeUndefined();
    expect(server.modelCalls()).toBe(2);
  });

  it("structured output passes through uncached", async () => {
    const server = await serve({ reply: () => '{"city":"Paris"}' });
    const agent = createAgent({
      model: chatModel(server),
      tools: [],
      responseFormat: z.object({ city: z.string() }),
      middleware: [semanticCacheMiddleware({ cache: await newCache() })],
    });
    for (let i = 0; i < 2; i++) expect((await agent.invoke(ask("Where is the Louvre?"))).structuredResponse).toEqual({ city: "Paris" });
    expect(server.modelCalls()).toBe(2);
  });

  it("a cache that is not initialised fails open: the model answers", async () => {
    const server = await weatherServer();
    const agent = createAgent({ model: chatModel(server), tools: [getWeather], middleware: [semanticCacheMiddleware({ cache: new Cache() })] });
    jest.spyOn(console, "warn").mockImplementation(() => undefined);
    expect((await agent.invoke(WEATHER)).messages.at(-1)?.content).toBe("The weather: sunny in Paris.");
    expect(server.modelCalls()).toBe(2);
  });

  it("warm() stores pairs where the agent's model calls look them up: its model, system prompt and tools", async () => {
    const server = await weatherServer();
    const middleware = semanticCacheMiddleware({ cache: await newCache() });
    const model = chatModel(server);
    await middleware.warm({ model, systemPrompt: "Be brief." }, [{ question: "Who wrote Hamlet?", answer: "Shakespeare." }]);
    const brief = createAgent({ model, tools: [], systemPrompt: "Be brief.", middleware: [middleware] });
    const answer = await brief.invoke(ask("Who wrote Hamlet?"));
    expect(answer.messages.at(-1)?.content).toBe("Shakespeare.");
    expect(markerOf(answer.messages.at(-1))).toMatchObject({ hit: true });
    // Another system prompt is another context.
    await createAgent({ model, tools: [], middleware: [middleware] }).invoke(ask("Who wrote Hamlet?"));
    expect(server.modelCalls()).toBe(1);
    await expect(middleware.warm({ model: {} as never }, [{ question: "q", answer: "a" }])).rejects.toThrow(ValidationError);
  });

  it("a model given by name (initChatModel) keys as the model it resolves to: two models never share an answer", async () => {
    const server = await weatherServer();
    const cache = await newCache();
    const byName = async (model: string) => {
      const named = await initChatModel(model, { apiKey: "sk-test", configuration: { baseURL: server.baseURL }, useResponsesApi: false, maxRetries: 0 });
      return createAgent({ model: named, tools: [], middleware: [semanticCacheMiddleware({ cache })] });
    };
    await (await byName("openai:gpt-4o-mini")).invoke(ask("Which model are you?"));
    expect(markerOf((await (await byName("openai:gpt-4o")).invoke(ask("Which model are you?"))).messages.at(-1))).toBeUndefined();
    expect(markerOf((await (await byName("openai:gpt-4o-mini")).invoke(ask("Which model are you?"))).messages.at(-1))).toMatchObject({ hit: true });
    expect(server.modelCalls()).toBe(2);
  });

  it("in a thread (a checkpointer), a replayed answer is a new message: the history stays whole", async () => {
    const server = await weatherServer();
    const agent = createAgent({
      model: chatModel(server),
      tools: [getWeather],
      checkpointer: new MemorySaver(),
      middleware: [semanticCacheMiddleware({ cache: await newCache(), shareAcrossContexts: true })],
    });
    const thread = { configurable: { thread_id: "t1" } };
    await agent.invoke(WEATHER, thread);
    const second = await agent.invoke(WEATHER, thread);
    expect(second.messages.map((m) => m.getType())).toEqual(["human", "ai", "tool", "ai", "human", "ai", "tool", "ai"]);
    expect(second.messages.at(-1)?.content).toBe("The weather: sunny in Paris.");
    expect(new Set(second.messages.map((m) => m.id)).size).toBe(8);
  });

  it("refuses bad options with a ValidationError", () => {
    expect(() => semanticCacheMiddleware({ threshold: 2 })).toThrow(ValidationError);
    expect(() => semanticCacheMiddleware({ cache: {} as never })).toThrow(ValidationError);
    expect(() => semanticCacheMiddleware({ shareAcrossContexts: "yes" as never })).toThrow(ValidationError);
    expect(() => semanticCacheMiddleware({ cache: () => Promise.resolve(new Cache()), dataDir: "/tmp/x" })).toThrow(ValidationError);
    expect(() => semanticCacheMiddleware({ onProgress: "loud" as never })).toThrow(ValidationError);
    expect(() => semanticCacheMiddleware({ cache: () => Promise.resolve(new Cache()), onProgress: false })).toThrow(ValidationError);
  });
});
