/**
 * A LangChain v1 agent (the real `langchain` package's createAgent) whose model has a SemanticCache: its
 * second identical run is served from the cache, tool calls included.
 */
import type { AIMessage } from "@langchain/core/messages";
import { ChatOpenAI } from "@langchain/openai";
import { createAgent, tool } from "langchain";
import { z } from "zod";
import { Cache } from "../../src/index.js";
import { SemanticCache } from "../../src/langchain/semantic-cache.js";
import { startFakeOpenAI, type FakeOpenAIServer } from "../../src/testing/index.js";

let server: FakeOpenAIServer;
let cache: Cache;
let toolRuns: string[];
/** What the weather tool answers. */
let weather: string;

beforeEach(async () => {
  toolRuns = [];
  weather = "sunny";
  // A model that asks for the weather tool, then answers from the tool's result; every tool call gets a new id.
  let calls = 0;
  server = await startFakeOpenAI({
    reply: (body) => {
      const messages = body.messages as Array<{ role: string; content?: string }>;
      const last = messages.at(-1);
      if (last?.role === "tool") return `The weather: ${last.content}.`;
      return { toolCalls: [{ id: `call_${++calls}_${Date.now()}`, name: "get_weather", arguments: JSON.stringify({ city: "Paris" }) }] };
    },
  });
  cache = await new Cache().init();
});

afterEach(async () => {
  await server.close();
  await cache.close();
});

function weatherAgent() {
  const getWeather = tool(
    async ({ city }: { city: string }) => {
      toolRuns.push(city);
      return `${weather} in ${city}`;
    },
    { name: "get_weather", description: "The weather of a city", schema: z.object({ city: z.string() }) },
  );
  const model = new ChatOpenAI({ model: "gpt-4o-mini", apiKey: "sk-test", configuration: { baseURL: server.baseURL }, maxRetries: 0, cache: new SemanticCache({ cache }) });
  return createAgent({ model, tools: [getWeather] });
}

const ask = { messages: [{ role: "user", content: "What is the weather in Paris?" }] };

describe("createAgent with a SemanticCache on its model", () => {
  it("a second identical run makes no model call and ends with the same answer; replayed tool calls get fresh ids", async () => {
    const agent = weatherAgent();
    const first = await agent.invoke(ask);
    expect(server.modelCalls()).toBe(2);
    const second = await agent.invoke(ask);
    expect(server.modelCalls()).toBe(2);
    expect(second.messages.at(-1)?.content).toBe(first.messages.at(-1)?.content);
    expect(second.messages.at(-1)?.content).toBe("The weather: sunny in Paris.");
    // The tool itself still runs: only model calls are cached.
    expect(toolRuns).toEqual(["Paris", "Paris"]);
    const callId = (messages: typeof first.messages) => (messages.find((m) => (m as AIMessage).tool_calls?.length) as AIMessage).tool_calls![0].id;
    expect(callId(second.messages)).not.toBe(callId(first.messages));
    expect(cache.report.hits).toBe(2);
  });

  it("a tool that answers otherwise on the second run: the step that reads its result goes to the model", async () => {
    const agent = weatherAgent();
    await agent.invoke(ask);
    weather = "rainy";
    const second = await agent.invoke(ask);
    // The tool call is replayed (same question), its new result is never matched by meaning against the old one.
    expect(server.modelCalls()).toBe(3);
    expect(second.messages.at(-1)?.content).toBe("The weather: rainy in Paris.");
  });

  it("another question still reaches the model", async () => {
    const agent = weatherAgent();
    await agent.invoke(ask);
    await agent.invoke({ messages: [{ role: "user", content: "Should I take an umbrella in Paris tomorrow?" }] });
    expect(server.modelCalls()).toBe(4);
  });
});
