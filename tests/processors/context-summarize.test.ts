import { AIMessage, HumanMessage, SystemMessage } from "@langchain/core/messages";
import { StringOutputParser } from "@langchain/core/output_parsers";
import { RunnableLambda } from "@langchain/core/runnables";
import { FakeListChatModel } from "@langchain/core/utils/testing";
import { ChatOpenAI } from "@langchain/openai";
import { Cache, cached, Config, DistanceEvaluation, managerFactory } from "../../src/index.js";
import { ValidationError } from "../../src/core/errors.js";
import { concatAllQueries } from "../../src/processors/context/concat.js";
import { DEFAULT_SUMMARY_PROMPT, summarizeContext, type SummarizeContextOptions } from "../../src/processors/context/summarize.js";
import { startFakeOpenAI, type FakeOpenAIServer } from "../../src/testing/index.js";
import { BagOfWordsEmbedding, tempDir } from "../helpers/fixtures.js";

/** What the fake summariser "understands": the topics a dialogue mentions, whatever the wording. */
const TOPICS: Record<string, string> = { japan: "Japan", april: "April", budget: "a small budget", cheap: "a small budget", italy: "Italy", may: "May", trains: "trains", rail: "trains" };

function summarise(dialogue: string): string {
  const found = new Set((dialogue.toLowerCase().match(/[a-z]+/g) ?? []).map((word) => TOPICS[word]).filter(Boolean));
  return `The user plans a trip: ${[...found].sort().join(", ")}.`;
}

let server: FakeOpenAIServer;
const dialogues: string[] = [];
beforeAll(async () => {
  server = await startFakeOpenAI({
    reply: (body) => {
      const messages = body.messages as Array<{ role: string; content: string }>;
      dialogues.push(messages[messages.length - 1].content);
      return summarise(messages[messages.length - 1].content);
    },
  });
});
afterAll(() => server.close());

const chain = () =>
  DEFAULT_SUMMARY_PROMPT.pipe(new ChatOpenAI({ model: "summarizer", apiKey: "test", configuration: { baseURL: server.baseURL }, maxRetries: 0 })).pipe(
    new StringOutputParser(),
  );
const context = (options: ConstructorParameters<typeof Config>[0] = {}) => ({ config: new Config(options) });

const tripA = [
  new SystemMessage("You are a travel agent."),
  new HumanMessage("Hi! I'm planning a trip to Japan and I want to see as much as I can."),
  new AIMessage("Great, when are you going?"),
  new HumanMessage("In April, during the cherry blossom season, and my budget is small."),
  new AIMessage("Noted."),
  new HumanMessage("Which city should we visit first?"),
];
const tripB = [
  new HumanMessage("Hello there, I am going to Japan soon, it is my first time abroad."),
  new HumanMessage("It will be April. Hostels and cheap food are what I can afford, honestly."),
  new HumanMessage("Which city should we visit first?"),
];
const tripItaly = [
  new HumanMessage("Hello there, I am going to Italy soon, it is my first time abroad, I am so excited."),
  new HumanMessage("It will be May. Hostels and cheap food are what I can afford, honestly."),
  new HumanMessage("Which city should we visit first?"),
];

