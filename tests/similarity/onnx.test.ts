/**
 * @jest-environment ./tests/embeddings/onnx-environment.mjs
 */
import { cpSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { EmbeddingError, EvaluationError, ValidationError } from "../../src/core/errors.js";
import { CrossEncoderEvaluation } from "../../src/similarity/cross-encoder.js";
import { OnnxModelEvaluation, pairProbabilities } from "../../src/similarity/onnx.js";
import { testSimilarityEvaluation } from "../../src/testing/evaluation-contract.js";
import { tempDir } from "../helpers/fixtures.js";

const MODELS = fileURLToPath(new URL("../fixtures/tiny-models/", import.meta.url));
const tokenizerPath = join(MODELS, "tokenizer.json");
const crossEncoder = { modelPath: join(MODELS, "cross-encoder.onnx"), tokenizerPath };
const classifier = { modelPath: join(MODELS, "pair-classifier.onnx"), tokenizerPath };
const pair = (a: string, b: string) => ({ src: { question: a }, cached: { question: b, answer: "x" } });

testSimilarityEvaluation({
  name: "CrossEncoderEvaluation (tiny ONNX cross-encoder, one logit)",
  create: () => new CrossEncoderEvaluation(crossEncoder),
  identical: () => pair("what is the capital of france", "what is the capital of france"),
  different: () => pair("what is the capital of france", "how do i bake bread"),
  pair,
});

testSimilarityEvaluation({
  name: "OnnxModelEvaluation (tiny ONNX pair classifier, two logits)",
  create: () => new OnnxModelEvaluation(classifier),
  identical: () => pair("capital of france", "capital of france"),
  different: () => pair("capital of france", "capital of spain"),
  pair,
});

describe("ONNX pair evaluations", () => {
  it("scores pairs strictly inside (0, 1), one pair as in a batch, in order", async () => {
    const evaluation = new CrossEncoderEvaluation(crossEncoder);
    const pairs = [["capital of france", "capital of spain"], ["how do i bake bread", "sort a python list please"]] as const;
    const batch = await evaluation.score(pairs);
    for (const [i, [a, b]] of pairs.entries()) {
      const single = await evaluation.evaluation({ question: a }, { question: b, answer: "" });
      expect(single).toBeCloseTo(batch[i], 6);
      expect(single).toBeGreaterThan(0);
      expect(single).toBeLessThan(1);
    }
    expect(batch[0]).not.toBeCloseTo(batch[1], 3);
    expect(await evaluation.score([])).toEqual([]);
  });

  it("turns one logit into its sigmoid and two into the second class's softmax", () => {
    expect(pairProbabilities({ data: Float32Array.from([0, 2]), dims: [2, 1] })).toEqual([0.5, 1 / (1 + Math.exp(-2))]);
    const [p] = pairProbabilities({ data: Float32Array.from([1, 3]), dims: [1, 2] });
    expect(p).toBeCloseTo(Math.exp(3) / (Math.exp(1) + Math.exp(3)), 10);
    expect(() => pairProbabilities({ data: new Float32Array(3), dims: [1, 3] })).toThrow(EvaluationError);
  });

  describe("model folders and typed errors", () => {
    let dir: ReturnType<typeof tempDir>;
    beforeEach(() => (dir = tempDir()));
    afterEach(() => dir.cleanup());

    it("loads a transformers.js-style folder (tokenizer.json, onnx/model.onnx)", async () => {
      cpSync(tokenizerPath, join(dir.path, "tokenizer.json"));
      cpSync(crossEncoder.modelPath, join(dir.path, "onnx", "model.onnx"));
      const fromFolder = new CrossEncoderEvaluation({ model: dir.path });
      const fromFiles = new CrossEncoderEvaluation(crossEncoder);
      const question = pair("capital of france", "capital of spain");
      expect(await fromFolder.evaluation(question.src, question.cached)).toBe(await fromFiles.evaluation(question.src, question.cached));
    });

    it("a token-vector model is an EvaluationError; a missing folder or junk an EmbeddingError (the shared loader); bad options a ValidationError", async () => {
      const ask = (evaluation: OnnxModelEvaluation) => evaluation.evaluation({ question: "capital" }, { question: "bread", answer: "" });
      await expect(ask(new CrossEncoderEvaluation({ model: join(dir.path, "nowhere") }))).rejects.toThrow(/does not exist/);
      await expect(ask(new CrossEncoderEvaluation({ modelPath: join(MODELS, "embedder.onnx"), tokenizerPath }))).rejects.toThrow(EvaluationError);
      writeFileSync(join(dir.path, "junk.onnx"), "junk");
      await expect(ask(new OnnxModelEvaluation({ modelPath: join(dir.path, "junk.onnx"), tokenizerPath }))).rejects.toThrow(EmbeddingError);
      expect(() => new OnnxModelEvaluation({} as never)).toThrow(ValidationError);
      expect(() => new CrossEncoderEvaluation({ model: "" })).toThrow(ValidationError);
    });
  });
});
