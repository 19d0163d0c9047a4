import { SemcacheError } from "../core/errors.js";
import type { EmbeddingFunction, EmbeddingInput, EmbeddingOutput } from "../core/contracts/embedding.js";
import { resolveRunner, type ContractExpect, type TestRunner } from "./runner.js";

export interface EmbeddingFunctionContractOptions {
  name: string;
  /** A fresh embedding function per test. */
  create: () => EmbeddingFunction | Promise<EmbeddingFunction>;
  /** Whether it implements embedBatch (checked against embed). Default true. */
  batch?: boolean;
  /** The test runner's functions; default its globals (see TestRunner). */
  runner?: TestRunner;
}

const TEXTS = ["What is the capital of France?", "How do I bake sourdough bread at home?", "Sort a list in Python"];

/** A valid output: a string key for dimension 0, else a finite vector of exactly `dimension` numbers. */
function expectValidOutput(expect: ContractExpect, fn: EmbeddingFunction, output: EmbeddingOutput): void {
  if (typeof output === "string") {
    expect(fn.dimension).toBe(0);
    return;
  }
  expect(output).toBeInstanceOf(Float32Array);
  expect(output.length).toBeGreaterThan(0);
  expect(output.length).toBe(fn.dimension);
  expect(output.every((value) => Number.isFinite(value))).toBe(true);
}

/** Registers the behaviours every embedding function must have. */
export function testEmbeddingFunction(options: EmbeddingFunctionContractOptions): void {
  const { name, create, batch = true } = options;
  const { describe, it, expect, beforeEach } = resolveRunner(options.runner);

  describe(`${name} (embedding function contract)`, () => {
    let fn: EmbeddingFunction;

    beforeEach(async () => {
      fn = await create();
    });

    /** An output, or a typed error: edge inputs may be refused, but never with a crash. */
    const expectOutputOrTypedError = async (input: EmbeddingInput) => {
      let output: EmbeddingOutput | undefined;
      try {
        output = await fn.embed(input);
      } catch (error) {
        expect(SemcacheError.isInstance(error)).toBe(true);
        return;
      }
      expectValidOutput(expect, fn, output);
    };

    it("returns finite vectors of its dimension (or string keys at dimension 0)", async () => {
      for (const text of TEXTS) expectValidOutput(expect, fn, await fn.embed(text));
    });

    it("is deterministic", async () => {
      expect(await fn.embed(TEXTS[0])).toEqual(await fn.embed(TEXTS[0]));
    });

    it("embeds different texts differently", async () => {
      const outputs = await Promise.all(TEXTS.map((text) => fn.embed(text)));
      for (let i = 0; i < outputs.length; i++) {
        for (let j = i + 1; j < outputs.length; j++) expect(outputs[i]).not.toEqual(outputs[j]);
      }
    });

    const batchTitle = "embedBatch matches embed one by one";
    (batch ? it : it.skip)(batch ? batchTitle : `${batchTitle} (skipped: batch: false)`, async () => {
      expect(typeof fn.embedBatch).toBe("function");
      const batched = await fn.embedBatch!(TEXTS);
      expect(batched).toEqual(await Promise.all(TEXTS.map((text) => fn.embed(text))));
      expect(await fn.embedBatch!([])).toEqual([]);
    });

    it("embeds the empty string or refuses it with a typed error", async () => {
      await expectOutputOrTypedError("");
    });

    it("embeds bytes or refuses them with a typed error", async () => {
      await expectOutputOrTypedError(new TextEncoder().encode(TEXTS[0]));
    });
  });
}
