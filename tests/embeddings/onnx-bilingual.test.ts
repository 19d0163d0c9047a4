/**
 * @jest-environment ./tests/embeddings/onnx-environment.mjs
 */
/**
 * A bilingual (Chinese and English) BERT-style model through OnnxEmbeddings: the path an ernie-3.0 or a
 * bilingual BERT exported to ONNX takes. The tiny model (tests/fixtures/make-tiny-models.ts) is an embedding
 * table in which each Chinese character has the row of its English word (猫 = cat): equal vectors below are
 * what that table says, so these tests prove tokenisation and plumbing, not the quality of a real model.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { cosineSimilarity } from "../../src/core/vector-math.js";
import { OnnxEmbeddings } from "../../src/embeddings/onnx.js";
import { toEmbeddingFunction } from "../../src/core/embedding-source.js";
import { WordPieceTokenizer } from "../../src/models/tokenizer.js";
import { testEmbeddingFunction } from "../../src/testing/embedding-contract.js";
import { tempDir } from "../helpers/fixtures.js";

const MODEL = fileURLToPath(new URL("../fixtures/tiny-models/tiny-bilingual/", import.meta.url));
const files = { modelPath: join(MODEL, "model.onnx"), tokenizerPath: join(MODEL, "tokenizer.json") };
const tokenizerJson = () => JSON.parse(readFileSync(files.tokenizerPath, "utf8")) as { normalizer: Record<string, unknown> };
const cosine = (a: number[], b: number[]) => cosineSimilarity(Float32Array.from(a), Float32Array.from(b));

testEmbeddingFunction({ name: "OnnxEmbeddings (tiny bilingual model)", create: () => toEmbeddingFunction(new OnnxEmbeddings(files)) });

describe("OnnxEmbeddings over a bilingual model", () => {
  const embeddings = new OnnxEmbeddings(files);

  it("splits Chinese text into one token per character, as BERT's basic tokenizer does, beside English words", () => {
    const tokenizer = new WordPieceTokenizer(tokenizerJson());
    const [我, 爱, 猫] = [..."我爱猫"].map((char) => tokenizer.tokenize(char)[0]);
    expect(tokenizer.tokenize("我爱猫")).toEqual([我, 爱, 猫]);
    expect(tokenizer.tokenize("我爱cat!")).toEqual([我, 爱, ...tokenizer.tokenize("cat"), ...tokenizer.tokenize("!")]);
    expect(tokenizer.tokenize("我爱猫")).not.toContain(tokenizer.tokenize("qqzz")[0]);
  });

  it("embeds a Chinese text and its English words as the model's table says: 我爱猫 as 'I love cat'", async () => {
    const [chinese, english, mixed, other] = await embeddings.embedDocuments(["我爱猫", "I love cat", "我 love 猫", "我喝茶"]);
    expect(cosine(chinese, english)).toBeCloseTo(1, 6);
    expect(cosine(mixed, english)).toBeCloseTo(1, 6);
    expect(cosine(chinese, other)).toBeLessThan(0.95);
    expect(await embeddings.embedQuery("我喝茶")).toEqual(other);
  });

  it("follows the tokenizer's handle_chinese_chars: false keeps a run of characters one (unknown) word", async () => {
    const dir = tempDir();
    try {
      const json = tokenizerJson();
      json.normalizer.handle_chinese_chars = false;
      const tokenizerPath = join(dir.path, "tokenizer.json");
      writeFileSync(tokenizerPath, JSON.stringify(json));
      const tokenizer = new WordPieceTokenizer(json);
      expect(tokenizer.tokenize("我爱猫")).toEqual(tokenizer.tokenize("qqzz"));
      const [unsplit] = await new OnnxEmbeddings({ ...files, tokenizerPath }).embedDocuments(["我爱猫"]);
      expect(unsplit).not.toEqual(await embeddings.embedQuery("I love cat"));
    } finally {
      dir.cleanup();
    }
  });
});
