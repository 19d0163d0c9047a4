import { Embeddings } from "@langchain/core/embeddings";
import { FakeEmbeddings, SyntheticEmbeddings } from "@langchain/core/utils/testing";
import { EmbeddingError, ValidationError } from "../../src/core/errors.js";
import { isLangChainEmbeddings, LangChainEmbeddingFunction, toEmbeddingFunction } from "../../src/core/embedding-source.js";
import { StringEmbedding } from "../../src/embeddings/string.js";
import { testEmbeddingFunction } from "../../src/testing/embedding-contract.js";
import { syntheticEmbedding } from "../../src/testing/evaluation-contract.js";

/** A real LangChain Embeddings whose outputs the test scripts; it records which method embedded which texts. */
class ScriptedEmbeddings extends Embeddings {
  calls: Array<{ method: "query" | "documents"; texts: string[] }> = [];
  constructor(private readonly vectorFor: (text: string, call: number, method: "query" | "documents") => unknown) {
    super({ maxRetries: 0 });
  }
  async embedQuery(text: string): Promise<number[]> {
    this.calls.push({ method: "query", texts: [text] });
    return this.vectorFor(text, this.calls.length - 1, "query") as number[];
  }
  async embedDocuments(texts: string[]): Promise<number[][]> {
    this.calls.push({ method: "documents", texts });
    const call = this.calls.length - 1;
    return texts.map((text) => this.vectorFor(text, call, "documents") as number[]);
  }
  methods(): string[] {
    return this.calls.map((call) => call.method);
  }
}

/** Embeds queries and documents differently, as Cohere v3 does (input_type search_query vs search_document). */
const asymmetric = () => new ScriptedEmbeddings((text, _, method) => [text.length, method === "query" ? 2 : 1]);

testEmbeddingFunction({
  name: "LangChain SyntheticEmbeddings via toEmbeddingFunction",
  create: () => toEmbeddingFunction(new SyntheticEmbeddings({ vectorSize: 8 })),
});

testEmbeddingFunction({
  name: 'LangChain SyntheticEmbeddings, embedAs: "queries"',
  create: () => toEmbeddingFunction(new SyntheticEmbeddings({ vectorSize: 8 }), { embedAs: "queries" }),
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

  it("wraps a LangChain Embeddings that also has an `embed` method (as CohereEmbeddings does)", async () => {
    class WithEmbed extends ScriptedEmbeddings {
      async embed(): Promise<number[]> {
        return [9, 9];
      }
    }
    const fn = toEmbeddingFunction(new WithEmbed(() => [1, 2]));
    expect(fn).toBeInstanceOf(LangChainEmbeddingFunction);
    expect(await fn.embed("q")).toEqual(Float32Array.of(1, 2));
  });

  it("passes options to the wrapper", async () => {
    const embeddings = asymmetric();
    const fn = toEmbeddingFunction(embeddings, { embedAs: "queries", dimension: 2 });
    expect(fn.dimension).toBe(2);
    await fn.embed("q");
    expect(embeddings.methods()).toEqual(["query"]);
  });

  it("refuses anything else", () => {
    for (const source of [null, 42, {}, "openai", { embed: () => "x" }]) {
      expect(() => toEmbeddingFunction(source as never)).toThrow(ValidationError);
    }
  });
});

