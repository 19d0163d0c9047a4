/** cachedReplicate: text-to-image and visual question answering on Replicate through the cache, against a fake speaking its predictions API. */
import { ValidationError } from "../../src/index.js";
import { cachedReplicate, ModelServerError, type CachedReplicateOptions } from "../../src/adapters/replicate/index.js";
import { startFakeServer } from "../../src/testing/fake-servers/http.js";
import { solidPng } from "../../src/testing/fake-servers/openai-media.js";
import { startFakeReplicate, VQA_VERSION, type FakeReplicateOptions } from "./fake-replicate.js";
import { closeAll, defer, imageCache, linkBytes, PNG_SIGNATURE, rejectionOf, type ImageCacheOptions } from "./images-harness.js";

afterEach(closeAll);

async function setup(options: { server?: FakeReplicateOptions; cache?: ImageCacheOptions; client?: Omit<CachedReplicateOptions, "cache" | "baseUrl"> } = {}) {
  const server = await startFakeReplicate(options.server);
  defer(() => server.close());
  const cache = await imageCache(options.cache);
  const replicate = cachedReplicate({ apiToken: "r8-test", pollIntervalMs: 1, ...options.client, cache, baseUrl: server.url });
  const creates = () => server.requests.filter((request) => request.method === "POST" && !request.path.endsWith("/cancel"));
  const polls = () => server.requests.filter((request) => request.method === "GET");
  return { server, cache, replicate, creates, polls };
}

const PAINTER = "acme/painter";
const BLIP = `salesforce/blip:${VQA_VERSION}`;
const hex = (bytes?: Uint8Array) => Buffer.from(bytes ?? []).toString("hex");
const red = solidPng("red", 4, 4);
const blue = solidPng("blue", 4, 4);