describe("summarizeContext", () => {
  it("keys a long dialogue on the summary of its earlier turns and the question, verbatim", async () => {
    dialogues.length = 0;
    const key = await summarizeContext({ runnable: chain(), maxLength: 100 })({ messages: tripA }, context());
    expect(key).toBe("SUMMARY: The user plans a trip: April, Japan, a small budget.\nUSER: Which city should we visit first?");
    // The summariser saw the earlier user turns only: system and assistant turns are in the default skipList.
    expect(dialogues).toEqual([
      "USER: Hi! I'm planning a trip to Japan and I want to see as much as I can.\nUSER: In April, during the cherry blossom season, and my budget is small.",
    ]);
  });

  it("keys a dialogue within maxLength as concatAllQueries does, without summarising", async () => {
    const runnable = RunnableLambda.from(async (): Promise<string> => {
      throw new Error("must not summarise");
    });
    const short = { messages: [{ role: "user", content: "hi" }, { role: "assistant", content: "hello" }, { role: "user", content: "capital of france?" }] };
    expect(await summarizeContext({ runnable })(short, context())).toBe(concatAllQueries(short, context()));
    expect(await summarizeContext({ runnable })(short, context())).toBe("USER: hi\nUSER: capital of france?");
    const alone = { messages: [{ role: "user", content: "a very long question ".repeat(50) }] };
    expect(await summarizeContext({ runnable, maxLength: 10 })(alone, context())).toBe(concatAllQueries(alone, context()));
  });

  it("measures by lengthFunction, or in tokens with a tokenizer", async () => {
    let summaries = 0;
    const runnable = RunnableLambda.from(async () => `summary ${++summaries}`);
    const request = { messages: [{ role: "user", content: "one two three" }, { role: "user", content: "four five" }] };
    const words = { encode: (text: string) => text.split(/\s+/).map((_, i) => i) };
    // "USER: one two three\nUSER: four five" is 7 tokens split on white space, 35 characters, 2 lines.
    expect(await summarizeContext({ runnable, maxLength: 7, tokenizer: words })(request, context())).toBe("USER: one two three\nUSER: four five");
    expect(await summarizeContext({ runnable, maxLength: 6, tokenizer: words })(request, context())).toBe("SUMMARY: summary 1\nUSER: four five");
    expect(await summarizeContext({ runnable, maxLength: 35 })(request, context())).toMatch(/^USER: one/);
    expect(await summarizeContext({ runnable, maxLength: 34 })(request, context())).toMatch(/^SUMMARY: summary 2\n/);
    const lines = (text: string) => text.split("\n").length;
    expect(await summarizeContext({ runnable, maxLength: 2, lengthFunction: lines })(request, context())).toMatch(/^USER: one/);
    expect(await summarizeContext({ runnable, maxLength: 1, lengthFunction: lines })(request, context())).toMatch(/^SUMMARY: summary 3\n/);
  });

  it("summarises the same earlier turns once, however often and concurrently they are asked about", async () => {
    let summaries = 0;
    const runnable = RunnableLambda.from(async ({ dialogue }: { dialogue: string }) => (summaries++, `gist of ${dialogue.length} chars`));
    const processor = summarizeContext({ runnable, maxLength: 50 });
    const followUp = [...tripA.slice(0, -1), new HumanMessage("And the second city?")];
    const keys = await Promise.all([processor({ messages: tripA }, context()), processor({ messages: tripA }, context())]);
    const other = await processor({ messages: followUp }, context());
    expect(keys[0]).toBe(keys[1]);
    expect(other).toBe(keys[0].replace("Which city should we visit first?", "And the second city?"));
    expect(summaries).toBe(1);
    await processor({ messages: tripB }, context());
    expect(summaries).toBe(2);
  });

  it("summarises the turns the config keeps: a custom skipList lets assistant turns in", async () => {
    const seen: string[] = [];
    const runnable = RunnableLambda.from(async ({ dialogue }: { dialogue: string }) => (seen.push(dialogue), "s"));
    await summarizeContext({ runnable, maxLength: 20 })({ messages: tripA }, context({ skipList: ["system"] }));
    expect(seen[0]).toContain("ASSISTANT: Great, when are you going?");
    expect(seen[0]).not.toContain("travel agent");
  });

  it("works with a FakeListChatModel chain, and takes a message when the chain has no parser", async () => {
    const model = new FakeListChatModel({ responses: ["Japan in April on a budget."] });
    const withParser = DEFAULT_SUMMARY_PROMPT.pipe(model).pipe(new StringOutputParser());
    expect(await summarizeContext({ runnable: withParser, maxLength: 50 })({ messages: tripA }, context())).toBe(
      "SUMMARY: Japan in April on a budget.\nUSER: Which city should we visit first?",
    );
    const withoutParser = DEFAULT_SUMMARY_PROMPT.pipe(new FakeListChatModel({ responses: ["  Japan.  "] }));
    expect(await summarizeContext({ runnable: withoutParser, maxLength: 50 })({ messages: tripA }, context())).toBe(
      "SUMMARY: Japan.\nUSER: Which city should we visit first?",
    );
  });

  it("lets the runnable's failure through, and tries again next time", async () => {
    let calls = 0;
    const runnable = RunnableLambda.from(async () => {
      if (++calls === 1) throw new Error("summariser down");
      return "fine";
    });
    const processor = summarizeContext({ runnable, maxLength: 10 });
    await expect(processor({ messages: tripA }, context())).rejects.toThrow("summariser down");
    expect(await processor({ messages: tripA }, context())).toMatch(/^SUMMARY: fine\n/);
    const bad = summarizeContext({ runnable: RunnableLambda.from(async () => 42), maxLength: 10 });
    await expect(bad({ messages: tripA }, context())).rejects.toBeInstanceOf(ValidationError);
  });

  it("validates its options and the request", async () => {
    const runnable = chain();
    expect(() => summarizeContext({} as never)).toThrow(ValidationError);
    expect(() => summarizeContext({ runnable: (async () => "s") as never })).toThrow(ValidationError);
    expect(() => summarizeContext({ runnable, maxLength: 0 })).toThrow(ValidationError);
    expect(() => summarizeContext({ runnable, cacheSize: -1 })).toThrow(ValidationError);
    expect(() => summarizeContext({ runnable, lengthFunction: (t) => t.length, tokenizer: { encode: () => [] } })).toThrow(ValidationError);
    expect(() => summarizeContext({ runnable, tokenizer: {} as never })).toThrow(ValidationError);
    const processor = summarizeContext({ runnable });
    await expect(Promise.resolve().then(() => processor({ prompt: "no messages" }, context()))).rejects.toBeInstanceOf(ValidationError);
    await expect(Promise.resolve().then(() => processor({ messages: [{ role: "assistant", content: "x" }] }, context()))).rejects.toBeInstanceOf(
      ValidationError,
    );
  });

  describe("in a cache", () => {
    let dir: ReturnType<typeof tempDir>;
    let cache: Cache;
    afterEach(async () => {
      await cache.close();
      dir.cleanup();
    });

    async function agentWith(runnable: SummarizeContextOptions["runnable"]) {
      dir = tempDir();
      cache = await new Cache().init({
        preEmbeddingFunc: summarizeContext({ runnable, maxLength: 100 }),
        embeddingFunc: new BagOfWordsEmbedding(),
        dataManager: managerFactory("sqlite,hnswlib", { dataDir: dir.path }),
        similarityEvaluation: new DistanceEvaluation(),
        config: new Config({ similarityThreshold: 0.95 }),
      });
      let answers = 0;
      return cached(async (messages: unknown[]) => `itinerary ${++answers} for ${messages.length} turns`, {
        toRequest: (messages) => ({ messages }),
        requestOptions: { cacheObj: cache },
      });
    }

    it("answers a second long dialogue with the same gist from the cache, and a different trip from the model", async () => {
      const agent = await agentWith(chain());
      const summariesBefore = server.modelCalls();
      expect(await agent(tripA)).toBe("itinerary 1 for 6 turns");
      expect(await agent(tripB)).toBe("itinerary 1 for 6 turns");
      expect(await agent(tripItaly)).toBe("itinerary 2 for 3 turns");
      expect(await agent(tripA)).toBe("itinerary 1 for 6 turns");
      expect(cache.report.hits).toBe(2);
      // Three distinct dialogues, three summaries: asking about tripA again reused its summary.
      expect(server.modelCalls() - summariesBefore).toBe(3);
    });

    it("fails open when the summariser fails: the model answers, nothing is stored, the fault is counted", async () => {
      const broken = RunnableLambda.from(async (): Promise<string> => {
        throw new Error("summariser down");
      });
      const agent = await agentWith(broken);
      expect(await agent(tripA)).toBe("itinerary 1 for 6 turns");
      expect(await agent(tripA)).toBe("itinerary 2 for 6 turns");
      expect(cache.report.errors).toBe(2);
    });
  });
});
