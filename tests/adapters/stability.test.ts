/** cachedStability: Stability AI's v2beta and v1 text-to-image APIs through the cache, against a fake speaking their wire format. */
import { ValidationError } from "../../src/index.js";
import { cachedStability, ModelServerError, type CachedStabilityOptions } from "../../src/adapters/images/index.js";
import { startFakeStability, type FakeStabilityOptions } from "./fake-stability.js";
import { closeAll, defer, imageCache, linkBytes, PNG_SIGNATURE, rejectionOf, type ImageCacheOptions } from "./images-harness.js";

afterEach(closeAll);

async function setup(options: { server?: FakeStabilityOptions; cache?: ImageCacheOptions; client?: Omit<CachedStabilityOptions, "cache" | "baseUrl"> } = {}) {
  const server = await startFakeStability(options.server);
  defer(() => server.close());
  const cache = await imageCache(options.cache);
  const stability = cachedStability({ apiKey: "sk-test", ...options.client, cache, baseUrl: server.url });
  return { server, cache, stability };
}

const V2_PATH = "/v2beta/stable-image/generate/core";
const hex = (bytes?: Uint8Array) => Buffer.from(bytes ?? []).toString("hex");

describe("cachedStability: v2beta stable-image/generate", () => {
  it("sends Stability's multipart form with `accept: image/*`; a miss reads the bytes and headers; a repeat is a hit", async () => {
    const h = await setup();
    const miss = await h.stability.generate("core", { prompt: "a lighthouse at dawn", aspect_ratio: "16:9", seed: 42, negative_prompt: "fog" });
    expect(miss.semcache).toBeUndefined();
    expect(miss.images).toEqual([{ mimeType: "image/png", bytes: expect.any(Uint8Array), metadata: { finish_reason: "SUCCESS", seed: 42 } }]);
    expect(hex(miss.images[0].bytes).slice(0, 16)).toBe(PNG_SIGNATURE);
    const sent = h.server.requests[0];
    expect(sent.path).toBe(V2_PATH);
    expect(sent.headers.authorization).toBe("Bearer sk-test");
    expect(sent.headers.accept).toBe("image/*");
    const form = await new Response(sent.body, { headers: { "content-type": String(sent.headers["content-type"]) } }).formData();
    expect(Object.fromEntries(form.entries())).toEqual({ prompt: "a lighthouse at dawn", aspect_ratio: "16:9", seed: "42", negative_prompt: "fog" });

    const hit = await h.stability.generate("core", { prompt: "a lighthouse at dawn", aspect_ratio: "16:9", seed: 42, negative_prompt: "fog" });
    expect(hit.semcache).toEqual({ hit: true, score: 1, id: expect.any(Number) });
    expect(hit.images[0].metadata).toEqual({ finish_reason: "SUCCESS", seed: 42 });
    expect(hex(hit.images[0].bytes)).toBe(hex(miss.images[0].bytes));
    expect(h.server.generations()).toBe(1);
  });

  it("`accept: application/json` reads `{ image, finish_reason, seed }`; formats bytes, base64 and link", async () => {
    const h = await setup({ client: { accept: "application/json", responseFormat: "base64" } });
    const miss = await h.stability.generate("ultra", { prompt: "a red barn", output_format: "webp" });
    expect(h.server.requests[0].headers.accept).toBe("application/json");
    expect(miss.images[0].mimeType).toBe("image/webp");
    expect(miss.images[0].metadata).toEqual({ finish_reason: "SUCCESS", seed: expect.any(Number) });
    const bytes = Buffer.from(miss.images[0].base64!, "base64");
    const asUrl = await h.stability.generate("ultra", { prompt: "a red barn", output_format: "webp" }, { responseFormat: "url" });
    expect(asUrl.images[0].url).toMatch(/^file:.*\.webp$/);
    expect((await linkBytes(asUrl.images[0].url!)).equals(bytes)).toBe(true);
    const asBytes = await h.stability.generate("ultra", { prompt: "a red barn", output_format: "webp" }, { responseFormat: "bytes" });
    expect(Buffer.from(asBytes.images[0].bytes!).equals(bytes)).toBe(true);
    expect(h.server.generations()).toBe(1);
  });

  it("the service, seed, aspect ratio, output format, model and negative prompt all key the image", async () => {
    const h = await setup();
    const base = { prompt: "a green frog", seed: 1 };
    const variants = [
      ["core", base],
      ["ultra", base],
      ["core", { ...base, seed: 2 }],
      ["core", { ...base, aspect_ratio: "21:9" }],
      ["core", { ...base, output_format: "jpeg" as const }],
      ["sd3", { ...base, model: "sd3.5-large" }],
      ["sd3", { ...base, model: "sd3.5-medium" }],
      ["core", { ...base, negative_prompt: "water" }],
    ] as const;
    const results = [];
    for (const [service, params] of variants) results.push(await h.stability.generate(service, params));
    expect(results.every((result) => result.semcache === undefined)).toBe(true);
    expect(new Set(results.map((result) => hex(result.images[0].bytes))).size).toBe(variants.length);
    expect(h.server.generations()).toBe(variants.length);
    // Field order does not matter.
    expect((await h.stability.generate("core", { seed: 1, prompt: "a green frog" })).semcache?.hit).toBe(true);
    expect(h.server.requests.map((request) => request.path)).toContain("/v2beta/stable-image/generate/sd3");
  });

  it("a CONTENT_FILTERED image is handed back with its finish reason but never stored", async () => {
    const h = await setup();
    const filtered = await h.stability.generate("core", { prompt: "something forbidden" });
    expect(filtered.images[0].metadata?.finish_reason).toBe("CONTENT_FILTERED");
    const again = await h.stability.generate("core", { prompt: "something forbidden" });
    expect(again.semcache).toBeUndefined();
    expect(h.server.generations()).toBe(2);
    expect(await h.cache.dataManager.count()).toBe(0);
    // The same in the JSON wire format.
    const json = cachedStability({ apiKey: "sk-test", cache: h.cache, baseUrl: h.server.url, accept: "application/json" });
    expect((await json.generate("core", { prompt: "forbidden fruit" })).images[0].metadata?.finish_reason).toBe("CONTENT_FILTERED");
    expect(await h.cache.dataManager.count()).toBe(0);
  });

  it("an error answer is thrown as ModelServerError with Stability's body, and nothing is cached", async () => {
    const h = await setup();
    const failing = h.stability.generate("core", { prompt: "a server error please" });
    await expect(failing).rejects.toThrow(ModelServerError);
    const error = await rejectionOf(h.stability.generate("core", { prompt: "a server error please" }));
    expect(error.status).toBe(500);
    expect(error.body).toEqual({ id: expect.any(String), name: "internal_error", errors: [expect.any(String)] });
    expect(error.message).toMatch(/^internal_error: /);
    const unauthorized = cachedStability({ apiKey: "sk-wrong", cache: h.cache, baseUrl: h.server.url });
    const refused = await rejectionOf(unauthorized.generate("core", { prompt: "a cat" }));
    expect(refused.status).toBe(401);
    expect(refused.message).toBe("unauthorized: authorization: invalid or missing header value");
    expect(await h.cache.dataManager.count()).toBe(0);
  });

  it("refuses options it cannot honour", async () => {
    const h = await setup();
    expect(() => cachedStability({ apiKey: "k", accept: "image/png" as never })).toThrow(ValidationError);
    expect(() => cachedStability({ apiKey: "k", baseUrl: "ftp://x" })).toThrow(ValidationError);
    const saved = process.env.STABILITY_API_KEY;
    delete process.env.STABILITY_API_KEY;
    try {
      expect(() => cachedStability()).toThrow(/STABILITY_API_KEY/);
    } finally {
      if (saved !== undefined) process.env.STABILITY_API_KEY = saved;
    }
    await expect(h.stability.generate("../v1", { prompt: "x" })).rejects.toThrow(ValidationError);
    await expect(h.stability.generate("core", { prompt: "" })).rejects.toThrow(ValidationError);
    await expect(h.stability.generate("sd3", { prompt: "x", image: new Uint8Array(3) as never })).rejects.toThrow(/image-to-image/);
    expect(h.server.requests).toHaveLength(0);
  });
});