describe("LangChainEmbeddingFunction", () => {
  it("learns the dimension once, from init() or the first embedding; concurrent init() calls share one probe", async () => {
    const embeddings = new ScriptedEmbeddings(() => [0.1, 0.2, 0.3]);
    const fn = new LangChainEmbeddingFunction(embeddings);
    expect(fn.dimension).toBe(0);
    await Promise.all([fn.init(), fn.init()]);
    await fn.init();
    expect(fn.dimension).toBe(3);
    expect(embeddings.calls).toHaveLength(1);

    const lazy = new LangChainEmbeddingFunction(new SyntheticEmbeddings({ vectorSize: 6 }));
    await lazy.embed("hello");
    expect(lazy.dimension).toBe(6);
  });

  it("probes again after a failed probe", async () => {
    const embeddings = new ScriptedEmbeddings((_, call) => {
      if (call === 0) throw new Error("503 Service Unavailable");
      return [1, 2];
    });
    const fn = new LangChainEmbeddingFunction(embeddings);
    await expect(fn.init()).rejects.toThrow(EmbeddingError);
    await fn.init();
    expect(fn.dimension).toBe(2);
  });

  it("embeds lookups and batches with embedDocuments by default, so a text gets one vector either way", async () => {
    const embeddings = asymmetric();
    const fn = new LangChainEmbeddingFunction(embeddings);
    expect(fn.embedAs).toBe("documents");
    const looked = await fn.embed("abc");
    const [imported] = await fn.embedBatch(["abc", "de"]);
    expect(looked).toEqual(Float32Array.of(3, 1));
    expect(imported).toEqual(looked);
    expect(embeddings.calls).toEqual([
      { method: "documents", texts: ["abc"] },
      { method: "documents", texts: ["abc", "de"] },
    ]);
    expect(await fn.embedBatch([])).toEqual([]);
    expect(embeddings.calls).toHaveLength(2);
  });

  it('embeds everything with embedQuery with embedAs: "queries"', async () => {
    const embeddings = asymmetric();
    const fn = new LangChainEmbeddingFunction(embeddings, { embedAs: "queries" });
    const looked = await fn.embed("abc");
    const batch = await fn.embedBatch(["abc", "de"]);
    expect(looked).toEqual(Float32Array.of(3, 2));
    expect(batch).toEqual([looked, Float32Array.of(2, 2)]);
    expect(embeddings.methods()).toEqual(["query", "query", "query"]);
  });

  it("splits batches by batchSize, keeping the order", async () => {
    const embeddings = new ScriptedEmbeddings((text) => [text.length, 1]);
    const fn = new LangChainEmbeddingFunction(embeddings, { batchSize: 2 });
    const vectors = await fn.embedBatch(["a", "bb", "ccc", "dddd", "eeeee"]);
    expect(vectors.map((v) => v[0])).toEqual([1, 2, 3, 4, 5]);
    expect(embeddings.calls.map((call) => call.texts)).toEqual([["a", "bb"], ["ccc", "dddd"], ["eeeee"]]);
  });

  it("validates its options", () => {
    const embeddings = new FakeEmbeddings();
    for (const options of [{ embedAs: "passages" }, { batchSize: 0 }, { batchSize: 2.5 }, { timeoutMs: 0 }, { timeoutMs: Number.NaN }, { dimension: 1.5 }]) {
      expect(() => new LangChainEmbeddingFunction(embeddings, options as never)).toThrow(ValidationError);
    }
  });

  it("fails a call that outlasts timeoutMs with EmbeddingError", async () => {
    class Stalled extends ScriptedEmbeddings {
      override embedDocuments(): Promise<number[][]> {
        return new Promise(() => undefined);
      }
    }
    const fn = new LangChainEmbeddingFunction(new Stalled(() => [1]), { timeoutMs: 20 });
    await expect(fn.embed("q")).rejects.toThrow(/Stalled did not answer within 20 ms/);
    const quick = new LangChainEmbeddingFunction(new ScriptedEmbeddings(() => [1, 2]), { timeoutMs: 5000 });
    expect(await quick.embed("q")).toEqual(Float32Array.of(1, 2));
  });

  it("refuses bytes with a ValidationError", async () => {
    const fn = new LangChainEmbeddingFunction(new SyntheticEmbeddings());
    await expect(fn.embed(new Uint8Array([1, 2]))).rejects.toThrow(ValidationError);
    await expect(fn.embedBatch(["a", new Uint8Array([1])])).rejects.toThrow(ValidationError);
  });

  it("turns bad output into EmbeddingError: non-finite, null (NaN sent as JSON), empty, not a vector, a changing length", async () => {
    const outputs: unknown[] = [[1, Number.NaN], [1, Number.POSITIVE_INFINITY], [1, 1e300], [1, null], [], "vector", null, [1, "x"]];
    for (const output of outputs) {
      const fn = new LangChainEmbeddingFunction(new ScriptedEmbeddings(() => output));
      await expect(fn.embed("q")).rejects.toThrow(EmbeddingError);
    }
    const withNull = new LangChainEmbeddingFunction(new ScriptedEmbeddings(() => [1, null, 2]));
    await expect(withNull.embed("q")).rejects.toThrow(/null at index 1, not a number/);
    const changing = new LangChainEmbeddingFunction(new ScriptedEmbeddings((_, call) => (call === 0 ? [1, 2] : [1, 2, 3])));
    await changing.embed("first");
    await expect(changing.embed("second")).rejects.toThrow(/3-d vector; it embeds to 2-d/);
  });

  it("names token embeddings (a list of vectors per text) in its EmbeddingError", async () => {
    const tokens = new LangChainEmbeddingFunction(new ScriptedEmbeddings(() => [[1, 2], [3, 4]]));
    await expect(tokens.embed("two tokens")).rejects.toThrow(/list of vectors \(token embeddings\?\)/);
  });

  it("checks a declared dimension and the batch's length", async () => {
    const fn = new LangChainEmbeddingFunction(new ScriptedEmbeddings(() => [1, 2]), { dimension: 3 });
    expect(fn.dimension).toBe(3);
    await expect(fn.embed("q")).rejects.toThrow(EmbeddingError);

    class ShortBatch extends ScriptedEmbeddings {
      override async embedDocuments(): Promise<number[][]> {
        return [[1, 2]];
      }
    }
    const short = new LangChainEmbeddingFunction(new ShortBatch(() => [1, 2]));
    await expect(short.embedBatch(["a", "b"])).rejects.toThrow(/embedDocuments returned 1 vectors for 2 texts/);
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

  it("time out with timeoutMs like LangChain Embeddings do", async () => {
    const fn = toEmbeddingFunction(function stalledModel() {
      return new Promise<number[]>(() => undefined);
    }, { timeoutMs: 20 });
    await expect(fn.embed("a")).rejects.toThrow(/embedding function stalledModel did not answer within 20 ms/);
  });

  it("turn a throw into EmbeddingError", async () => {
    const fn = toEmbeddingFunction(function brokenModel() {
      throw new TypeError("boom");
    });
    await expect(fn.embed("a")).rejects.toThrow(/embedding function brokenModel failed: boom/);
  });
});
