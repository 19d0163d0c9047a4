import { awaitAllCallbacks } from "@langchain/core/callbacks/promises";
import { OutputParserException } from "@langchain/core/output_parsers";
import { ChatPromptTemplate } from "@langchain/core/prompts";
import { FakeListChatModel } from "@langchain/core/utils/testing";
import { ChatOpenAI } from "@langchain/openai";
import { Cache, cached, Config, managerFactory } from "../../src/index.js";
import { SemcacheError, ValidationError } from "../../src/core/errors.js";
import { DEFAULT_JUDGE_PROMPT, LLMJudgeEvaluation, parseJudgement } from "../../src/similarity/llm-judge.js";
import { TimeEvaluation } from "../../src/similarity/time.js";
import { testSimilarityEvaluation } from "../../src/testing/evaluation-contract.js";
import { startFakeOpenAI, type FakeOpenAIServer } from "../../src/testing/index.js";
import { BagOfWordsEmbedding, tempDir } from "../helpers/fixtures.js";

const FILLER = new Set(["what", "whats", "is", "the", "how", "do", "i", "to", "please", "a", "can", "you", "tell", "me"]);
const gist = (text: string) => [...new Set((text.toLowerCase().match(/[a-z0-9%]+/g) ?? []).filter((w) => !FILLER.has(w)))].sort().join(" ");

/** The fake judge's rule: "yes" when both questions have the same content words, "no" otherwise. */
function judgeReply(body: Record<string, unknown>): string {
  const messages = body.messages as Array<{ role: string; content: string }>;
  const last = messages[messages.length - 1].content;
  const [, first = "", second = ""] = /^Question 1: (.*)\nQuestion 2: (.*)$/s.exec(last) ?? [];
  if (body.model === "scorer") return gist(first) === gist(second) ? "0.9" : "0.2";
  if (body.model === "rambler") return "Well, it depends on what you mean.";
  return gist(first) === gist(second) ? "yes" : "no";
}

let server: FakeOpenAIServer;
const bodies: Array<Record<string, unknown>> = [];
beforeAll(async () => {
  server = await startFakeOpenAI({
    reply: (body) => (bodies.push(body), judgeReply(body)),
    fail: (body) => (body.model === "broken" ? 500 : undefined),
  });
});
afterAll(() => server.close());

const chatModel = (model = "judge") =>
  new ChatOpenAI({ model, temperature: 0, apiKey: "test", configuration: { baseURL: server.baseURL }, maxRetries: 0 });
const pair = (a: string, b: string) => ({ src: { question: a }, cached: { question: b, answer: "x" } });

testSimilarityEvaluation({
  name: "LLMJudgeEvaluation (ChatOpenAI on a local OpenAI-wire server)",
  create: () => new LLMJudgeEvaluation({ model: chatModel() }),
  identical: () => pair("How do I install numpy?", "How do I install numpy?"),
  different: () => pair("How do I install numpy?", "How do I uninstall numpy?"),
  pair,
});

testSimilarityEvaluation({
  name: "LLMJudgeEvaluation (FakeListChatModel)",
  create: () => new LLMJudgeEvaluation({ model: new FakeListChatModel({ responses: ["No.", "yes"] }) }),
  identical: () => pair("capital of france", "capital of france"),
  different: () => pair("capital of france", "capital of spain"),
  pair,
});

describe("parseJudgement", () => {
  it("reads yes / no in any case, quoted or with a full stop, and scores from 0 to 1", () => {
    for (const reply of ["yes", "Yes.", " YES ", '"yes"', "**Yes**", "yes!"]) expect(parseJudgement(reply)).toBe(1);
    for (const reply of ["no", "No.", "NO", "'no'"]) expect(parseJudgement(reply)).toBe(0);
    expect(parseJudgement("0.75")).toBe(0.75);
    expect(parseJudgement("1")).toBe(1);
    expect(parseJudgement(".5")).toBe(0.5);
  });

  it("refuses anything else with LangChain's OutputParserException, carrying the reply", () => {
    for (const reply of ["yes, they are the same", "nope", "maybe", "1.5", "-0.2", "", "yes no"]) {
      let error: unknown;
      try {
        parseJudgement(reply);
      } catch (caught) {
        error = caught;
      }
      expect(error).toBeInstanceOf(OutputParserException);
      expect((error as OutputParserException).llmOutput).toBe(reply);
    }
  });
});

