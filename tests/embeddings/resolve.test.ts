import { Embeddings } from "@langchain/core/embeddings";
import { FakeEmbeddings, SyntheticEmbeddings } from "@langchain/core/utils/testing";
import { EmbeddingError, ValidationError } from "../../src/core/errors.js";
import { isLangChainEmbeddings, LangChainEmbeddingFunction, toEmbeddingFunction } from "../../src/embeddings/resolve.js";
import { StringEmbedding } from "../../src/embeddings/string.js";
import { testEmbeddingFunction } from "../../src/testing/embedding-contract.js";
import { syntheticEmbedding } from "../../src/testing/evaluation-contract.js";

/** A real LangChain Embeddings whose outputs the test scripts, counting calls. */
class ScriptedEmbeddings extends Embeddings {
  queryCalls = 0;
  documentCalls = 0;
  constructor(private readonly vectorFor: (text: string, call: number) => unknown) {
    super({});
  }
  async embedQuery(text: string): Promise<number[]> {
    return this.vectorFor(text, this.queryCalls++) as number[];
  }
  async embedDocuments(texts: string[]): Promise<number[][]> {
    this.documentCalls++;
    return Promise.all(texts.map((text) => this.embedQuery(text)));
  }
}

testEmbeddingFunction({
  name: "LangChain SyntheticEmbeddings via toEmbeddingFunction",
  create: () => toEmbeddingFunction(new SyntheticEmbeddings({ vectorSize: 8 })),
});

testEmbeddingFunction({
  name: "plain function via toEmbeddingFunction",
  create: () => toEmbeddingFunction((data) => [...syntheticEmbedding(typeof data === "string" ? data : Buffer.from(data).toString("hex"))]),
  batch: false,
});

describe("toEmbeddingFunction", () => {
  it("uses an EmbeddingFunction as is", () => {
    const embedding = new StringEmbedding();
    expect(toEmbeddingFunction(embedding)).toBe(embedding);
  });

  it("recognises LangChain Embeddings by shape", () => {
    expect(isLangChainEmbeddings(new FakeEmbeddings())).toBe(true);
    expect(isLangChainEmbeddings({ embedQuery: () => [] })).toBe(false);
    expect(isLangChainEmbeddings(null)).toBe(false);
    expect(toEmbeddingFunction(new FakeEmbeddings())).toBeInstanceOf(LangChainEmbeddingFunction);
  });

  it("refuses anything else", () => {
    for (const source of [null, 42, {}, "openai", { embed: () => "x" }]) {
      expect(() => toEmbeddingFunction(source as never)).toThrow(ValidationError);
    }
  });
});