describe("cachedReplicate: textToImage", () => {
  it("sync mode: one create with `Prefer: wait=60`, the file downloaded (without the token) into the object store; a repeat is a hit", async () => {
    const h = await setup();
    const miss = await h.replicate.textToImage(PAINTER, { prompt: "a red fox", seed: 3 });
    expect(miss.semcache).toBeUndefined();
    expect(hex(miss.images[0].bytes).slice(0, 16)).toBe(PNG_SIGNATURE);
    expect(miss.images[0].metadata).toEqual({ predictionId: "p1" });
    const [create] = h.creates();
    expect(create).toMatchObject({ path: "/v1/models/acme/painter/predictions", json: { input: { prompt: "a red fox", seed: 3 } } });
    expect(create.headers).toMatchObject({ authorization: "Bearer r8-test", prefer: "wait=60" });
    expect(h.polls()).toHaveLength(0);
    expect(h.server.files.requests).toHaveLength(1);
    expect(h.server.files.requests[0].headers.authorization).toBeUndefined();

    const hit = await h.replicate.textToImage(PAINTER, { prompt: "a red fox", seed: 3 }, { responseFormat: "url" });
    expect(hit.semcache).toEqual({ hit: true, score: 1, id: expect.any(Number) });
    expect(hit.images[0].url).toMatch(/^file:/);
    expect(hex(await linkBytes(hit.images[0].url!))).toBe(hex(miss.images[0].bytes));
    expect(h.server.predictions()).toBe(1);
    expect(h.server.files.requests).toHaveLength(1);
  });

  it("async mode polls GET /v1/predictions/{id} at pollIntervalMs until it succeeds", async () => {
    const h = await setup({ server: { pollsUntilDone: 3 }, client: { waitSeconds: 0 } });
    const miss = await h.replicate.textToImage(PAINTER, { prompt: "a slow painting" }, { responseFormat: "base64" });
    expect(Buffer.from(miss.images[0].base64!, "base64").subarray(0, 8).toString("hex")).toBe(PNG_SIGNATURE);
    expect(h.creates()[0].headers.prefer).toBeUndefined();
    expect(h.polls().map((request) => request.path)).toEqual(["/v1/predictions/p1", "/v1/predictions/p1", "/v1/predictions/p1"]);
    expect((await h.replicate.textToImage(PAINTER, { prompt: "a slow painting" })).semcache?.hit).toBe(true);
    expect(h.server.predictions()).toBe(1);
  });

  it("a sync create that is not done within the wait goes on polling", async () => {
    const h = await setup({ server: { pollsUntilDone: 2 } });
    await h.replicate.textToImage(PAINTER, { prompt: "a big mural" });
    expect(h.creates()[0].headers.prefer).toBe("wait=60");
    expect(h.polls()).toHaveLength(2);
  });

  it("every output is stored; data: URL outputs are decoded; input fields other than the prompt key the images", async () => {
    const h = await setup({ server: { dataUrls: true } });
    const two = await h.replicate.textToImage(PAINTER, { prompt: "tulips", num_outputs: 2, width: 64 });
    expect(two.images).toHaveLength(2);
    expect(hex(two.images[0].bytes)).not.toBe(hex(two.images[1].bytes));
    expect(h.server.files.requests).toHaveLength(0);
    const hit = await h.replicate.textToImage(PAINTER, { width: 64, num_outputs: 2, prompt: "tulips" });
    expect(hit.images.map((image) => hex(image.bytes))).toEqual(two.images.map((image) => hex(image.bytes)));
    for (const input of [{ prompt: "tulips", num_outputs: 2, width: 128 }, { prompt: "tulips", num_outputs: 1, width: 64 }, { prompt: "tulips", num_outputs: 2, width: 64, seed: 9 }]) {
      expect((await h.replicate.textToImage(PAINTER, input)).semcache).toBeUndefined();
    }
    // A model whose output is text, not files, is the caller's mistake: thrown, nothing stored.
    const text = h.replicate.textToImage("acme/llava", { prompt: "tulips", image: `data:image/png;base64,${red.toString("base64")}` });
    await expect(text).rejects.toThrow(/not a file URL/);
    expect(h.server.predictions()).toBe(5);
    expect(await h.cache.dataManager.count()).toBe(4);
  });

  it("a failed prediction is thrown as ModelServerError and not cached; an unknown model's 404 too", async () => {
    const h = await setup({ server: { pollsUntilDone: 1 } });
    const failed = await rejectionOf(h.replicate.textToImage(PAINTER, { prompt: "please fail" }));
    expect(failed).toBeInstanceOf(ModelServerError);
    expect(failed.message).toBe("Replicate prediction p1 failed: CUDA out of memory");
    expect(failed.body).toMatchObject({ id: "p1", status: "failed", error: "CUDA out of memory" });
    await expect(h.replicate.textToImage(PAINTER, { prompt: "please fail" })).rejects.toThrow(ModelServerError);
    expect(h.server.predictions()).toBe(2);
    const missing = await rejectionOf(h.replicate.textToImage("acme/nothing", { prompt: "x" }));
    expect(missing.status).toBe(404);
    expect(missing.message).toBe("Not found: The requested resource could not be found.");
    const unauthorized = cachedReplicate({ apiToken: "r8-wrong", cache: h.cache, baseUrl: h.server.url });
    await expect(unauthorized.textToImage(PAINTER, { prompt: "x" })).rejects.toMatchObject({ status: 401 });
    expect(await h.cache.dataManager.count()).toBe(0);
  });

  it("a prediction still running after timeoutMs is canceled and thrown; so is one whose caller aborts", async () => {
    const h = await setup({ server: { pollsUntilDone: Number.POSITIVE_INFINITY }, client: { waitSeconds: 1, pollIntervalMs: 2, timeoutMs: 30 } });
    await expect(h.replicate.textToImage(PAINTER, { prompt: "never ends" })).rejects.toThrow(/did not finish within 30 ms/);
    expect(h.server.canceled).toEqual(["p1"]);
    const controller = new AbortController();
    const pollsBefore = h.polls().length;
    // A client of its own with no deadline in reach: only the abort ends this one.
    const patient = cachedReplicate({ apiToken: "r8-test", pollIntervalMs: 2, timeoutMs: 60_000, cache: h.cache, baseUrl: h.server.url });
    const running = patient.textToImage(PAINTER, { prompt: "aborted" }, { signal: controller.signal });
    // Aborted once the prediction exists and is being polled (an abort during the create leaves no id to cancel).
    while (h.polls().length === pollsBefore) await new Promise((resolve) => setImmediate(resolve));
    controller.abort();
    await expect(running).rejects.toMatchObject({ name: "AbortError" });
    // The cancel is sent, and answered, before the call rejects.
    expect(h.server.canceled).toEqual(["p1", "p2"]);
    expect(await h.cache.dataManager.count()).toBe(0);
  });

  it("refuses options it cannot honour", async () => {
    const h = await setup();
    expect(() => cachedReplicate({ apiToken: "t", waitSeconds: 61 })).toThrow(ValidationError);
    expect(() => cachedReplicate({ apiToken: "t", pollIntervalMs: -1 })).toThrow(ValidationError);
    expect(() => cachedReplicate({ apiToken: "t", timeoutMs: 0 })).toThrow(ValidationError);
    const saved = process.env.REPLICATE_API_TOKEN;
    delete process.env.REPLICATE_API_TOKEN;
    try {
      expect(() => cachedReplicate()).toThrow(/REPLICATE_API_TOKEN/);
    } finally {
      if (saved !== undefined) process.env.REPLICATE_API_TOKEN = saved;
    }
    await expect(h.replicate.textToImage("not a model", { prompt: "x" })).rejects.toThrow(ValidationError);
    await expect(h.replicate.textToImage(PAINTER, { prompt: "" })).rejects.toThrow(ValidationError);
    expect(() => h.replicate.visualQuestionAnswering(BLIP, { imageField: "" })).toThrow(ValidationError);
    expect(h.server.requests).toHaveLength(0);
  });
});

