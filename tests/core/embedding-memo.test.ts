import type { EmbeddingFunction, EmbeddingInput } from "../../src/core/contracts/embedding.js";
import { EmbeddingMemo } from "../../src/core/embedding-memo.js";

/** Counts its calls; the vector is the text's length, so texts are told apart. */
function counting(fail = false): EmbeddingFunction & { calls: EmbeddingInput[] } {
  const calls: EmbeddingInput[] = [];
  return {
    calls,
    dimension: 2,
    async embed(data) {
      calls.push(data);
      if (fail) throw new Error("model down");
      return new Float32Array([data.length, 1]);
    },
  };
}

describe("EmbeddingMemo", () => {
  it("embeds a text once, and hands out copies", async () => {
    const memo = new EmbeddingMemo(4);
    const model = counting();
    const first = (await memo.embed(model, "hello")) as Float32Array;
    first[0] = 99;
    expect(await memo.embed(model, "hello")).toEqual(new Float32Array([5, 1]));
    expect(model.calls).toEqual(["hello"]);
  });

  it("concurrent asks of one text share one call", async () => {
    const memo = new EmbeddingMemo(4);
    const model = counting();
    await Promise.all([memo.embed(model, "a b"), memo.embed(model, "a b"), memo.embed(model, "a b")]);
    expect(model.calls).toHaveLength(1);
  });

  it("keeps texts apart per embedding function, and forgets the least recently used past its capacity", async () => {
    const memo = new EmbeddingMemo(2);
    const one = counting();
    const two = counting();
    await memo.embed(one, "x");
    await memo.embed(two, "x");
    expect([one.calls, two.calls]).toEqual([["x"], ["x"]]);
    await memo.embed(one, "y");
    await memo.embed(one, "z");
    await memo.embed(one, "x");
    expect(one.calls).toEqual(["x", "y", "z", "x"]);
  });

  it("forgets a failed call; remembers nothing for bytes, calls with extra, or capacity 0", async () => {
    const memo = new EmbeddingMemo(4);
    const down = counting(true);
    await expect(memo.embed(down, "q")).rejects.toThrow("model down");
    await expect(memo.embed(down, "q")).rejects.toThrow("model down");
    expect(down.calls).toHaveLength(2);

    const model = counting();
    const bytes = new Uint8Array([1, 2, 3]);
    await memo.embed(model, bytes);
    await memo.embed(model, bytes);
    await memo.embed(model, "t", { lang: "en" });
    await memo.embed(model, "t", { lang: "en" });
    const off = new EmbeddingMemo(0);
    await off.embed(model, "u");
    await off.embed(model, "u");
    expect(model.calls).toHaveLength(6);
  });

  it("stops remembering a function that answers string keys (an exact-match embedding)", async () => {
    const memo = new EmbeddingMemo(4);
    let calls = 0;
    const keys: EmbeddingFunction = { dimension: 0, embed: async (data) => (calls++, String(data)) };
    for (let i = 0; i < 3; i++) expect(await memo.embed(keys, "same")).toBe("same");
    expect(calls).toBe(3);
  });
});