describe("LangChainEmbeddingFunction", () => {
  it("learns the dimension once, from init() or the first embedding", async () => {
    const embeddings = new ScriptedEmbeddings(() => [0.1, 0.2, 0.3]);
    const fn = new LangChainEmbeddingFunction(embeddings);
    expect(fn.dimension).toBe(0);
    await fn.init();
    await fn.init();
    expect(fn.dimension).toBe(3);
    expect(embeddings.queryCalls).toBe(1);

    const lazy = new LangChainEmbeddingFunction(new SyntheticEmbeddings({ vectorSize: 6 }));
    await lazy.embed("hello");
    expect(lazy.dimension).toBe(6);
  });

  it("embeds lookups with embedQuery and batches with one embedDocuments call", async () => {
    const embeddings = new ScriptedEmbeddings((text) => [text.length, 1]);
    const fn = new LangChainEmbeddingFunction(embeddings);
    expect(await fn.embed("abc")).toEqual(Float32Array.of(3, 1));
    expect(await fn.embedBatch(["a", "ab"])).toEqual([Float32Array.of(1, 1), Float32Array.of(2, 1)]);
    expect(embeddings.documentCalls).toBe(1);
    expect(await fn.embedBatch([])).toEqual([]);
    expect(embeddings.documentCalls).toBe(1);
  });

  it("refuses bytes with a ValidationError", async () => {
    const fn = new LangChainEmbeddingFunction(new SyntheticEmbeddings());
    await expect(fn.embed(new Uint8Array([1, 2]))).rejects.toThrow(ValidationError);
    await expect(fn.embedBatch(["a", new Uint8Array([1])])).rejects.toThrow(ValidationError);
  });

  it("turns bad output into EmbeddingError: non-finite, empty, not a vector, a changing length", async () => {
    const outputs: unknown[] = [[1, Number.NaN], [1, Number.POSITIVE_INFINITY], [1, 1e300], [], "vector", null, [1, "x"]];
    for (const output of outputs) {
      const fn = new LangChainEmbeddingFunction(new ScriptedEmbeddings(() => output));
      await expect(fn.embed("q")).rejects.toThrow(EmbeddingError);
    }
    const changing = new LangChainEmbeddingFunction(new ScriptedEmbeddings((_, call) => (call === 0 ? [1, 2] : [1, 2, 3])));
    await changing.embed("first");
    await expect(changing.embed("second")).rejects.toThrow(/3-d vector; it embeds to 2-d/);
  });

  it("checks a declared dimension and the batch's length", async () => {
    const fn = new LangChainEmbeddingFunction(new ScriptedEmbeddings(() => [1, 2]), { dimension: 3 });
    expect(fn.dimension).toBe(3);
    await expect(fn.embed("q")).rejects.toThrow(EmbeddingError);
    expect(() => new LangChainEmbeddingFunction(new FakeEmbeddings(), { dimension: 1.5 })).toThrow(ValidationError);

    class ShortBatch extends ScriptedEmbeddings {
      override async embedDocuments(): Promise<number[][]> {
        return [[1, 2]];
      }
    }
    const short = new LangChainEmbeddingFunction(new ShortBatch(() => [1, 2]));
    await expect(short.embedBatch(["a", "b"])).rejects.toThrow(/1 vectors for 2 texts/);
  });

  it("wraps a failing provider in EmbeddingError, keeping the cause", async () => {
    const failure = new Error("429 Too Many Requests");
    const fn = new LangChainEmbeddingFunction(
      new ScriptedEmbeddings(() => {
        throw failure;
      }),
    );
    const error = await fn.embed("q").catch((e: unknown) => e);
    expect(EmbeddingError.isInstance(error)).toBe(true);
    expect((error as EmbeddingError).message).toMatch(/ScriptedEmbeddings failed: 429/);
    expect((error as EmbeddingError).cause).toBe(failure);
  });
});

describe("plain function embeddings", () => {
  it("accept number[], Float32Array and promises, and receive extra", async () => {
    const seen: unknown[] = [];
    const fn = toEmbeddingFunction(async (data, extra) => {
      seen.push(extra);
      return data === "typed" ? Float32Array.of(1, 2) : [3, 4];
    });
    expect(await fn.embed("typed", { user: 1 })).toEqual(Float32Array.of(1, 2));
    expect(await fn.embed("plain")).toEqual(Float32Array.of(3, 4));
    expect(fn.dimension).toBe(2);
    expect(seen).toEqual([{ user: 1 }, undefined]);
  });

  it("embed bytes when the function does", async () => {
    const fn = toEmbeddingFunction((data) => [data.length, 0]);
    expect(await fn.embed(new Uint8Array(5))).toEqual(Float32Array.of(5, 0));
  });

  it("copy the returned vector, so a reused buffer cannot change a stored embedding", async () => {
    const buffer = Float32Array.of(1, 2);
    const fn = toEmbeddingFunction(() => buffer);
    const out = await fn.embed("a");
    buffer[0] = 9;
    expect(out).toEqual(Float32Array.of(1, 2));
  });

  it("turn a throw into EmbeddingError", async () => {
    const fn = toEmbeddingFunction(function brokenModel() {
      throw new TypeError("boom");
    });
    await expect(fn.embed("a")).rejects.toThrow(/embedding function brokenModel failed: boom/);
  });
});
