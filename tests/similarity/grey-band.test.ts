import { awaitAllCallbacks } from "@langchain/core/callbacks/promises";
import { BaseChatModel } from "@langchain/core/language_models/chat_models";
import { AIMessage, type BaseMessage } from "@langchain/core/messages";
import type { ChatResult } from "@langchain/core/outputs";
import { FakeListChatModel } from "@langchain/core/utils/testing";
import { Cache, cached, Config, DistanceEvaluation, get, managerFactory, put } from "../../src/index.js";
import { ValidationError } from "../../src/core/errors.js";
import { SemanticCache } from "../../src/langchain/index.js";
import { GreyBandEvaluation, type GreyBandOptions } from "../../src/similarity/grey-band.js";
import { testSimilarityEvaluation } from "../../src/testing/evaluation-contract.js";
import { BagOfWordsEmbedding, tempDir } from "../helpers/fixtures.js";

const FILLER = new Set(["what", "is", "the", "how", "do", "i", "to", "please", "a", "can", "you", "human"]);
const gist = (text: string) => [...new Set((text.toLowerCase().match(/[a-z0-9%]+/g) ?? []).filter((w) => !FILLER.has(w)))].sort().join(" ");

/** The rule the fake verifier follows: the same content words ask the same thing. */
const sameGist = (question: string, cachedQuestion: string) => (gist(question) === gist(cachedQuestion) ? "yes" : "no");

/**
 * A chat model standing in for the verifier: reads the pair from the prompt's last message, answers by
 * `reply`, records what it was asked, and reports 120 prompt and 1 completion token per call.
 */
class FakeVerifier extends BaseChatModel {
  readonly asked: Array<[string, string]> = [];
  readonly prompts: string[] = [];

  constructor(readonly reply: (question: string, cachedQuestion: string) => string | Promise<string> = sameGist) {
    super({});
  }

  _llmType(): string {
    return "fake-verifier";
  }

  async _generate(messages: BaseMessage[]): Promise<ChatResult> {
    const last = String(messages.at(-1)?.content ?? "");
    this.prompts.push(last);
    const [, first = "", second = ""] = /^Question 1: (.*)\nQuestion 2: (.*?)(?:\n|$)/s.exec(last) ?? [];
    this.asked.push([first, second]);
    const text = await this.reply(first, second);
    const message = new AIMessage({ content: text, usage_metadata: { input_tokens: 120, output_tokens: 1, total_tokens: 121 } });
    return { generations: [{ text, message }] };
  }
}

/** A band [0.6, 0.9) over the cosine, with the threshold at its top: above it hits, below it misses, inside the verifier decides. */
const band = (verifier: FakeVerifier, options: Partial<GreyBandOptions> = {}) =>
  new GreyBandEvaluation({ evaluation: new DistanceEvaluation(), verifier, lower: 0.6, upper: 0.9, ...options });

/** A candidate at cosine similarity `similarity` to the request (through its search distance). */
const at = (similarity: number, question: string, answer = `answer to ${question}`) => ({ question, answer, distance: 1 - similarity });

/** Rejections no one handled while `run` ran. */
async function unhandledDuring(run: () => Promise<void>): Promise<unknown[]> {
  const seen: unknown[] = [];
  const listener = (reason: unknown) => void seen.push(reason);
  process.on("unhandledRejection", listener);
  try {
    await run();
    await new Promise((resolve) => setImmediate(resolve));
  } finally {
    process.off("unhandledRejection", listener);
  }
  return seen;
}

testSimilarityEvaluation({
  name: "GreyBandEvaluation (DistanceEvaluation, a fake verifier)",
  create: () => band(new FakeVerifier()),
  identical: () => ({ src: { question: "capital of france" }, cached: at(1, "capital of france") }),
  different: () => ({ src: { question: "How do I install numpy?" }, cached: at(0.8, "How do I uninstall numpy?") }),
});

