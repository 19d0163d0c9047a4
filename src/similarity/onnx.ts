import { EvaluationError, ValidationError } from "../core/errors.js";
import type { OnnxOutput } from "../models/onnx-session.js";
import { OnnxTokenModel, type OnnxModelFiles } from "../models/onnx-token-model.js";
import { BaseSimilarityEvaluation } from "./base.js";
import type { EvaluationCandidate, EvaluationSource } from "../core/contracts/evaluation.js";

export type OnnxModelEvaluationOptions = OnnxModelFiles;

const sigmoid = (x: number) => 1 / (1 + Math.exp(-x));

/**
 * A pair classifier's output as the probability that the pair matches: one logit per pair -> its sigmoid
 * (sentence-transformers cross-encoders); two -> the softmax of the second ("duplicate") class, as GPTCache's
 * albert-duplicate model gives them.
 */
export function pairProbabilities(output: OnnxOutput): number[] {
  const [batch, labels] = output.dims;
  if (output.dims.length !== 2 || (labels !== 1 && labels !== 2)) {
    throw new EvaluationError(`The pair model's output has shape [${output.dims.join(", ")}]; logits [batch, 1] or [batch, 2] are needed.`);
  }
  return Array.from({ length: batch }, (_, b) => {
    if (labels === 1) return sigmoid(output.data[b]);
    return sigmoid(output.data[b * 2 + 1] - output.data[b * 2]);
  });
}

/**
 * GPTCache's OnnxModelEvaluation: a sentence-pair classification model (ONNX, run with onnxruntime-node)
 * reads the request's question and the candidate's together and gives the probability that they ask the
 * same thing, on [0, 1]. Identical questions score 1 and an empty one 0 without running the model. Slower
 * than a vector distance and more discerning; use it behind the search with a small topK. The model loads on
 * first use; model failures surface as EvaluationError (the cache counts them and fails open).
 */
export class OnnxModelEvaluation extends BaseSimilarityEvaluation {
  readonly files: OnnxModelFiles;
  #model?: Promise<OnnxTokenModel>;

  constructor(options: OnnxModelEvaluationOptions) {
    super(options ?? {});
    if (typeof options?.modelPath !== "string" || typeof options.tokenizerPath !== "string") {
      throw new ValidationError(`${new.target.name}: \`modelPath\` and \`tokenizerPath\` are required.`);
    }
    this.files = { modelPath: options.modelPath, tokenizerPath: options.tokenizerPath, maxLength: options.maxLength };
  }

  range(): readonly [number, number] {
    return [0, 1];
  }

  evaluation(src: EvaluationSource, cached: EvaluationCandidate): number | Promise<number> {
    if (src.question === cached.question) return 1;
    if (src.question === "" || cached.question === "") return 0;
    return this.score([[src.question, cached.question]]).then(([score]) => score);
  }

  /** Match probabilities of many question pairs, in one model run. */
  async score(pairs: ReadonlyArray<readonly [string, string]>): Promise<number[]> {
    if (pairs.length === 0) return [];
    const model = await this.#load();
    return pairProbabilities(await model.run(pairs.map(([a, b]) => model.tokenizer.encode(a, b))));
  }

  #load(): Promise<OnnxTokenModel> {
    this.#model ??= OnnxTokenModel.load(this.files, this.constructor.name);
    this.#model.catch(() => (this.#model = undefined));
    return this.#model;
  }
}
