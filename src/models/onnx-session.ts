import { access } from "node:fs/promises";
import type * as OnnxRuntimeModule from "onnxruntime-node";
import type { InferenceSession, Tensor } from "onnxruntime-node";
import { EmbeddingError, ValidationError } from "../core/errors.js";
import { importOptional } from "../core/optional-import.js";

type OnnxRuntime = typeof OnnxRuntimeModule;

/** A model output: its values and shape. */
export interface OnnxOutput {
  data: Float32Array;
  dims: readonly number[];
}

/** An input to feed: int64 token ids and masks, or float32 pixels. */
export interface OnnxFeed {
  type: "int64" | "float32";
  data: BigInt64Array | Float32Array;
  dims: readonly number[];
}

/** Checks that a file given by path exists: a ValidationError without a path, an EmbeddingError naming a missing one. */
export async function requireModelFile(path: string, what: string): Promise<void> {
  if (typeof path !== "string" || path === "") throw new ValidationError(`${what}: a file path is required.`);
  try {
    await access(path);
  } catch (error) {
    throw new EmbeddingError(`${what} ${path} does not exist or cannot be read.`, { cause: error });
  }
}

/**
 * One .onnx file run by onnxruntime-node, loaded lazily (a MissingDependencyError when the package is not
 * installed). The token models (embeddings, pair scorers) and the image models share it: only what they feed
 * differs, and every failure becomes an EmbeddingError naming the feature.
 */
export class OnnxSession {
  private constructor(
    private readonly session: InferenceSession,
    private readonly ort: OnnxRuntime,
    private readonly feature: string,
  ) {}

  static async load(modelPath: string, feature: string): Promise<OnnxSession> {
    await requireModelFile(modelPath, `${feature}: the model`);
    const imported = await importOptional<OnnxRuntime & { default?: OnnxRuntime }>("onnxruntime-node", feature);
    const ort = imported.default ?? imported;
    try {
      return new OnnxSession(await ort.InferenceSession.create(modelPath), ort, feature);
    } catch (error) {
      throw new EmbeddingError(`${feature}: cannot load the ONNX model ${modelPath}: ${(error as Error).message}`, { cause: error });
    }
  }

  get inputNames(): readonly string[] {
    return this.session.inputNames;
  }

  /** The declared shape of the first output (numbers for fixed dims, strings for symbolic ones), if the model says. */
  outputShape(): ReadonlyArray<number | string> | undefined {
    const meta = this.session.outputMetadata?.[0] as { shape?: ReadonlyArray<number | string> } | undefined;
    return meta?.shape;
  }

  /** The declared shape of an input, if the model says. */
  inputShape(name: string): ReadonlyArray<number | string> | undefined {
    const index = this.session.inputNames.indexOf(name);
    const meta = this.session.inputMetadata?.[index] as { shape?: ReadonlyArray<number | string> } | undefined;
    return meta?.shape;
  }

  /** Runs the model; returns its first output, which must be float32. */
  async run(feeds: Readonly<Record<string, OnnxFeed>>): Promise<OnnxOutput> {
    const tensors: Record<string, Tensor> = {};
    for (const [name, feed] of Object.entries(feeds)) tensors[name] = new this.ort.Tensor(feed.type, feed.data, [...feed.dims]);
    let output: Tensor;
    try {
      output = (await this.session.run(tensors))[this.session.outputNames[0]];
    } catch (error) {
      throw new EmbeddingError(`${this.feature}: the ONNX model failed: ${(error as Error).message}`, { cause: error });
    }
    if (output.type !== "float32") throw new EmbeddingError(`${this.feature}: the ONNX model's output is ${output.type}, not float32.`);
    return { data: output.data as Float32Array, dims: output.dims };
  }
}
