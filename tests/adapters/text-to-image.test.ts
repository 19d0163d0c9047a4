/** cachedTextToImage: any `(prompt, options) => image` function through the cache, images in the object store. */
import { readdir, rm } from "node:fs/promises";
import { dirname } from "node:path";
import { fileURLToPath } from "node:url";
import { ValidationError } from "../../src/index.js";
import { cachedTextToImage } from "../../src/adapters/images/index.js";
import { solidPng } from "../../src/testing/fake-servers/openai-media.js";
import { closeAll, imageCache, linkBytes, PNG_SIGNATURE } from "./images-harness.js";

afterEach(closeAll);

type DrawOptions = { size?: string; seed?: number; timeoutMs?: number };

/** A stand-in diffusion pipeline: a PNG whose colour depends on everything asked; counts its runs. */
function painter() {
  const calls: Array<{ prompt: string; options: DrawOptions }> = [];
  const draw = async (prompt: string, options: DrawOptions) => {
    calls.push({ prompt, options });
    return solidPng(`${prompt}|${options.size}|${options.seed}`, 8, 8);
  };
  return { draw, calls };
}

describe("cachedTextToImage", () => {
  it("a miss runs the function and stores the image; a repeat is a hit with the same bytes, marked", async () => {
    const cache = await imageCache();
    const { draw, calls } = painter();
    const generate = cachedTextToImage(draw, { cache, name: "painter" });
    const miss = await generate("a red fox", { size: "512x512" });
    expect(miss.semcache).toBeUndefined();
    expect(miss.images).toHaveLength(1);
    expect(miss.images[0].mimeType).toBe("image/png");
    expect(Buffer.from(miss.images[0].bytes!).subarray(0, 8).toString("hex")).toBe(PNG_SIGNATURE);
    const hit = await generate("a red fox", { size: "512x512" });
    expect(hit.semcache).toEqual({ hit: true, score: 1, id: expect.any(Number) });
    expect(Buffer.from(hit.images[0].bytes!).equals(Buffer.from(miss.images[0].bytes!))).toBe(true);
    expect(calls).toHaveLength(1);
    expect(calls[0]).toEqual({ prompt: "a red fox", options: { size: "512x512" } });
  });

  it("serves bytes, base64 or the object store's link, whatever format the miss was asked in", async () => {
    const cache = await imageCache();
    const { draw, calls } = painter();
    const generate = cachedTextToImage(draw, { cache, responseFormat: "url" });
    const miss = await generate("a blue whale");
    expect(miss.images[0].url).toMatch(/^file:/);
    expect(miss.images[0].bytes).toBeUndefined();
    const original = await linkBytes(miss.images[0].url!);
    const asBase64 = await generate("a blue whale", {}, { responseFormat: "base64" });
    expect(Buffer.from(asBase64.images[0].base64!, "base64").equals(original)).toBe(true);
    const asBytes = await generate("a blue whale", {}, { responseFormat: "bytes" });
    expect(Buffer.from(asBytes.images[0].bytes!).equals(original)).toBe(true);
    const asUrl = await generate("a blue whale");
    expect(asUrl.images[0].url).toBe(miss.images[0].url);
    expect(calls).toHaveLength(1);
    await expect(generate("a blue whale", {}, { responseFormat: "png" as never })).rejects.toThrow(ValidationError);
  });

  it("every option keys the image (another size or seed never gets this one); neutral options do not", async () => {
    const cache = await imageCache();
    const { draw, calls } = painter();
    const generate = cachedTextToImage(draw, { cache, neutralOptions: ["timeoutMs"] });
    const small = await generate("a lighthouse", { size: "256x256", seed: 1 });
    const large = await generate("a lighthouse", { size: "1024x1024", seed: 1 });
    const reseeded = await generate("a lighthouse", { size: "256x256", seed: 2 });
    expect(large.semcache).toBeUndefined();
    expect(reseeded.semcache).toBeUndefined();
    expect(Buffer.from(large.images[0].bytes!).equals(Buffer.from(small.images[0].bytes!))).toBe(false);
    // Option order does not matter; a neutral option does not key.
    const again = await generate("a lighthouse", { seed: 1, size: "256x256", timeoutMs: 5000 });
    expect(again.semcache?.hit).toBe(true);
    expect(Buffer.from(again.images[0].bytes!).equals(Buffer.from(small.images[0].bytes!))).toBe(true);
    expect(calls).toHaveLength(3);
  });

  it("two functions (names) never share images", async () => {
    const cache = await imageCache();
    const a = painter();
    const b = painter();
    await cachedTextToImage(a.draw, { cache, name: "sdxl" })("a castle");
    const other = await cachedTextToImage(b.draw, { cache, name: "flux" })("a castle");
    expect(other.semcache).toBeUndefined();
    expect(b.calls).toHaveLength(1);
  });

  it("on a semantic cache a reworded prompt hits with its score", async () => {
    const cache = await imageCache({ semantic: true });
    const { draw, calls } = painter();
    const generate = cachedTextToImage(draw, { cache });
    await generate("a watercolor painting of a red fox in the snow");
    const hit = await generate("watercolor painting of a red fox in snow");
    expect(hit.semcache?.score).toBeGreaterThan(0.8);
    expect(hit.semcache?.score).toBeLessThan(1);
    expect(calls).toHaveLength(1);
  });

  it("several images with their metadata are stored and come back; ArrayBuffers are accepted", async () => {
    const cache = await imageCache();
    let runs = 0;
    const generate = cachedTextToImage(
      async (prompt: string) => {
        runs++;
        const first = solidPng(`${prompt}1`, 4, 4);
        return { images: [{ bytes: first, metadata: { seed: 11 } }, { bytes: new Uint8Array(solidPng(`${prompt}2`, 4, 4)).buffer, metadata: { seed: 12 } }] };
      },
      { cache, name: "pair" },
    );
    const miss = await generate("two cats");
    const hit = await generate("two cats");
    expect(hit.images.map((image) => image.metadata)).toEqual([{ seed: 11 }, { seed: 12 }]);
    expect(hit.images.map((image) => Buffer.from(image.bytes!).toString("hex"))).toEqual(miss.images.map((image) => Buffer.from(image.bytes!).toString("hex")));
    expect(runs).toBe(1);
  });

  it("a failing function is not cached; a result flagged not cacheable is returned, not stored, and linked as a data: URL", async () => {
    const cache = await imageCache();
    let runs = 0;
    const generate = cachedTextToImage(
      async (prompt: string) => {
        runs++;
        if (prompt.includes("boom")) throw new Error("GPU fell over");
        return { images: [{ bytes: solidPng(prompt, 4, 4), metadata: { finishReason: "CONTENT_FILTERED" } }], cacheable: false };
      },
      { cache, name: "filtered", responseFormat: "url" },
    );
    await expect(generate("boom")).rejects.toThrow("GPU fell over");
    await expect(generate("boom")).rejects.toThrow("GPU fell over");
    const filtered = await generate("something filtered");
    expect(filtered.images[0].url).toMatch(/^data:image\/png;base64,/);
    expect((await linkBytes(filtered.images[0].url!)).subarray(0, 8).toString("hex")).toBe(PNG_SIGNATURE);
    expect((await generate("something filtered")).semcache).toBeUndefined();
    expect(runs).toBe(4);
    expect(await cache.dataManager.count()).toBe(0);
  });

  it("noStore answers without storing; searchOnly misses with null and hits without running the function", async () => {
    const cache = await imageCache();
    const { draw, calls } = painter();
    const generate = cachedTextToImage(draw, { cache });
    await generate("a moth", {}, { cacheOptions: { noStore: true } });
    expect(await cache.dataManager.count()).toBe(0);
    expect(await generate("a moth", {}, { cacheOptions: { searchOnly: true } })).toBeNull();
    await generate("a moth");
    expect((await generate("a moth", {}, { cacheOptions: { searchOnly: true } }))?.semcache?.hit).toBe(true);
    expect(calls).toHaveLength(2);
  });

  it("an image gone from the object store makes the request a miss, and the function runs again", async () => {
    const cache = await imageCache();
    const { draw, calls } = painter();
    const generate = cachedTextToImage(draw, { cache, responseFormat: "url" });
    const first = await generate("an owl");
    await rm(fileURLToPath(first.images[0].url!));
    const again = await generate("an owl");
    expect(again.semcache).toBeUndefined();
    expect(calls).toHaveLength(2);
  });

  it("the entry names its image files, so clearing the cache deletes them", async () => {
    const cache = await imageCache();
    const { draw } = painter();
    const generate = cachedTextToImage(draw, { cache, responseFormat: "url" });
    const { images } = await generate("a heron");
    await generate("a crane");
    const folder = dirname(fileURLToPath(images[0].url!));
    expect(await readdir(folder)).toHaveLength(2);
    await cache.dataManager.clear();
    expect(await readdir(folder)).toEqual([]);
  });

  it("refuses what it cannot do: no object store (before the function runs), bad results, bad options", async () => {
    const bare = await imageCache({ noObjects: true });
    const { draw, calls } = painter();
    await expect(cachedTextToImage(draw, { cache: bare })("a fox")).rejects.toThrow(/object store/);
    expect(calls).toHaveLength(0);
    const cache = await imageCache();
    await expect(cachedTextToImage(async () => "not an image" as never, { cache, name: "broken" })("a fox")).rejects.toThrow(ValidationError);
    // An inline arrow has no name: two of them on one cache would share images.
    expect(() => cachedTextToImage(async () => solidPng("x", 2, 2), { cache })).toThrow(/has no name: give `name`/);
    // An option that is not plain JSON would key as {}: two different blobs would share an image.
    await expect(cachedTextToImage(draw, { cache })("a fox", { initImage: new Blob(["a"]) } as never)).rejects.toThrow(/options\.initImage is not plain JSON/);
    expect(await cache.dataManager.count()).toBe(0);
    expect(() => cachedTextToImage("nope" as never)).toThrow(ValidationError);
    expect(() => cachedTextToImage(draw, { responseFormat: "jpeg" as never })).toThrow(ValidationError);
    expect(() => cachedTextToImage(draw, { cacheOptions: { searchOnly: true } })).toThrow(/per call/);
    expect(() => cachedTextToImage(draw, { neutralOptions: "timeoutMs" as never })).toThrow(ValidationError);
    await expect(cachedTextToImage(draw, { cache })("")).rejects.toThrow(ValidationError);
    await expect(cachedTextToImage(draw, { cache })("a fox", [] as never)).rejects.toThrow(ValidationError);
  });

  it("hands the call's abort signal to the function", async () => {
    const cache = await imageCache();
    let seen: AbortSignal | undefined;
    const generate = cachedTextToImage(
      async (_prompt: string, _options: object, { signal }) => {
        seen = signal;
        return solidPng("x", 2, 2);
      },
      { cache, name: "abortable" },
    );
    const controller = new AbortController();
    await generate("a hat", {}, { signal: controller.signal });
    expect(seen).toBe(controller.signal);
  });
});