describe("cachedStability: v1 text-to-image", () => {
  const ENGINE = "stable-diffusion-v1-6";
  const PATH = `/v1/generation/${ENGINE}/text-to-image`;

  it("sends the JSON body unchanged; all samples are stored with their seeds; a repeat is a hit", async () => {
    const h = await setup();
    const body = { text_prompts: [{ text: "a castle on a hill" }], height: 512, width: 768, samples: 2, steps: 30, cfg_scale: 7, seed: 100 };
    const miss = await h.stability.textToImage(ENGINE, body);
    expect(h.server.requests[0]).toMatchObject({ path: PATH, json: body });
    expect(h.server.requests[0].headers.accept).toBe("application/json");
    expect(miss.images.map((image) => image.metadata)).toEqual([
      { seed: 100, finishReason: "SUCCESS" },
      { seed: 101, finishReason: "SUCCESS" },
    ]);
    const hit = await h.stability.textToImage(ENGINE, body);
    expect(hit.semcache?.hit).toBe(true);
    expect(hit.images.map((image) => hex(image.bytes))).toEqual(miss.images.map((image) => hex(image.bytes)));
    expect(h.server.generations()).toBe(1);
  });

  it("the positive prompts are the key; size, seed, engine, weights and negative prompts partition", async () => {
    const h = await setup({ cache: { semantic: true } });
    const prompts = [{ text: "a watercolor painting of a castle on a hill" }];
    await h.stability.textToImage(ENGINE, { text_prompts: prompts, width: 512, height: 512, seed: 5 });
    const reworded = await h.stability.textToImage(ENGINE, { text_prompts: [{ text: "watercolor painting of a castle on a hill" }], width: 512, height: 512, seed: 5 });
    expect(reworded.semcache?.score).toBeGreaterThan(0.8);
    const others = [
      { text_prompts: prompts, width: 1024, height: 512, seed: 5 },
      { text_prompts: prompts, width: 512, height: 512, seed: 6 },
      { text_prompts: [...prompts, { text: "fog", weight: -1 }], width: 512, height: 512, seed: 5 },
      { text_prompts: [{ ...prompts[0], weight: 0.5 }], width: 512, height: 512, seed: 5 },
    ];
    for (const body of others) expect((await h.stability.textToImage(ENGINE, body)).semcache).toBeUndefined();
    expect((await h.stability.textToImage("stable-diffusion-xl-1024-v1-0", { text_prompts: prompts, width: 512, height: 512, seed: 5 })).semcache).toBeUndefined();
    expect(h.server.generations()).toBe(6);
  });

  it("an artifact with finishReason CONTENT_FILTERED keeps the whole answer out of the cache; errors are thrown", async () => {
    const h = await setup();
    const filtered = await h.stability.textToImage(ENGINE, { text_prompts: [{ text: "forbidden scene" }], samples: 2 });
    expect(filtered.images.map((image) => image.metadata?.finishReason)).toEqual(["CONTENT_FILTERED", "CONTENT_FILTERED"]);
    expect(await h.cache.dataManager.count()).toBe(0);
    const missing = await rejectionOf(h.stability.textToImage("no-such-engine", { text_prompts: [{ text: "x" }] }));
    expect(missing).toBeInstanceOf(ModelServerError);
    expect(missing.status).toBe(404);
    expect(missing.message).toBe("engine_not_found: engine: no-such-engine not found");
    await expect(h.stability.textToImage(ENGINE, { text_prompts: [{ text: "a server error" }] })).rejects.toMatchObject({ status: 500 });
    await expect(h.stability.textToImage(ENGINE, { text_prompts: [] })).rejects.toThrow(ValidationError);
    expect(await h.cache.dataManager.count()).toBe(0);
  });
});
