/**
 * @jest-environment ./tests/embeddings/onnx-environment.mjs
 */
/**
 * transformersVisualQuestionAnswering on the tiny Donut-style model (tests/fixtures/make-tiny-models.ts): the real
 * document-question-answering pipeline of @huggingface/transformers runs it (image processor, tokenizer, encoder,
 * greedy decoding, the answer parsed from `<s_answer>…</s_answer>`). The model answers the image's strongest
 * channel ("red", "blue") to a question about the colour and "bright" or "dark" to one about brightness, so an
 * answer shows that both the image and the question reached it.
 */
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { crc32, deflateSync } from "node:zlib";
import { ValidationError } from "../../src/core/errors.js";
import { cachedVisualQuestionAnswering, transformersVisualQuestionAnswering, type ResolvedImage } from "../../src/adapters/images/index.js";
import { tempDir } from "../helpers/fixtures.js";
import { closeAll, defer, imageCache, rejectionOf } from "./images-harness.js";

afterEach(closeAll);

const MODEL_DIR = fileURLToPath(new URL("../fixtures/tiny-models/tiny-donut", import.meta.url));

/** A 4x4 RGB PNG of one colour. */
function png([r, g, b]: readonly [number, number, number]): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const typed = Buffer.concat([Buffer.from(type, "ascii"), data]);
    const framed = Buffer.alloc(8 + typed.length);
    framed.writeUInt32BE(data.length, 0);
    typed.copy(framed, 4);
    framed.writeUInt32BE(crc32(typed) >>> 0, 4 + typed.length);
    return framed;
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(4, 0);
  header.writeUInt32BE(4, 4);
  header.set([8, 2, 0, 0, 0], 8);
  const row = Buffer.from([0, ...Array.from({ length: 4 }, () => [r, g, b]).flat()]);
  const signature = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  return Buffer.concat([signature, chunk("IHDR", header), chunk("IDAT", deflateSync(Buffer.concat([row, row, row, row]))), chunk("IEND", Buffer.alloc(0))]);
}

const red = png([230, 20, 30]);
const blue = png([20, 40, 220]);

/** The answerer, with a count of the questions that reached the model. */
function counted() {
  const model = transformersVisualQuestionAnswering({ modelDir: MODEL_DIR });
  const questions: string[] = [];
  const answer = async (image: ResolvedImage, question: string, options: object, context: { signal?: AbortSignal }) => {
    questions.push(question);
    return model(image, question, options, context);
  };
  return { model, answer, questions };
}

