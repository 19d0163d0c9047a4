import { readdir, readFile, rm } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type { ImagesResponse } from "openai/resources/images";
import { managerFactory, ValidationError } from "../../../src/index.js";
import { cachedImageGeneration } from "../../../src/adapters/openai/index.js";
import { closeAll, setup } from "./harness.js";

afterEach(closeAll);

const PATH = "/v1/images/generations";
const PNG_SIGNATURE = "89504e470d0a1a0a";

/** A cache on SQLite with a local object store, in the test's temp folder. */
const withObjects = (dir: string) => ({ dataManager: managerFactory("sqlite,,local", { dataDir: dir }) });

async function urlBytes(url: string): Promise<Buffer> {
  return url.startsWith("file:") ? readFile(fileURLToPath(url)) : Buffer.from(await (await fetch(url)).arrayBuffer());
}

describe("wrapOpenAI: images.generate", () => {
  it("b64_json round trip: the image is kept in the object store and a hit returns the same bytes", async () => {
    const h = await setup({ cache: withObjects });
    const miss = await h.openai.images.generate({ prompt: "a red fox", size: "256x256", response_format: "b64_json" });
    const bytes = Buffer.from(miss.data![0].b64_json!, "base64");
    expect(bytes.subarray(0, 8).toString("hex")).toBe(PNG_SIGNATURE);
    const hit = await h.openai.images.generate({ prompt: "a red fox", size: "256x256", response_format: "b64_json" });
    expect(hit.semcache).toEqual({ hit: true, score: 1, id: expect.any(Number) });
    expect(Buffer.from(hit.data![0].b64_json!, "base64").equals(bytes)).toBe(true);
    expect(h.server.count(PATH)).toBe(1);
    expect(h.bodies(PATH)[0].response_format).toBe("b64_json");
  });

  it("url round trip: the provider's link is downloaded; a hit links to the object store's copy", async () => {
    const h = await setup({ cache: withObjects });
    const miss = await h.openai.images.generate({ prompt: "a blue whale", size: "256x256", response_format: "url" });
    const original = await urlBytes(miss.data![0].url!);
    const hit = await h.openai.images.generate({ prompt: "a blue whale", size: "256x256", response_format: "url" });
    expect(hit.semcache?.hit).toBe(true);
    expect(hit.data![0].url).toMatch(/^file:/);
    expect((await urlBytes(hit.data![0].url!)).equals(original)).toBe(true);
    expect(h.server.count(PATH)).toBe(1);
  });

  it("serves a hit in the format asked for, whatever format the miss came in", async () => {
    const h = await setup({ cache: withObjects });
    const asUrl = await h.openai.images.generate({ prompt: "a green frog", response_format: "url" });
    const original = await urlBytes(asUrl.data![0].url!);
    const asBase64 = await h.openai.images.generate({ prompt: "a green frog", response_format: "b64_json" });
    expect(asBase64.semcache?.hit).toBe(true);
    expect(Buffer.from(asBase64.data![0].b64_json!, "base64").equals(original)).toBe(true);
    // GPT image models answer in base64 only: that is the default format of their hits.
    await h.openai.images.generate({ model: "gpt-image-1", prompt: "a moth" });
    const gptHit = await h.openai.images.generate({ model: "gpt-image-1", prompt: "a moth" });
    expect(gptHit.data![0].b64_json).toBeDefined();
    expect(gptHit).toMatchObject({ output_format: "png", semcache: { hit: true } });
    expect(h.server.count(PATH)).toBe(2);
  });

  it("size, model and n partition; several images are all stored and returned; a revised prompt is kept", async () => {
    const h = await setup({ cache: withObjects });
    await h.openai.images.generate({ prompt: "a cat", size: "256x256", response_format: "b64_json" });
    expect((await h.openai.images.generate({ prompt: "a cat", size: "512x512", response_format: "b64_json" })).semcache).toBeUndefined();
    const two = await h.openai.images.generate({ prompt: "a cat", n: 2, response_format: "b64_json" });
    const twoAgain = await h.openai.images.generate({ prompt: "a cat", n: 2, response_format: "b64_json" });
    expect(twoAgain.data!.map((image) => image.b64_json)).toEqual(two.data!.map((image) => image.b64_json));
    expect(two.data![0].b64_json).not.toBe(two.data![1].b64_json);
    await h.openai.images.generate({ model: "dall-e-3", prompt: "a cat", response_format: "b64_json" });
    const dalle3 = await h.openai.images.generate({ model: "dall-e-3", prompt: "a cat", response_format: "b64_json" });
    expect(dalle3).toMatchObject({ semcache: { hit: true }, data: [{ revised_prompt: "A picture of a cat" }] });
    expect(h.server.count(PATH)).toBe(4);
  });

  it("an image whose object is gone is a miss: the model is asked again and the new image stored", async () => {
    const h = await setup({ cache: withObjects });
    await h.openai.images.generate({ prompt: "a lost image", response_format: "b64_json" });
    const objects = join(h.dir, "objects");
    for (const name of await readdir(objects)) await rm(join(objects, name));
    const { result: again, outcome } = await cachedImageGeneration(
      h.cache,
      { prompt: "a lost image", response_format: "b64_json" },
      { upstream: (body) => h.client.images.generate(body) as Promise<ImagesResponse> },
    );
    expect(outcome).toEqual({ status: "MISS" });
    expect(again!.semcache).toBeUndefined();
    expect(again!.data![0].b64_json).toBeDefined();
    expect(h.server.count(PATH)).toBe(2);
    expect(h.cache.report.errors).toBe(1);
    const third = await h.openai.images.generate({ prompt: "a lost image", response_format: "b64_json" });
    expect(third.semcache?.hit).toBe(true);
    expect(third.data![0].b64_json).toBe(again!.data![0].b64_json);
  });

  it("deletes an entry's image files with the entry: an evicted one's at the next flush, every one on clear", async () => {
    const h = await setup({ cache: (dir) => ({ dataManager: managerFactory("sqlite,,local", { dataDir: dir, maxSize: 1, cleanSize: 1 }) }) });
    const objects = join(h.dir, "objects");
    await h.openai.images.generate({ prompt: "the first image", n: 2, response_format: "b64_json" });
    const first = await readdir(objects);
    expect(first).toHaveLength(2);
    // The entry names its files as `object` deps.
    const entries = [];
    for await (const record of h.cache.dataManager.scalar.iterate()) entries.push(record);
    const [entry] = entries;
    expect(entry.deps).toHaveLength(2);
    expect(entry.deps).toEqual(expect.arrayContaining(first.map((name) => ({ name: "image", data: name, type: "object" }))));
    await h.openai.images.generate({ prompt: "the second image", response_format: "b64_json" });
    await h.cache.flush();
    const left = await readdir(objects);
    expect(left).toHaveLength(1);
    expect(first).not.toContain(left[0]);
    expect((await h.openai.images.generate({ prompt: "the second image", response_format: "b64_json" })).semcache?.hit).toBe(true);
    await h.cache.dataManager.clear();
    expect(await readdir(objects)).toEqual([]);
  });

  it("without an object store the answer still returns, nothing is stored, and the fault says what is missing", async () => {
    const errors: Error[] = [];
    const h = await setup({ cache: { onError: (error) => errors.push(error) } });
    const image = await h.openai.images.generate({ prompt: "a plain cache", response_format: "b64_json" });
    expect(image.data![0].b64_json).toBeDefined();
    expect(await h.cache.dataManager.count()).toBe(0);
    expect(errors[0]).toBeInstanceOf(ValidationError);
    expect(errors[0].message).toMatch(/object store/);
  });

  it("a request's cache_context may replace the key function of the surface", async () => {
    const h = await setup({ cache: withObjects });
    const lowercase = (request: Record<string, unknown>) => String(request.prompt).toLowerCase();
    await h.openai.images.generate({ prompt: "A Cat", response_format: "b64_json", cache_context: { pre_embedding_func: lowercase } });
    const hit = await h.openai.images.generate({ prompt: "a cat", response_format: "b64_json", cache_context: { pre_embedding_func: lowercase } });
    expect(hit.semcache?.hit).toBe(true);
    expect((await h.openai.images.generate({ prompt: "a cat", response_format: "b64_json" })).semcache?.hit).toBe(true);
    expect((await h.openai.images.generate({ prompt: "A Cat", response_format: "b64_json" })).semcache).toBeUndefined();
    expect(h.server.count(PATH)).toBe(2);
  });

  it("the cache's temperature is read, not sent: the images endpoint has no such setting", async () => {
    const h = await setup({ cache: withObjects });
    await h.openai.images.generate({ prompt: "hot", response_format: "b64_json", temperature: 2 });
    await h.openai.images.generate({ prompt: "hot", response_format: "b64_json", temperature: 2 });
    expect(h.server.count(PATH)).toBe(2);
    expect(h.bodies(PATH)[0]).toEqual({ prompt: "hot", response_format: "b64_json" });
  });
});
