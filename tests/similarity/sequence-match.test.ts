import { Embeddings } from "@langchain/core/embeddings";
import { Config } from "../../src/core/config.js";
import { ValidationError } from "../../src/core/errors.js";
import { cosineSimilarity } from "../../src/core/vector-math.js";
import { StringEmbedding } from "../../src/embeddings/string.js";
import { concatAllQueries } from "../../src/processors/context/concat.js";
import { SequenceMatchEvaluation } from "../../src/similarity/sequence-match.js";
import { syntheticEmbedding, testSimilarityEvaluation } from "../../src/testing/evaluation-contract.js";

/** A real LangChain Embeddings that records what it is asked to embed. */
class RecordingEmbeddings extends Embeddings {
  readonly queries: string[] = [];
  readonly batches: string[][] = [];
  constructor() {
    super({});
  }
  async embedQuery(text: string): Promise<number[]> {
    this.queries.push(text);
    return [...syntheticEmbedding(text)];
  }
  async embedDocuments(texts: string[]): Promise<number[][]> {
    this.batches.push(texts);
    return texts.map((text) => [...syntheticEmbedding(text)]);
  }
}

const pair = (a: string, b: string) => ({ src: { question: a }, cached: { question: b, answer: "x" } });
const cos = (a: string, b: string) => Math.max(0, cosineSimilarity(syntheticEmbedding(a), syntheticEmbedding(b)));

testSimilarityEvaluation({
  name: "SequenceMatchEvaluation",
  create: () => new SequenceMatchEvaluation({ weights: [0.6, 0.3, 0.1], embedding: new RecordingEmbeddings() }),
  identical: () => pair("USER: hi\nUSER: what is the capital of france", "USER: hi\nUSER: what is the capital of france"),
  different: () => pair("USER: hi\nUSER: what is the capital of france", "USER: hi\nUSER: how do i bake bread"),
  pair,
});

describe("SequenceMatchEvaluation", () => {
  it("weights rounds from the latest back, over the rounds both questions have", async () => {
    const evaluation = new SequenceMatchEvaluation({ weights: [3, 1], embedding: new RecordingEmbeddings() });
    const score = await evaluation.evaluation(
      { question: "USER: what is the capital of france\nUSER: sort a list in python" },
      { question: "USER: what is the capital of france\nUSER: sort a python list fast", answer: "x" },
    );
    expect(score).toBeCloseTo((3 * cos("sort a list in python", "sort a python list fast") + 1) / 4, 6);

    // Aligned from the end: the cached single round is compared with the request's latest round only.
    expect(
      await evaluation.evaluation({ question: "USER: bake bread\nUSER: capital of france" }, { question: "USER: capital of france", answer: "x" }),
    ).toBeCloseTo(1, 6);
    // Rounds beyond the weights are ignored.
    expect(
      await evaluation.evaluation({ question: "USER: aaa\nUSER: b\nUSER: c" }, { question: "USER: zzz\nUSER: b\nUSER: c", answer: "x" }),
    ).toBeCloseTo(1, 6);
  });

  it("reads concatAllQueries keys, multi-line turns included, and plain text as one round", async () => {
    const embeddings = new RecordingEmbeddings();
    const evaluation = new SequenceMatchEvaluation({ weights: [1, 1], embedding: embeddings });
    const key = concatAllQueries(
      { messages: [{ role: "user", content: "first\nline two" }, { role: "assistant", content: "a" }, { role: "user", content: "second" }] },
      { config: new Config() },
    );
    await evaluation.evaluation({ question: key }, { question: "just text", answer: "x" });
    expect(embeddings.batches.flat().sort()).toEqual(["just text", "second"]);
    await evaluation.evaluation({ question: key }, { question: "USER: other\nUSER: more", answer: "x" });
    expect(embeddings.batches.at(-1)?.sort()).toEqual(["first\nline two", "more", "other"]);
  });

  it("embeds each new round text once, in one batch, and remembers it", async () => {
    const embeddings = new RecordingEmbeddings();
    const evaluation = new SequenceMatchEvaluation({ weights: [1, 1], embedding: embeddings });
    const src = { question: "USER: hello\nUSER: what is the weather" };
    await evaluation.evaluation(src, { question: "USER: hello\nUSER: weather today", answer: "x" });
    expect(embeddings.batches).toEqual([["what is the weather", "hello", "weather today"]]);
    await evaluation.evaluation(src, { question: "USER: hello\nUSER: weather today", answer: "x" });
    await evaluation.evaluation(src, { question: "USER: hello\nUSER: weather in paris", answer: "x" });
    expect(embeddings.batches).toEqual([["what is the weather", "hello", "weather today"], ["weather in paris"]]);
    expect(embeddings.queries).toEqual([]);
  });

  it("drops the least recently used embeddings beyond cacheSize", async () => {
    const embeddings = new RecordingEmbeddings();
    const evaluation = new SequenceMatchEvaluation({ weights: [1], embedding: embeddings, cacheSize: 2 });
    const compare = (a: string, b: string) => evaluation.evaluation({ question: a }, { question: b, answer: "x" });
    await compare("one", "two");
    await compare("one", "three"); // "one" is used again, so "two" is the oldest and goes
    await compare("one", "two");
    expect(embeddings.batches).toEqual([["one", "two"], ["three"], ["two"]]);
  });

  it("works with a plain function and with string keys (round equality)", async () => {
    const calls: string[] = [];
    const fn = (text: string | Uint8Array) => {
      calls.push(String(text));
      return syntheticEmbedding(String(text));
    };
    const byFunction = new SequenceMatchEvaluation({ weights: [1], embedding: fn });
    expect(await byFunction.evaluation({ question: "USER: bake bread" }, { question: "USER: bread bake", answer: "x" })).toBeCloseTo(1, 6);
    expect(calls.sort()).toEqual(["bake bread", "bread bake"]);

    const byString = new SequenceMatchEvaluation({ weights: [1, 1], embedding: new StringEmbedding() });
    expect(await byString.evaluation({ question: "USER: a\nUSER: b" }, { question: "USER: c\nUSER: b", answer: "x" })).toBe(0.5);
  });

  it("scores identical questions 1 without embedding, and an empty side 0", async () => {
    const embeddings = new RecordingEmbeddings();
    const evaluation = new SequenceMatchEvaluation({ weights: [1], embedding: embeddings });
    expect(await evaluation.evaluation({ question: "USER: a" }, { question: "USER: a", answer: "x" })).toBe(1);
    expect(await evaluation.evaluation({ question: "" }, { question: "USER: a", answer: "x" })).toBe(0);
    expect(embeddings.batches).toEqual([]);
  });

  it("needs positive weights", () => {
    const embedding = new StringEmbedding();
    for (const weights of [[], [0], [1, -1], [Number.NaN], ["1"]] as unknown as number[][]) {
      expect(() => new SequenceMatchEvaluation({ weights, embedding })).toThrow(ValidationError);
    }
    expect(() => new SequenceMatchEvaluation({ weights: [1], embedding: 42 as never })).toThrow(ValidationError);
  });
});