describe("transformersVisualQuestionAnswering (transformers.js document-question-answering, tiny Donut-style model)", () => {
  it("a miss runs the model on the image and the question; the same image and question is then a hit", async () => {
    const cache = await imageCache({ noObjects: true });
    const { answer, questions } = counted();
    const ask = cachedVisualQuestionAnswering(answer, { cache, name: "tiny-donut" });
    expect(await ask(red, "what colour is it?")).toEqual({ answer: "red" });
    expect(await ask(red, "what colour is it?")).toEqual({ answer: "red", semcache: { hit: true, score: 1, id: expect.any(Number) } });
    expect(questions).toEqual(["what colour is it?"]);
  });

  it("another image or another question misses, and the model's answer follows each", async () => {
    const cache = await imageCache({ noObjects: true });
    const { answer, questions } = counted();
    const ask = cachedVisualQuestionAnswering(answer, { cache, name: "tiny-donut" });
    expect((await ask(red, "what colour is it?")).answer).toBe("red");
    const onBlue = await ask(blue, "what colour is it?");
    expect(onBlue).toEqual({ answer: "blue" });
    const brightness = await ask(red, "is this image bright or dark?");
    expect(brightness).toEqual({ answer: "dark" });
    expect((await ask(png([250, 250, 240]), "is this image bright or dark?")).answer).toBe("bright");
    expect(questions).toHaveLength(4);
  });

  it("is the function the cache wraps: named after its folder, no name needed; concurrent first questions and load() all get the loaded model", async () => {
    const cache = await imageCache({ noObjects: true });
    const model = transformersVisualQuestionAnswering({ modelDir: MODEL_DIR });
    expect(model.name).toBe(`transformers:${MODEL_DIR}`);
    expect(model.modelDir).toBe(MODEL_DIR);
    const ask = cachedVisualQuestionAnswering(model, { cache });
    const answers = await Promise.all([ask(red, "what colour is it?"), ask(blue, "what color is this picture?"), model.load()]);
    expect(answers.slice(0, 2)).toEqual([{ answer: "red" }, { answer: "blue" }]);
  });

  it("maxNewTokens too small for `</s_answer>`: an empty answer, returned and not stored", async () => {
    const cache = await imageCache({ noObjects: true });
    const { answer, questions } = counted();
    const ask = cachedVisualQuestionAnswering(answer, { cache, name: "tiny-donut" });
    expect(await ask(red, "what colour is it?", { maxNewTokens: 1 })).toEqual({ answer: "" });
    expect(await ask(red, "what colour is it?", { maxNewTokens: 1 })).toEqual({ answer: "" });
    expect(await ask(red, "what colour is it?", { maxNewTokens: 3 })).toEqual({ answer: "red" });
    expect(questions).toHaveLength(3);
  });

  it("an aborted call rejects with the signal's reason before the model runs", async () => {
    const cache = await imageCache({ noObjects: true });
    const { answer } = counted();
    const ask = cachedVisualQuestionAnswering(answer, { cache, name: "tiny-donut" });
    const controller = new AbortController();
    controller.abort(new Error("the user left"));
    await expect(ask(red, "what colour is it?", {}, { signal: controller.signal })).rejects.toThrow("the user left");
  });

  it("a missing folder, missing files, another kind of model, bad options: ValidationError, on the first question", async () => {
    const missing = transformersVisualQuestionAnswering({ modelDir: "./no-such-model-folder" });
    const image = { bytes: red, digest: "", mimeType: "image/png" };
    const noFolder = await rejectionOf<ValidationError>(missing(image, "what colour is it?", {}, {}));
    expect(ValidationError.isInstance(noFolder)).toBe(true);
    expect(noFolder.message).toMatch(/no-such-model-folder does not exist/);

    const dir = tempDir("semcache-vqa-");
    defer(dir.cleanup);
    writeFileSync(join(dir.path, "config.json"), JSON.stringify({ model_type: "bert" }));
    await expect(transformersVisualQuestionAnswering({ modelDir: dir.path }).load()).rejects.toThrow(/lacks tokenizer\.json, tokenizer_config\.json, preprocessor_config\.json/);
    for (const file of ["tokenizer.json", "tokenizer_config.json", "preprocessor_config.json"]) writeFileSync(join(dir.path, file), "{}");
    await expect(transformersVisualQuestionAnswering({ modelDir: dir.path }).load()).rejects.toThrow(/holds a "bert" model/);

    // The right files but no weights: the library's error, which names the file, as a ValidationError.
    const noWeights = join(dir.path, "no-weights");
    mkdirSync(noWeights);
    for (const file of ["config.json", "tokenizer.json", "tokenizer_config.json", "preprocessor_config.json"]) {
      writeFileSync(join(noWeights, file), readFixture(file));
    }
    const error = await rejectionOf<ValidationError>(transformersVisualQuestionAnswering({ modelDir: noWeights }).load());
    expect(ValidationError.isInstance(error)).toBe(true);
    expect(error.message).toMatch(/encoder_model\.onnx|decoder_model_merged\.onnx/);

    expect(() => transformersVisualQuestionAnswering({ modelDir: "" })).toThrow(ValidationError);
    expect(() => transformersVisualQuestionAnswering({ modelDir: MODEL_DIR, maxNewTokens: 0 })).toThrow(/maxNewTokens/);
  });

  it("bytes that are not an image: ValidationError", async () => {
    const model = transformersVisualQuestionAnswering({ modelDir: MODEL_DIR });
    await expect(model({ bytes: new Uint8Array([1, 2, 3]), digest: "", mimeType: "application/octet-stream" }, "what colour is it?", {}, {})).rejects.toThrow(ValidationError);
  });
});

function readFixture(file: string): Buffer {
  return readFileSync(join(MODEL_DIR, file));
}