describe("LLMJudgeEvaluation", () => {
  it("tells paraphrases (yes) from opposite actions, other numbers and other entities (no)", async () => {
    const judge = new LLMJudgeEvaluation({ model: chatModel() });
    const score = (a: string, b: string) => judge.evaluation({ question: a }, { question: b, answer: "x" });
    expect(await score("How do I install numpy?", "how to install numpy please")).toBe(1);
    expect(await score("How do I install numpy?", "How do I uninstall numpy?")).toBe(0);
    expect(await score("What is 15% of 80?", "What is 20% of 80?")).toBe(0);
    expect(await score("Who founded Microsoft?", "Who founded Apple?")).toBe(0);
  });

  it("asks with the default few-shot prompt: the rules, examples of same and different, then the pair", async () => {
    bodies.length = 0;
    const judge = new LLMJudgeEvaluation({ model: chatModel() });
    await judge.evaluation({ question: "capital of italy" }, { question: "what is the capital of italy", answer: "Rome" });
    const messages = bodies[0].messages as Array<{ role: string; content: string }>;
    expect(messages[0].role).toBe("system");
    expect(messages[0].content).toMatch(/install and uninstall/);
    expect(messages.filter((m) => m.role === "assistant").map((m) => m.content)).toEqual(["yes", "no", "no", "no", "no", "yes"]);
    expect(messages.at(-1)).toEqual({ role: "user", content: "Question 1: capital of italy\nQuestion 2: what is the capital of italy" });
    expect(bodies[0].temperature).toBe(0);
    expect(judge.prompt).toBe(DEFAULT_JUDGE_PROMPT);
  });

  it("asks once per question pair, and not at all for the same or an empty question", async () => {
    const judge = new LLMJudgeEvaluation({ model: chatModel() });
    const before = server.modelCalls();
    const twice = await Promise.all([1, 2].map(() => judge.evaluation({ question: "bake bread" }, { question: "how do i bake bread", answer: "x" })));
    expect(twice).toEqual([1, 1]);
    expect(await judge.evaluation({ question: "bake bread" }, { question: "how do i bake bread", answer: "x" })).toBe(1);
    expect(await judge.evaluation({ question: "same" }, { question: "same", answer: "x" })).toBe(1);
    expect(await judge.evaluation({ question: "" }, { question: "text", answer: "x" })).toBe(0);
    expect(server.modelCalls() - before).toBe(1);
  });

  it("takes a custom prompt: text or a template, which may ask for a score", async () => {
    const byText = new LLMJudgeEvaluation({ model: chatModel(), prompt: "Question 1: {question}\nQuestion 2: {cached_question}" });
    expect(await byText.evaluation({ question: "sort a list" }, { question: "how do i sort a list", answer: "x" })).toBe(1);
    const scorer = new LLMJudgeEvaluation({
      model: chatModel("scorer"),
      prompt: ChatPromptTemplate.fromMessages([
        ["system", "Rate from 0 to 1 how interchangeable the answers to these questions are."],
        ["human", "Question 1: {question}\nQuestion 2: {cached_question}"],
      ]),
    });
    expect(await scorer.evaluation({ question: "sort a list" }, { question: "sort a list please", answer: "x" })).toBe(0.9);
    expect(await scorer.invoke({ question: "sort a list", cachedQuestion: "reverse a list" })).toBe(0.2);
    expect(() => new LLMJudgeEvaluation({ model: chatModel(), prompt: "Is {question} the same?" })).toThrow(ValidationError);
  });

  it("throws OutputParserException on a reply it cannot read, and asks again next time", async () => {
    const model = new FakeListChatModel({ responses: ["I think so", "yes"] });
    const judge = new LLMJudgeEvaluation({ model });
    const ask = () => judge.evaluation({ question: "a b" }, { question: "b a", answer: "x" });
    await expect(ask()).rejects.toBeInstanceOf(OutputParserException);
    expect(await ask()).toBe(1);
    await expect(new LLMJudgeEvaluation({ model: chatModel("rambler") }).evaluation(pair("a", "b").src, pair("a", "b").cached)).rejects.toMatchObject({
      llmOutput: "Well, it depends on what you mean.",
    });
  });

  it("lets a failing model's own error through, unwrapped", async () => {
    const judge = new LLMJudgeEvaluation({ model: chatModel("broken") });
    const error = await Promise.resolve(judge.evaluation(pair("a", "b").src, pair("a", "b").cached)).then(
      () => undefined,
      (caught: unknown) => caught,
    );
    expect(error).toBeInstanceOf(Error);
    expect(SemcacheError.isInstance(error)).toBe(false);
    expect(String((error as Error).message)).toMatch(/500|fake failure/);
  });

  it("needs a model and a valid cacheSize", () => {
    expect(() => new LLMJudgeEvaluation({} as never)).toThrow(ValidationError);
    expect(() => new LLMJudgeEvaluation({ model: { invoke: async () => "yes" } as never })).toThrow(ValidationError);
    expect(() => new LLMJudgeEvaluation({ model: chatModel(), cacheSize: 1.5 })).toThrow(ValidationError);
  });

  it("as a Runnable, nests the model's run under its own (also inside a TimeEvaluation)", async () => {
    const starts: Array<{ kind: string; runId: string; parentRunId?: string; name?: string }> = [];
    const handler = {
      handleChainStart: (_c: unknown, _i: unknown, runId: string, parentRunId?: string, _t?: unknown, _m?: unknown, _r?: unknown, name?: string) =>
        void starts.push({ kind: "chain", runId, parentRunId, name }),
      handleChatModelStart: (_l: unknown, _m: unknown, runId: string, parentRunId?: string) => void starts.push({ kind: "model", runId, parentRunId }),
    };
    const rootOf = (runId: string): string | undefined => {
      const run = starts.find((s) => s.runId === runId);
      return run?.parentRunId === undefined ? run?.name : rootOf(run.parentRunId);
    };
    const judge = new LLMJudgeEvaluation({ model: chatModel() });
    expect(await judge.invoke({ question: "install numpy", cachedQuestion: "how do i install numpy" }, { callbacks: [handler] })).toBe(1);
    const timed = new TimeEvaluation({ evaluation: new LLMJudgeEvaluation({ model: chatModel() }), timeRangeSeconds: 60 });
    const fresh = { src: { question: "install scipy" }, cached: { question: "install scipy please", answer: "x", createdAtMs: Date.now() } };
    expect(await timed.invoke(fresh, { callbacks: [handler] })).toBe(1);
    await awaitAllCallbacks();
    const models = starts.filter((s) => s.kind === "model");
    expect(models).toHaveLength(2);
    expect(models.map((m) => rootOf(m.runId))).toEqual(["LLMJudgeEvaluation", "TimeEvaluation"]);
  });

  describe("in a cache", () => {
    let dir: ReturnType<typeof tempDir>;
    let cache: Cache;
    afterEach(async () => {
      await cache.close();
      dir.cleanup();
    });

    async function judgedCache(judgeModel: string) {
      dir = tempDir();
      const errors: Error[] = [];
      cache = await new Cache().init({
        embeddingFunc: new BagOfWordsEmbedding(),
        dataManager: managerFactory("sqlite,hnswlib", { dataDir: dir.path }),
        similarityEvaluation: new LLMJudgeEvaluation({ model: chatModel(judgeModel) }),
        config: new Config({ similarityThreshold: 0.5 }),
        onError: (error) => errors.push(error),
      });
      let calls = 0;
      const ask = cached(async (prompt: string) => `answer ${++calls} to ${prompt}`, { requestOptions: { cacheObj: cache } });
      return { ask, errors };
    }

    it("answers a paraphrase from the cache and sends an opposite action to the model", async () => {
      const { ask } = await judgedCache("judge");
      const first = await ask("How do I install numpy?");
      expect(await ask("how to install numpy please")).toBe(first);
      expect(await ask("How do I uninstall numpy?")).toBe("answer 2 to How do I uninstall numpy?");
      expect(cache.report.hits).toBe(1);
    });

    it("fails open when the judge fails: the model answers, the fault is counted", async () => {
      const { ask, errors } = await judgedCache("broken");
      await ask("How do I install numpy?");
      expect(await ask("how to install numpy please")).toBe("answer 2 to how to install numpy please");
      expect(cache.report.errors).toBeGreaterThan(0);
      expect(errors.some((error) => /500|fake failure/.test(error.message))).toBe(true);
    });
  });
});