describe("cachedReplicate: visualQuestionAnswering", () => {
  it("a versioned model gets `{ version, input }` with the image as a data: URL; the same question about the same image hits", async () => {
    const h = await setup();
    const ask = h.replicate.visualQuestionAnswering(BLIP, { input: { task: "visual_question_answering" } });
    const miss = await ask(red, "what colour is it?");
    expect(miss).toEqual({ answer: expect.stringMatching(/^Answer \(visual_question_answering\) about [0-9a-f]{12}: what colour is it\?$/) });
    const [create] = h.creates();
    expect(create.path).toBe("/v1/predictions");
    expect(create.json).toEqual({
      version: VQA_VERSION,
      input: { task: "visual_question_answering", image: `data:image/png;base64,${red.toString("base64")}`, question: "what colour is it?" },
    });
    const hit = await ask(new Uint8Array(red), "what colour is it?");
    expect(hit).toEqual({ answer: miss.answer, semcache: { hit: true, score: 1, id: expect.any(Number) } });
    expect(h.server.predictions()).toBe(1);
  });

  it("another image never shares an answer; the same bytes given as a URL do (keyed on the digest); the keyed bytes are sent, never the URL", async () => {
    const h = await setup();
    const ask = h.replicate.visualQuestionAnswering(BLIP, { input: { task: "visual_question_answering" } });
    const onRed = await ask(red, "what is in the picture?");
    const onBlue = await ask(blue, "what is in the picture?");
    expect(onBlue.semcache).toBeUndefined();
    expect(onBlue.answer).not.toBe(onRed.answer);
    const host = await startFakeServer({
      "GET /red.png": (_request, response) => {
        response.writeHead(200, { "content-type": "image/png" });
        response.end(red);
      },
    });
    defer(() => host.close());
    const viaUrl = await ask(`${host.url}/red.png`, "what is in the picture?");
    expect(viaUrl.semcache?.hit).toBe(true);
    expect(viaUrl.answer).toBe(onRed.answer);
    const asked = await ask(`${host.url}/red.png`, "is it daytime?");
    expect(asked.semcache).toBeUndefined();
    // Replicate gets the bytes that were keyed: a URL could serve another image by the time it fetched it.
    expect(String((h.creates().at(-1)?.json?.input as { image?: unknown })?.image)).toMatch(/^data:image\/png;base64,/);
    expect(h.server.predictions()).toBe(3);
  });

  it("on a semantic cache a reworded question about the same image hits; fixed and per-call input key the answer", async () => {
    const h = await setup({ cache: { semantic: true } });
    const ask = h.replicate.visualQuestionAnswering(BLIP, { input: { task: "visual_question_answering" } });
    await ask(red, "what colour is the square in the picture?");
    const reworded = await ask(red, "what colour is the square in this picture?");
    expect(reworded.semcache?.score).toBeGreaterThan(0.8);
    expect((await ask(red, "what colour is the square in the picture?", { caption: true })).semcache).toBeUndefined();
    const captioner = h.replicate.visualQuestionAnswering(BLIP, { input: { task: "image_captioning" } });
    expect((await captioner(red, "what colour is the square in the picture?")).semcache).toBeUndefined();
    expect(h.server.predictions()).toBe(3);
  });

  it("a LLaVA-style model: other field names, the token list joined, a failure not cached", async () => {
    const h = await setup({ server: { pollsUntilDone: 1 } });
    const ask = h.replicate.visualQuestionAnswering("acme/llava", { questionField: "prompt" });
    const miss = await ask(red, "describe it");
    expect(miss.answer).toMatch(/^It shows [0-9a-f]{12} - describe it$/);
    expect(h.creates()[0].json?.input).toEqual({ image: expect.stringMatching(/^data:image\/png;base64,/), prompt: "describe it" });
    expect((await ask(red, "describe it")).semcache?.hit).toBe(true);
    await expect(ask(red, "fail now")).rejects.toThrow(ModelServerError);
    await expect(ask(red, "fail now")).rejects.toThrow(ModelServerError);
    expect(h.server.predictions()).toBe(3);
  });
});
