import { AIMessage, HumanMessage, SystemMessage } from "@langchain/core/messages";
import { OpenAIEmbeddings } from "@langchain/openai";
import { Cache, cached, Config, DistanceEvaluation, managerFactory } from "../../src/index.js";
import { ValidationError } from "../../src/core/errors.js";
import { concatAllQueries } from "../../src/processors/context/concat.js";
import { selectiveContext } from "../../src/processors/context/selective.js";
import { startFakeOpenAI } from "../../src/testing/index.js";
import { BagOfWordsEmbedding, tempDir } from "../helpers/fixtures.js";

const context = (options: ConstructorParameters<typeof Config>[0] = {}) => ({ config: new Config(options) });
const user = (content: string) => ({ role: "user", content });

const dialogue = [
  { role: "system", content: "You are a travel agent." },
  user("I am planning a trip to Japan in spring"),
  { role: "assistant", content: "Lovely, how long will the trip to Japan be?" },
  user("tell me a joke about cats"),
  user("my budget for the Japan trip is 2000 dollars"),
  user("what is the weather like at home today"),
  user("how much should I budget for food on my Japan trip"),
];

describe("selectiveContext", () => {
  it("keeps the earlier turns most similar to the question, in their order, then the question", async () => {
    const key = await selectiveContext({ embedding: new BagOfWordsEmbedding(), keep: 2 })({ messages: dialogue }, context());
    expect(key).toBe(
      "USER: I am planning a trip to Japan in spring\nUSER: my budget for the Japan trip is 2000 dollars\nUSER: how much should I budget for food on my Japan trip",
    );
  });

  it("reads LangChain messages and the config's skipList: assistant turns compete when not skipped", async () => {
    const messages = [
      new SystemMessage("You are a travel agent."),
      new HumanMessage("tell me a joke about cats"),
      new AIMessage("The trip to Japan should take ten days in spring"),
      new HumanMessage("what is the weather like at home today"),
      new HumanMessage("how many days should the Japan trip take"),
    ];
    const processor = selectiveContext({ embedding: new BagOfWordsEmbedding(), keep: 1 });
    expect(await processor({ messages }, context({ skipList: ["system"] }))).toBe(
      "ASSISTANT: The trip to Japan should take ten days in spring\nUSER: how many days should the Japan trip take",
    );
    expect(await processor({ messages }, context())).not.toContain("ASSISTANT");
  });

  it("keys a dialogue with no more than `keep` earlier turns whole, without embedding", async () => {
    const embedding = new BagOfWordsEmbedding();
    const short = { messages: [user("hello"), { role: "assistant", content: "hi" }, user("capital of france?")] };
    expect(await selectiveContext({ embedding })(short, context())).toBe("USER: hello\nUSER: capital of france?");
    expect(embedding.calls).toBe(0);
  });

  it("keys a dialogue within maxLength as concatAllQueries does", async () => {
    const embedding = new BagOfWordsEmbedding();
    const request = { messages: dialogue };
    expect(await selectiveContext({ embedding, keep: 1, maxLength: 10_000 })(request, context())).toBe(concatAllQueries(request, context()));
    expect(await selectiveContext({ embedding, keep: 1, maxLength: 50 })(request, context())).not.toBe(concatAllQueries(request, context()));
  });

  it("embeds each turn once: a growing dialogue embeds only its new turns", async () => {
    const embedding = new BagOfWordsEmbedding();
    const processor = selectiveContext({ embedding, keep: 1 });
    await processor({ messages: dialogue }, context());
    expect(embedding.calls).toBe(5);
    await processor({ messages: [...dialogue, user("and for hotels in Japan?")] }, context());
    expect(embedding.calls).toBe(6);
  });

  it("embeds with a LangChain Embeddings (OpenAIEmbeddings on a local OpenAI-wire server)", async () => {
    const server = await startFakeOpenAI();
    try {
      const embeddings = new OpenAIEmbeddings({ apiKey: "test", configuration: { baseURL: server.baseURL }, maxRetries: 0 });
      const key = await selectiveContext({ embedding: embeddings, keep: 1 })({ messages: dialogue }, context());
      expect(key).toBe("USER: my budget for the Japan trip is 2000 dollars\nUSER: how much should I budget for food on my Japan trip");
      expect(server.count("/v1/embeddings")).toBe(1);
    } finally {
      await server.close();
    }
  });

  it("validates its options and the request", async () => {
    const embedding = new BagOfWordsEmbedding();
    expect(() => selectiveContext({} as never)).toThrow(ValidationError);
    expect(() => selectiveContext({ embedding: 42 as never })).toThrow(ValidationError);
    expect(() => selectiveContext({ embedding, keep: 0 })).toThrow(ValidationError);
    expect(() => selectiveContext({ embedding, maxLength: -5 })).toThrow(ValidationError);
    const processor = selectiveContext({ embedding });
    await expect(processor({ prompt: "x" }, context())).rejects.toBeInstanceOf(ValidationError);
  });

  it("lets two dialogues that differ only in small talk share a cached answer", async () => {
    const dir = tempDir();
    const cache = await new Cache().init({
      preEmbeddingFunc: selectiveContext({ embedding: new BagOfWordsEmbedding(), keep: 2 }),
      embeddingFunc: new BagOfWordsEmbedding(),
      dataManager: managerFactory("sqlite,hnswlib", { dataDir: dir.path }),
      similarityEvaluation: new DistanceEvaluation(),
      config: new Config({ similarityThreshold: 0.95 }),
    });
    try {
      let answers = 0;
      const agent = cached(async (_messages: unknown[]) => `answer ${++answers}`, {
        toRequest: (messages: unknown[]) => ({ messages }),
        requestOptions: { cacheObj: cache },
      });
      expect(await agent(dialogue)).toBe("answer 1");
      const otherSmallTalk = [dialogue[1], user("do you like football"), dialogue[4], user("sing me a song please"), dialogue[6]];
      expect(await agent(otherSmallTalk)).toBe("answer 1");
      expect(await agent([...dialogue.slice(0, -1), user("which museums should I see in Japan")])).toBe("answer 2");
      expect(cache.report.hits).toBe(1);
    } finally {
      await cache.close();
      dir.cleanup();
    }
  });
});
