import { join } from "node:path";
import { ValidationError } from "../core/errors.js";
import type { OnnxModelFiles } from "../models/onnx-token-model.js";
import { OnnxModelEvaluation } from "./onnx.js";

/** A cross-encoder as ONNX files, or as a transformers.js model folder (tokenizer.json, onnx/model.onnx). */
export type CrossEncoderOptions = OnnxModelFiles | { model: string; maxLength?: number };

function toFiles(options: CrossEncoderOptions): OnnxModelFiles {
  if (typeof options === "object" && options !== null && "model" in options) {
    if (typeof options.model !== "string" || options.model === "") {
      throw new ValidationError("CrossEncoderEvaluation: `model` must be a local model folder.");
    }
    return { modelPath: join(options.model, "onnx", "model.onnx"), tokenizerPath: join(options.model, "tokenizer.json"), maxLength: options.maxLength };
  }
  return options;
}

/**
 * A sentence-pair cross-encoder (ms-marco / quora-duplicate style, exported to ONNX) as the similarity
 * evaluation: the sigmoid of its logit for (request question, cached question), on [0, 1]. Takes the files,
 * or a model folder laid out as transformers.js and Optimum export it; no model hub is contacted.
 */
export class CrossEncoderEvaluation extends OnnxModelEvaluation {
  constructor(options: CrossEncoderOptions) {
    super(toFiles(options));
  }
}
