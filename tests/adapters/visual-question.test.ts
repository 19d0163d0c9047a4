/** cachedVisualQuestionAnswering: any `(image, question) => answer` function, keyed on the question and the image's SHA-256 digest. */
import { createHash } from "node:crypto";
import { ValidationError } from "../../src/index.js";
import { cachedVisualQuestionAnswering, dataUrlOf, type ResolvedImage } from "../../src/adapters/images/index.js";
import { startFakeServer } from "../../src/testing/fake-servers/http.js";
import { solidPng } from "../../src/testing/fake-servers/openai-media.js";
import { closeAll, defer, imageCache } from "./images-harness.js";

afterEach(closeAll);

const red = solidPng("red", 4, 4);
const green = solidPng("green", 4, 4);

/** A stand-in model: names the image's digest in its answer; counts its runs. */
function looker() {
  const seen: Array<{ image: ResolvedImage; question: string; options: object }> = [];
  const answer = async (image: ResolvedImage, question: string, options: object) => {
    seen.push({ image, question, options });
    return `${image.digest.slice(0, 8)}: ${question}`;
  };
  return { answer, seen };
}

describe("cachedVisualQuestionAnswering", () => {
  it("a miss runs the function with the image's bytes, SHA-256 digest and type; a repeat is a hit, marked", async () => {
    const cache = await imageCache();
    const { answer, seen } = looker();
    const ask = cachedVisualQuestionAnswering(answer, { cache });
    const miss = await ask(red, "what colour is it?");
    const digest = createHash("sha256").update(red).digest("hex");
    expect(miss).toEqual({ answer: `${digest.slice(0, 8)}: what colour is it?` });
    expect(seen[0].image).toEqual({ bytes: expect.any(Uint8Array), digest, mimeType: "image/png" });
    const hit = await ask(red.buffer.slice(red.byteOffset, red.byteOffset + red.length) as ArrayBuffer, "what colour is it?");
    expect(hit).toEqual({ answer: miss.answer, semcache: { hit: true, score: 1, id: expect.any(Number) } });
    expect(seen).toHaveLength(1);
  });

  it("another image never gets this image's answer; the same image as a data: URL or an http URL does", async () => {
    const cache = await imageCache({ semantic: true });
    const { answer, seen } = looker();
    const ask = cachedVisualQuestionAnswering(answer, { cache });
    const onRed = await ask(red, "how many squares are there?");
    const onGreen = await ask(green, "how many squares are there?");
    expect(onGreen.semcache).toBeUndefined();
    expect(onGreen.answer).not.toBe(onRed.answer);
    expect((await ask(dataUrlOf({ bytes: red, digest: "", mimeType: "image/png" }), "how many squares are there?")).semcache?.hit).toBe(true);
    const host = await startFakeServer({
      "GET /green.png": (_request, response) => {
        response.writeHead(200, { "content-type": "image/png" });
        response.end(green);
      },
    });
    defer(() => host.close());
    const viaUrl = await ask(`${host.url}/green.png`, "so how many squares are there?");
    expect(viaUrl.semcache?.score).toBeGreaterThan(0.8);
    expect(viaUrl.answer).toBe(onGreen.answer);
    expect(seen).toHaveLength(2);
  });

  it("options key the answer unless neutral; names keep answerers apart", async () => {
    const cache = await imageCache();
    const { answer, seen } = looker();
    const ask = cachedVisualQuestionAnswering(answer, { cache, name: "blip", neutralOptions: ["timeoutMs"] });
    await ask(red, "what is it?", { maxTokens: 10 });
    expect((await ask(red, "what is it?", { maxTokens: 20 })).semcache).toBeUndefined();
    expect((await ask(red, "what is it?", { maxTokens: 10, timeoutMs: 1 })).semcache?.hit).toBe(true);
    const other = cachedVisualQuestionAnswering(answer, { cache, name: "llava" });
    expect((await other(red, "what is it?", { maxTokens: 10 })).semcache).toBeUndefined();
    expect(seen.map(({ options }) => options)).toEqual([{ maxTokens: 10 }, { maxTokens: 20 }, { maxTokens: 10 }]);
  });

  it("errors and empty answers are not cached; searchOnly misses with null", async () => {
    const cache = await imageCache();
    let runs = 0;
    const ask = cachedVisualQuestionAnswering(
      async (_image, question) => {
        runs++;
        if (question === "crash?") throw new Error("model crashed");
        return question === "silence?" ? "" : "yes";
      },
      { cache, name: "flaky" },
    );
    await expect(ask(red, "crash?")).rejects.toThrow("model crashed");
    await expect(ask(red, "crash?")).rejects.toThrow("model crashed");
    expect(await ask(red, "silence?")).toEqual({ answer: "" });
    expect(await ask(red, "silence?")).toEqual({ answer: "" });
    expect(await ask(red, "is it red?", undefined, { cacheOptions: { searchOnly: true } })).toBeNull();
    expect(runs).toBe(4);
    expect(await cache.dataManager.count()).toBe(0);
  });

  it("refuses images and answers it cannot key or store", async () => {
    const cache = await imageCache();
    const { answer, seen } = looker();
    const ask = cachedVisualQuestionAnswering(answer, { cache });
    await expect(ask("./cat.png", "what?")).rejects.toThrow(/file paths/);
    await expect(ask(new Uint8Array(0), "what?")).rejects.toThrow(/empty/);
    await expect(ask(42 as never, "what?")).rejects.toThrow(ValidationError);
    await expect(ask(red, "  ")).rejects.toThrow(ValidationError);
    expect(seen).toHaveLength(0);
    await expect(cachedVisualQuestionAnswering(async () => 42 as never, { cache, name: "numeric" })(red, "what?")).rejects.toThrow(/string/);
    expect(() => cachedVisualQuestionAnswering(answer, { downloadTimeoutMs: 0 })).toThrow(ValidationError);
    expect(() => cachedVisualQuestionAnswering(answer, { fetch: "no" as never })).toThrow(ValidationError);
  });
});
