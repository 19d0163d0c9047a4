import { createHash } from "node:crypto";
import { ValidationError } from "../../src/core/errors.js";
import { StringEmbedding } from "../../src/embeddings/string.js";
import { testEmbeddingFunction } from "../../src/testing/embedding-contract.js";

testEmbeddingFunction({ name: "StringEmbedding", create: () => new StringEmbedding() });

describe("StringEmbedding", () => {
  const embedding = new StringEmbedding();

  it("passes text through as the key, with dimension 0", async () => {
    expect(embedding.dimension).toBe(0);
    expect(await embedding.embed("What is a cat?")).toBe("What is a cat?");
    expect(await embedding.embed("")).toBe("");
  });

  it("keys bytes by their SHA-256, the same for a Buffer and a Uint8Array", async () => {
    const bytes = new TextEncoder().encode("abc");
    const expected = "sha256:ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad";
    expect(await embedding.embed(bytes)).toBe(expected);
    expect(await embedding.embed(Buffer.from("abc"))).toBe(expected);
    expect(await embedding.embed(new Uint8Array(0))).toBe(`sha256:${createHash("sha256").digest("hex")}`);
  });

  it("embeds a batch in order", async () => {
    expect(await embedding.embedBatch(["a", new TextEncoder().encode("abc"), "b"])).toEqual([
      "a",
      "sha256:ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad",
      "b",
    ]);
  });

  it("refuses anything but text or bytes", async () => {
    await expect(embedding.embed(42 as never)).rejects.toThrow(ValidationError);
  });
});
