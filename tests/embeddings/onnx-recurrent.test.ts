/**
 * @jest-environment ./tests/embeddings/onnx-environment.mjs
 */
/**
 * A recurrent text model (a GRU over token rows, tests/fixtures/make-tiny-models.ts) through OnnxEmbeddings: the
 * path an RWKV, GRU or LSTM exported to ONNX takes. The model is random: these tests prove the plumbing
 * (padding, pooling, mask-less models), not the quality of any real recurrent model.
 */
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { EmbeddingError, ValidationError } from "../../src/core/errors.js";
import { OnnxEmbeddings, poolTokenVectors, type OnnxPooling } from "../../src/embeddings/onnx.js";
import { toEmbeddingFunction } from "../../src/core/embedding-source.js";
import { testEmbeddingFunction } from "../../src/testing/embedding-contract.js";

const GRU = fileURLToPath(new URL("../fixtures/tiny-models/tiny-gru/", import.meta.url));
const files = { modelPath: join(GRU, "model.onnx"), tokenizerPath: join(GRU, "tokenizer.json") };
const withoutMask = { ...files, modelPath: join(GRU, "model-without-mask.onnx") };
const gru = (pooling: OnnxPooling, batchSize?: number) => new OnnxEmbeddings({ ...files, pooling, batchSize });

for (const pooling of ["mean", "last"] as const) {
  testEmbeddingFunction({ name: `OnnxEmbeddings (tiny GRU, pooling: ${pooling})`, create: () => toEmbeddingFunction(gru(pooling)) });
}
testEmbeddingFunction({ name: "OnnxEmbeddings (tiny GRU taking input_ids alone)", create: () => toEmbeddingFunction(new OnnxEmbeddings(withoutMask)) });
// RWKV's tokenizer is a BPE one adding no special tokens: such tokenizer.json files are read by transformers.js.
const bpe = { ...files, tokenizerPath: join(GRU, "tokenizer-bpe.json") };
testEmbeddingFunction({ name: "OnnxEmbeddings (tiny GRU, a BPE tokenizer.json)", create: () => toEmbeddingFunction(new OnnxEmbeddings({ ...bpe, pooling: "last" })) });

describe("OnnxEmbeddings over a recurrent model", () => {
  const texts = ["capital of france", "how do I bake sourdough bread at home today?", "sort a list", "python", "what is the weather like in paris tomorrow morning"];

  it.each(["mean", "last"] as const)("padding never changes a text's vector (pooling: %s): a padded batch equals one text at a time", async (pooling) => {
    const batched = await gru(pooling, 3).embedDocuments(texts);
    const single = gru(pooling);
    for (const [i, text] of texts.entries()) expect(batched[i]).toEqual(await single.embedQuery(text));
  });

  it("reads the words in order, unlike an average of word vectors", async () => {
    const embeddings = gru("mean");
    const [forward, backward] = await embeddings.embedDocuments(["cat eat fish", "fish eat cat"]);
    expect(forward).not.toEqual(backward);
    const bag = new OnnxEmbeddings({ ...files, modelPath: join(GRU, "..", "embedder.onnx") });
    const [a, b] = await bag.embedDocuments(["cat eat fish", "fish eat cat"]);
    expect(a).toEqual(b);
  });

  it('"last" is the state after the last real token; "mean" averages the states', async () => {
    const [mean] = await gru("mean").embedDocuments(["capital of france"]);
    const [last] = await gru("last").embedDocuments(["capital of france"]);
    expect(mean).not.toEqual(last);
    expect(mean).toHaveLength(12);
    expect(Math.hypot(...last)).toBeCloseTo(1, 6);
  });

  it("a model without an attention_mask input runs one text at a time and agrees with the masked model", async () => {
    const embeddings = new OnnxEmbeddings({ ...withoutMask, pooling: "last" });
    await embeddings.init();
    expect(embeddings.dimension).toBe(12);
    expect(await embeddings.embedDocuments(texts)).toEqual(await gru("last").embedDocuments(texts));
  });

  it("reads a BPE tokenizer.json through transformers.js: padding still changes nothing; a text with no tokens is refused", async () => {
    const batched = await new OnnxEmbeddings({ ...bpe, pooling: "last", batchSize: 4 }).embedDocuments(texts);
    const single = new OnnxEmbeddings({ ...bpe, pooling: "last" });
    for (const [i, text] of texts.entries()) expect(batched[i]).toEqual(await single.embedQuery(text));
    expect(await single.embedQuery("The CAPITAL")).toEqual(await single.embedQuery("the capital"));
    await expect(single.embedDocuments(["capital", ""])).rejects.toThrow("OnnxEmbeddings: texts[1] has no tokens to embed.");
    const short = new OnnxEmbeddings({ ...bpe, pooling: "mean", maxLength: 2 });
    expect(await short.embedQuery("the capital of italy")).toEqual(await short.embedQuery("the capital of france"));
  });

  it("pools only the tokens the mask keeps", () => {
    // Two texts of 3 tokens, dimension 2; the second has one padding position holding junk.
    const output = { data: Float32Array.from([1, 0, 3, 0, 5, 0, 0, 2, 0, 4, 99, 99]), dims: [2, 3, 2] };
    const masks = [
      [1, 1, 1],
      [1, 1, 0],
    ];
    expect(poolTokenVectors(output, masks, "mean")).toEqual([
      [1, 0],
      [0, 1],
    ]);
    expect(poolTokenVectors(output, masks, "last")).toEqual([
      [1, 0],
      [0, 1],
    ]);
  });

  it("refuses an unknown pooling, and a model without input_ids", async () => {
    expect(() => new OnnxEmbeddings({ ...files, pooling: "max" as OnnxPooling })).toThrow(ValidationError);
    expect(() => new OnnxEmbeddings({ ...files, pooling: "max" as OnnxPooling })).toThrow("`pooling` must be one of mean, last");
    const image = new OnnxEmbeddings({ ...files, modelPath: join(GRU, "..", "tiny-timm", "model.onnx") });
    await expect(image.init()).rejects.toThrow(EmbeddingError);
    await expect(image.init()).rejects.toThrow('has no "input_ids" input');
  });
});
