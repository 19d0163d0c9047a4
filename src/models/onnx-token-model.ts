import { EmbeddingError } from "../core/errors.js";
import { OnnxSession, requireModelFile, type OnnxOutput } from "./onnx-session.js";
import type { Encoding, TextTokenizer } from "./tokenizer.js";
import { loadTokenizer } from "./tokenizer-file.js";

/** Where a model and its tokenizer live on disk. */
export interface OnnxModelFiles {
  /**
   * An .onnx file taking input_ids, and attention_mask and token_type_ids when it declares them (the pair
   * evaluations need attention_mask; the embeddings run a model without one a text at a time).
   */
  modelPath: string;
  /**
   * The model's tokenizer.json: WordPiece (BERT-family models) is read here; BPE and Unigram ones (RWKV's,
   * XLM-R's) through the optional @huggingface/transformers.
   */
  tokenizerPath: string;
  /** Tokens per text (or pair), special tokens included. Default: the tokenizer's truncation, else 512. */
  maxLength?: number;
}

/**
 * An ONNX model with its tokenizer, run with onnxruntime-node. Shared by the ONNX embeddings and the
 * pair-scoring evaluations: encodings are padded into one batch and fed as the int64 inputs the model declares.
 */
export class OnnxTokenModel {
  private constructor(
    private readonly session: OnnxSession,
    readonly tokenizer: TextTokenizer,
  ) {}

  /** Loads the files; `required` names the inputs the model must declare (input_ids and attention_mask by default). */
  static async load(files: OnnxModelFiles, feature: string, required: readonly string[] = ["input_ids", "attention_mask"]): Promise<OnnxTokenModel> {
    const session = await OnnxSession.load(files.modelPath, feature);
    await requireModelFile(files.tokenizerPath, `${feature}: the tokenizer`);
    const tokenizer = await loadTokenizer(files.tokenizerPath, files.maxLength, feature);
    for (const name of required) {
      if (!session.inputNames.includes(name)) {
        throw new EmbeddingError(`${feature}: the model ${files.modelPath} has no "${name}" input (inputs: ${session.inputNames.join(", ")}).`);
      }
    }
    return new OnnxTokenModel(session, tokenizer);
  }

  /** Whether the model reads an attention mask (a model without one sees padding as text). */
  get takesAttentionMask(): boolean {
    return this.session.inputNames.includes("attention_mask");
  }

  /** The declared shape of the first output (numbers for fixed dims, strings for symbolic ones), if the model says. */
  outputShape(): ReadonlyArray<number | string> | undefined {
    return this.session.outputShape();
  }

  /** Runs one padded batch; returns the first output. */
  async run(encodings: readonly Encoding[]): Promise<OnnxOutput> {
    const padded = this.tokenizer.pad(encodings);
    const length = padded[0]?.inputIds.length ?? 0;
    const feed = (pick: (e: Encoding) => number[]) => ({
      type: "int64" as const,
      data: BigInt64Array.from(padded.flatMap(pick), BigInt),
      dims: [padded.length, length],
    });
    const names = this.session.inputNames;
    return this.session.run({
      input_ids: feed((e) => e.inputIds),
      ...(names.includes("attention_mask") && { attention_mask: feed((e) => e.attentionMask) }),
      ...(names.includes("token_type_ids") && { token_type_ids: feed((e) => e.tokenTypeIds) }),
    });
  }
}
