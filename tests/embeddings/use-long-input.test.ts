import { ValidationError } from "../../src/core/errors.js";
import { toEmbeddingFunction } from "../../src/core/embedding-source.js";
import { UniversalSentenceEncoderEmbeddings } from "../../src/embeddings/use.js";

const prose = (length: number, offset = 0) =>
  "the quick brown fox jumps over a lazy dog while people watch and wonder why ".repeat(Math.ceil((length + offset) / 70) + 1).slice(offset, offset + length);

describe("UniversalSentenceEncoderEmbeddings with long texts", () => {
  it.each([false, true])("embeds a 200,000-character text from its first maxInputLength characters (worker: %s)", async (worker) => {
    const model = new UniversalSentenceEncoderEmbeddings({ worker, maxInputLength: 1000 });
    const long = prose(200_000);
    const [whole, head] = await model.embedDocuments([long, long.slice(0, 1000)]);
    whole.forEach((value, i) => expect(value).toBeCloseTo(head[i], 5));
  });

  it("never splits a surrogate pair when it truncates", async () => {
    const model = new UniversalSentenceEncoderEmbeddings({ maxInputLength: 6 });
    // "abcde" then an emoji across units 6 and 7: the emoji is dropped whole.
    const [cut, kept] = await model.embedDocuments(["abcde\u{1F600} more", "abcde"]);
    cut.forEach((value, i) => expect(value).toBeCloseTo(kept[i], 5));
  });

  it("declares its limit to the cache through toEmbeddingFunction, and refuses a bad one", () => {
    expect(new UniversalSentenceEncoderEmbeddings().maxInputLength).toBe(4096);
    expect(toEmbeddingFunction(new UniversalSentenceEncoderEmbeddings({ maxInputLength: 500 })).maxInputLength).toBe(500);
    expect(() => new UniversalSentenceEncoderEmbeddings({ maxInputLength: 0 })).toThrow(ValidationError);
  });

  it.each([
    ["many long texts (each runs alone, taking turns with short ones)", 12, 2000, 12],
    ["an import of many short texts (one text from each call in turn)", 300, 60, 5],
  ])("on a worker thread, a short text asked after a call of %s is not held back until that call ends", async (_what, texts, length, batches) => {
    const model = new UniversalSentenceEncoderEmbeddings({ worker: true });
    await model.init();
    const finished: string[] = [];
    const bulk = model.embedDocuments(Array.from({ length: texts }, (_, i) => prose(length, i))).then(() => finished.push("bulk"));
    const short = model.embedQuery("How do I reset my password?").then(() => finished.push("short"));
    await Promise.all([bulk, short]);
    expect(finished).toEqual(["short", "bulk"]);
    expect(model.stats.batches).toBeGreaterThanOrEqual(batches);
  });
});