describe("GreyBandEvaluation", () => {
  it("leaves scores outside the band as they are, and asks the verifier inside it: yes scores 1, no 0", async () => {
    const verifier = new FakeVerifier();
    const evaluation = band(verifier);
    const src = { question: "how do i install numpy" };
    expect(await evaluation.evaluation(src, at(0.3, "weather in paris"))).toBeCloseTo(0.3);
    expect(await evaluation.evaluation(src, at(0.95, "how do i install numpy now"))).toBeCloseTo(0.95);
    expect(verifier.asked).toEqual([]);
    expect(await evaluation.evaluation(src, at(0.7, "install numpy please"))).toBe(1);
    expect(await evaluation.evaluation(src, at(0.85, "how do i uninstall numpy"))).toBe(0);
    expect(await evaluation.evaluation(src, at(0.6, "numpy install"))).toBe(1); // lower is inside the band
    expect(await evaluation.evaluation(src, at(0.9, "numpy setup"))).toBeCloseTo(0.9); // upper is not
    expect(verifier.asked).toEqual([
      ["how do i install numpy", "install numpy please"],
      ["how do i install numpy", "how do i uninstall numpy"],
      ["how do i install numpy", "numpy install"],
    ]);
  });

  it("asks once per question pair: a repeat, a concurrent ask or the same question stored twice reads the verdict", async () => {
    const verifier = new FakeVerifier();
    const evaluation = band(verifier);
    const src = { question: "bake bread" };
    expect(await Promise.all([1, 2, 3].map(() => evaluation.evaluation(src, at(0.7, "how do i bake bread"))))).toEqual([1, 1, 1]);
    expect(await evaluation.evaluation(src, at(0.8, "how do i bake bread", "another entry, same question"))).toBe(1);
    expect(await evaluation.evaluation({ question: "bake a cake" }, at(0.7, "how do i bake bread"))).toBe(0);
    expect(await evaluation.evaluation({ question: "Bake  bread" }, at(0.7, "bake bread"))).toBe(1); // the same question: no call
    expect(verifier.asked).toHaveLength(2);
    expect(evaluation.stats).toEqual({
      verified: 2,
      yes: 1,
      no: 1,
      failed: 0,
      pending: 0,
      skipped: 0,
      cachedVerdicts: 2,
      verdictHits: 1,
      promptTokens: 240,
      completionTokens: 2,
    });
  });

  it("asks with the LLM judge's few-shot prompt, or a prompt of your own that may read the stored answer", async () => {
    const verifier = new FakeVerifier();
    await band(verifier).evaluation({ question: "sort a list" }, at(0.7, "how do i sort a list"));
    expect(verifier.prompts).toEqual(["Question 1: sort a list\nQuestion 2: how do i sort a list"]);

    const byAnswer = new FakeVerifier((question) => (question.includes("python") ? "yes" : "no"));
    const evaluation = band(byAnswer, { prompt: "Question 1: {question}\nQuestion 2: {cached_question}\nAnswer: {cached_answer}\nDoes the answer answer question 1?" });
    const src = { question: "sort a list in python" };
    expect(await evaluation.evaluation(src, at(0.7, "sort a list in python", "sorted(xs)"))).toBe(1); // the answer is judged even for the same question
    expect(await evaluation.evaluation(src, at(0.7, "sort a list in python", "xs.sort()"))).toBe(1); // another answer, another verdict
    expect(await evaluation.evaluation(src, at(0.7, "sort a list in python", "xs.sort()"))).toBe(1);
    expect(byAnswer.prompts.map((prompt) => prompt.split("\n")[2])).toEqual(["Answer: sorted(xs)", "Answer: xs.sort()"]);
    expect(() => band(verifier, { prompt: "Is {question} the same?" })).toThrow(/GreyBandEvaluation: `prompt`/);
  });

  it("reads a score as a verdict: 0.5 and above is yes", async () => {
    const verifier = new FakeVerifier((question) => (question === "a b" ? "0.8" : "0.3"));
    const evaluation = band(verifier);
    expect(await evaluation.evaluation({ question: "a b" }, at(0.7, "b a"))).toBe(1);
    expect(await evaluation.evaluation({ question: "a c" }, at(0.7, "c a"))).toBe(0);
  });

  it("fails safe: a verifier that throws or replies nonsense makes the candidate a miss, counted and reported, and is asked again next time", async () => {
    let reply = "It depends.";
    const verifier = new FakeVerifier(() => {
      if (reply === "throw") throw new Error("verifier down");
      return reply;
    });
    const errors: unknown[] = [];
    const evaluation = band(verifier, { onError: (error) => errors.push(error) });
    const ask = () => evaluation.evaluation({ question: "bake bread" }, at(0.7, "how do i bake bread"));
    const unhandled = await unhandledDuring(async () => {
      expect(await ask()).toBe(0);
      reply = "throw";
      expect(await ask()).toBe(0);
      reply = "yes";
      expect(await ask()).toBe(1);
    });
    expect(unhandled).toEqual([]);
    expect(verifier.asked).toHaveLength(3);
    expect(errors.map((error) => (error as Error).message)).toEqual([expect.stringMatching(/It depends/), "verifier down"]);
    expect(evaluation.stats).toMatchObject({ verified: 1, yes: 1, failed: 2, promptTokens: 240 }); // the call that threw reported no usage
  });

  it("gives up on a verifier slower than timeoutMs: a miss, counted", async () => {
    const verifier = new FakeVerifier(() => new Promise<string>(() => undefined));
    const evaluation = band(verifier, { timeoutMs: 50 });
    expect(await evaluation.evaluation({ question: "bake bread" }, at(0.7, "how do i bake bread"))).toBe(0);
    expect(evaluation.stats).toMatchObject({ failed: 1, pending: 0 });
  });

  it("in async mode misses at once, verifies in the background (once per pair), and scores by the verdict once it has come", async () => {
    let answer!: (reply: string) => void;
    const verifier = new FakeVerifier(() => new Promise<string>((resolve) => (answer = resolve)));
    const evaluation = band(verifier, { mode: "async" });
    const ask = () => evaluation.evaluation({ question: "bake bread" }, at(0.7, "how do i bake bread"));
    expect(await ask()).toBe(0);
    expect(await ask()).toBe(0);
    await new Promise((resolve) => setImmediate(resolve));
    expect(evaluation.stats).toMatchObject({ pending: 1, verified: 0 });
    expect(verifier.asked).toHaveLength(1);
    answer("yes");
    await evaluation.settled();
    expect(await ask()).toBe(1);
    expect(verifier.asked).toHaveLength(1);
    expect(evaluation.stats).toMatchObject({ pending: 0, verified: 1, yes: 1, verdictHits: 1 });
  });

  it("in async mode keeps at most maxPending verifications in flight, and a failing one is counted, never unhandled", async () => {
    const errors: unknown[] = [];
    const verifier = new FakeVerifier((question) => {
      if (question.startsWith("broken")) throw new Error("verifier down");
      return "yes";
    });
    const evaluation = band(verifier, { mode: "async", maxPending: 2, onError: (error) => errors.push(error) });
    const unhandled = await unhandledDuring(async () => {
      for (const question of ["broken one", "two", "three"]) expect(await evaluation.evaluation({ question }, at(0.7, "stored"))).toBe(0);
      expect(evaluation.stats).toMatchObject({ pending: 2, skipped: 1 });
      await evaluation.settled();
    });
    expect(unhandled).toEqual([]);
    expect(errors).toHaveLength(1);
    expect(evaluation.stats).toMatchObject({ pending: 0, skipped: 1, failed: 1, verified: 1 });
    expect(await evaluation.evaluation({ question: "two" }, at(0.7, "stored"))).toBe(1);
  });

  it("remembers at most maxVerdicts verdicts, dropping the least recently used", async () => {
    const verifier = new FakeVerifier(() => "yes");
    const evaluation = band(verifier, { maxVerdicts: 2 });
    const ask = (question: string) => evaluation.evaluation({ question }, at(0.7, "stored"));
    for (const question of ["a", "b", "a", "c"]) await ask(question); // "b" is the least recently used when "c" comes
    expect(evaluation.stats.cachedVerdicts).toBe(2);
    await ask("a");
    expect(verifier.asked.map(([question]) => question)).toEqual(["a", "b", "c"]);
    await ask("b");
    expect(verifier.asked.map(([question]) => question)).toEqual(["a", "b", "c", "b"]);
  });

  it("refuses options it cannot use", () => {
    const verifier = new FakeVerifier();
    const inner = new DistanceEvaluation();
    const make = (options: Partial<GreyBandOptions>) => () => new GreyBandEvaluation({ evaluation: inner, verifier, lower: 0.6, upper: 0.9, ...options } as GreyBandOptions);
    for (const options of [
      { evaluation: undefined },
      { verifier: undefined },
      { verifier: { invoke: async () => "yes" } },
      { lower: 0.9, upper: 0.6 },
      { lower: 0.7, upper: 0.7 },
      { lower: -0.1 },
      { upper: 1.5 },
      { lower: undefined },
      { mode: "later" },
      { maxVerdicts: 1.5 },
      { maxPending: 0 },
      { timeoutMs: 0 },
    ]) {
      expect(make(options as Partial<GreyBandOptions>)).toThrow(ValidationError);
    }
  });

  it("as a Runnable, nests the verifier's run under its own", async () => {
    const starts: Array<{ kind: string; runId: string; parentRunId?: string; name?: string }> = [];
    const handler = {
      handleChainStart: (_c: unknown, _i: unknown, runId: string, parentRunId?: string, _t?: unknown, _m?: unknown, _r?: unknown, name?: string) =>
        void starts.push({ kind: "chain", runId, parentRunId, name }),
      handleChatModelStart: (_l: unknown, _m: unknown, runId: string, parentRunId?: string) => void starts.push({ kind: "model", runId, parentRunId }),
    };
    const evaluation = band(new FakeVerifier());
    const pair = { src: { question: "install numpy" }, cached: at(0.7, "how do i install numpy") };
    expect(await evaluation.invoke(pair, { callbacks: [handler] })).toBe(1);
    await awaitAllCallbacks();
    const rootOf = (runId: string): string | undefined => {
      const run = starts.find((s) => s.runId === runId);
      return run?.parentRunId === undefined ? run?.name : rootOf(run.parentRunId);
    };
    const models = starts.filter((s) => s.kind === "model");
    expect(models).toHaveLength(1);
    expect(rootOf(models[0].runId)).toBe("GreyBandEvaluation");
  });

  describe("in a cache", () => {
    const STORED = "how do i install numpy on linux";
    let dir: ReturnType<typeof tempDir>;
    let cache: Cache;
    afterEach(async () => {
      await cache.close();
      dir.cleanup();
    });

    /** A cache judging by the cosine of bag-of-words vectors through a band [0.6, 0.9), threshold 0.9. */
    async function bandedCache(evaluation: GreyBandEvaluation) {
      dir = tempDir();
      cache = await new Cache().init({
        embeddingFunc: new BagOfWordsEmbedding(),
        dataManager: managerFactory("sqlite,hnswlib", { dataDir: dir.path }),
        similarityEvaluation: evaluation,
        config: new Config({ similarityThreshold: 0.9 }),
      });
      let calls = 0;
      return cached(async (prompt: string) => `answer ${++calls} to ${prompt}`, { requestOptions: { cacheObj: cache } });
    }

    it("sync: a paraphrase in the band hits once the verifier says yes, an opposite action misses, and a verdict is never asked twice", async () => {
      const verifier = new FakeVerifier();
      const evaluation = band(verifier);
      const ask = await bandedCache(evaluation);
      const first = await ask(STORED);
      expect(await ask("install numpy on linux please")).toBe(first); // cosine 0.68: verified
      expect(await ask("install numpy on linux please")).toBe(first); // the remembered verdict
      expect(await ask("how do i install numpy on linux now")).toBe(first); // cosine 0.94: above the band
      expect(await ask("what is the weather in paris")).toBe("answer 2 to what is the weather in paris"); // 0.05: below
      expect(verifier.asked).toEqual([["install numpy on linux please", STORED]]);
      expect(await ask("how do i uninstall numpy on linux")).toBe("answer 3 to how do i uninstall numpy on linux"); // 0.86: verified no
      expect(verifier.asked).toContainEqual(["how do i uninstall numpy on linux", STORED]);
      expect(cache.report.hits).toBe(3);
      expect(evaluation.stats).toMatchObject({ yes: 1, verdictHits: 1, failed: 0, promptTokens: 120 * verifier.asked.length });
    });

    it("sync: a verifier that fails is a miss, not a failed lookup", async () => {
      const verifier = new FakeVerifier(() => {
        throw new Error("verifier down");
      });
      const evaluation = band(verifier);
      const ask = await bandedCache(evaluation);
      await ask(STORED);
      expect(await ask("install numpy on linux please")).toBe("answer 2 to install numpy on linux please");
      expect(cache.report.errors).toBe(0);
      expect(evaluation.stats).toMatchObject({ failed: 1, verified: 0 });
    });

    it("async: the first ask misses and is verified in the background; the next ask hits without a call", async () => {
      const verifier = new FakeVerifier();
      const evaluation = band(verifier, { mode: "async" });
      await bandedCache(evaluation);
      await put(STORED, "pip install numpy", { cacheObj: cache });
      expect(await get("install numpy on linux please", { cacheObj: cache })).toBeNull();
      await evaluation.settled();
      expect(verifier.asked).toEqual([["install numpy on linux please", STORED]]);
      expect(await get("install numpy on linux please", { cacheObj: cache })).toBe("pip install numpy");
      expect(await get("how do i uninstall numpy on linux", { cacheObj: cache })).toBeNull();
      await evaluation.settled();
      expect(await get("how do i uninstall numpy on linux", { cacheObj: cache })).toBeNull();
      expect(verifier.asked).toHaveLength(2);
      expect(evaluation.stats).toMatchObject({ verified: 2, yes: 1, no: 1, verdictHits: 2, pending: 0 });
    });

    it("behind LangChain's cache interface: a chat model's reworded question is verified and answered from the cache", async () => {
      const verifier = new FakeVerifier();
      const evaluation = band(verifier);
      await bandedCache(evaluation);
      const model = new FakeListChatModel({ responses: ["pip install numpy", "second answer"], cache: new SemanticCache({ cache }) });
      expect((await model.invoke(STORED)).content).toBe("pip install numpy");
      expect((await model.invoke("install numpy on linux please")).content).toBe("pip install numpy");
      expect(verifier.asked).toHaveLength(1);
      expect(evaluation.stats.yes).toBe(1);
    });
  });
});
