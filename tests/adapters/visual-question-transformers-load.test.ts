/**
 * transformersVisualQuestionAnswering against a stand-in for @huggingface/transformers (the real pipeline runs in
 * visual-question-transformers.test.ts): how often the model loads, what an abort does mid-generation, and the
 * MissingDependencyError of an app without the package.
 */
import { fileURLToPath } from "node:url";
import { jest } from "@jest/globals";
import type { ResolvedImage } from "../../src/adapters/images/image-input.js";
import { MissingDependencyError } from "../../src/core/errors.js";

const MODEL_DIR = fileURLToPath(new URL("../fixtures/tiny-models/tiny-donut", import.meta.url));
const image: ResolvedImage = { bytes: new Uint8Array([1, 2, 3]), digest: "d", mimeType: "image/png" };

/** What the stand-in saw: pipeline loads, and the generation options of each question. */
const seen = { loads: 0, calls: [] as Array<Record<string, unknown>> };
/** Set by a test: runs inside the stand-in's generation, between two "tokens". */
let duringGeneration: () => void = () => {};

class InterruptableStoppingCriteria {
  interrupted = false;
  interrupt() {
    this.interrupted = true;
  }
}

jest.unstable_mockModule("@huggingface/transformers", () => ({
  RawImage: { read: async (blob: Blob) => ({ size: blob.size }) },
  InterruptableStoppingCriteria,
  pipeline: async (task: string, folder: string) => {
    seen.loads += 1;
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect([task, folder]).toEqual(["document-question-answering", MODEL_DIR]);
    return async (_image: unknown, question: string, options: { stopping_criteria: InterruptableStoppingCriteria[] }) => {
      seen.calls.push(options);
      const words: string[] = [];
      for (const word of ["a", "long", "answer"]) {
        if (options.stopping_criteria.some((criterion) => criterion.interrupted)) break;
        words.push(word);
        duringGeneration();
        await new Promise((resolve) => setImmediate(resolve));
      }
      return [{ answer: `${words.join(" ")} to ${question}` }];
    };
  },
}));

const { transformersVisualQuestionAnswering } = await import("../../src/adapters/images/transformers-visual-question.js");

beforeEach(() => {
  seen.loads = 0;
  seen.calls = [];
  duringGeneration = () => {};
});

describe("transformersVisualQuestionAnswering, loading and aborting", () => {
  it("loads the pipeline once for concurrent first questions and load(), then reuses it", async () => {
    const model = transformersVisualQuestionAnswering({ modelDir: MODEL_DIR, maxNewTokens: 16 });
    const answers = await Promise.all([model(image, "one?", {}, {}), model(image, "two?", {}, {}), model.load()]);
    expect(answers.slice(0, 2)).toEqual(["a long answer to one?", "a long answer to two?"]);
    await model(image, "three?", { maxNewTokens: 4 }, {});
    expect(seen.loads).toBe(1);
    expect(seen.calls.map(({ max_new_tokens }) => max_new_tokens)).toEqual([16, 16, 4]);
  });

  it("an abort during generation interrupts it between tokens and rejects with the signal's reason", async () => {
    const model = transformersVisualQuestionAnswering({ modelDir: MODEL_DIR });
    const controller = new AbortController();
    duringGeneration = () => controller.abort(new Error("stop"));
    await expect(model(image, "one?", {}, { signal: controller.signal })).rejects.toThrow("stop");
    expect(seen.calls).toHaveLength(1);
    expect(seen.calls[0]).not.toHaveProperty("max_new_tokens");
  });

  it("an abort while the model loads rejects that call; the load goes on for the next one", async () => {
    const model = transformersVisualQuestionAnswering({ modelDir: MODEL_DIR });
    const controller = new AbortController();
    const waiting = model(image, "one?", {}, { signal: controller.signal });
    controller.abort(new Error("gave up"));
    await expect(waiting).rejects.toThrow("gave up");
    expect(await model(image, "two?", {}, {})).toBe("a long answer to two?");
    expect(seen.loads).toBe(1);
    expect(seen.calls).toHaveLength(1);
  });
});

describe("without @huggingface/transformers", () => {
  it("the first question is a MissingDependencyError naming the package and its range", async () => {
    jest.resetModules();
    jest.unstable_mockModule("@huggingface/transformers", () => {
      throw Object.assign(new Error("Cannot find package '@huggingface/transformers' imported from /app/index.js"), { code: "ERR_MODULE_NOT_FOUND" });
    });
    const fresh = await import("../../src/adapters/images/transformers-visual-question.js");
    const error = await fresh.transformersVisualQuestionAnswering({ modelDir: MODEL_DIR })(image, "one?", {}, {}).catch((caught: unknown) => caught);
    expect(MissingDependencyError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ packageName: "@huggingface/transformers", feature: "transformersVisualQuestionAnswering", reason: "missing" });
    expect((error as Error).message).toMatch(/npm install "@huggingface\/transformers@>=3\.0\.0 <5\.0\.0"/);
  });
});
