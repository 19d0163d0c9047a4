import { readFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import type { PreTrainedTokenizer } from "@huggingface/transformers";
import { EmbeddingError, ValidationError } from "../core/errors.js";
import { padEncodings, WordPieceTokenizer, type Encoding, type TextTokenizer, type TokenizerJson } from "./tokenizer.js";
import { importTransformers } from "./transformers-library.js";

/** What transformers.js's tokenizer returns for one text with `return_tensor: false`. */
interface EncodedText {
  input_ids: number[];
  attention_mask: number[];
  token_type_ids?: number[];
}

/**
 * A BPE or Unigram tokenizer.json (GPT-NeoX's for RWKV, XLM-R's for multilingual MiniLM) run by transformers.js,
 * special tokens as its post-processor adds them. Texts over `maxLength` tokens are cut at the end, as
 * transformers.js truncates.
 */
class TransformersTokenizer implements TextTokenizer {
  constructor(
    private readonly tokenizer: PreTrainedTokenizer,
    readonly maxLength: number,
  ) {}

  encode(text: string, pair?: string): Encoding {
    const call = this.tokenizer as unknown as (text: string, options: object) => EncodedText;
    const { input_ids, attention_mask, token_type_ids } = call(text, {
      text_pair: pair ?? null,
      padding: false,
      truncation: true,
      max_length: this.maxLength,
      return_tensor: false,
      return_token_type_ids: true,
    });
    return { inputIds: input_ids, attentionMask: attention_mask, tokenTypeIds: token_type_ids ?? input_ids.map(() => 0) };
  }

  pad(encodings: readonly Encoding[]): Encoding[] {
    return padEncodings(encodings, this.tokenizer.pad_token_id ?? 0);
  }
}

async function readJson<T>(path: string): Promise<T> {
  return JSON.parse(await readFile(path, "utf8")) as T;
}

/**
 * A model's tokenizer.json: WordPiece (BERT, ERNIE, MiniLM) read here with no dependency; any other model type
 * (BPE, Unigram) through @huggingface/transformers, with the tokenizer_config.json beside it when there is one
 * (a MissingDependencyError naming the package when it is not installed).
 */
export async function loadTokenizer(path: string, maxLength: number | undefined, feature: string): Promise<TextTokenizer> {
  let json: TokenizerJson;
  try {
    json = await readJson<TokenizerJson>(path);
  } catch (error) {
    throw new EmbeddingError(`Cannot read the tokenizer ${path}: ${(error as Error).message}`, { cause: error });
  }
  if (json?.model?.type === "WordPiece") return new WordPieceTokenizer(json, maxLength);
  const vocab = (json?.model as { vocab?: object } | undefined)?.vocab;
  if (typeof json?.model?.type !== "string" || typeof vocab !== "object" || vocab === null || Object.keys(vocab).length === 0) {
    throw new ValidationError(`${path}: no tokenizer model with a vocabulary (model.type, model.vocab) in this tokenizer.json.`);
  }
  const lib = await importTransformers(`${feature} (a ${json.model.type} tokenizer)`);
  const config = await readJson<{ model_max_length?: number }>(join(dirname(path), "tokenizer_config.json")).catch(() => ({}) as { model_max_length?: number });
  let tokenizer: PreTrainedTokenizer;
  try {
    tokenizer = new lib.PreTrainedTokenizer(json, config);
  } catch (error) {
    throw new ValidationError(`${path}: transformers.js cannot read this ${json.model.type} tokenizer: ${(error as Error).message}`, { cause: error });
  }
  // model_max_length is a huge sentinel when a model sets none.
  const configured = config.model_max_length !== undefined && config.model_max_length < 1e6 ? config.model_max_length : undefined;
  const length = maxLength ?? json.truncation?.max_length ?? configured ?? 512;
  if (!Number.isInteger(length) || length < 1) throw new ValidationError(`${feature}: \`maxLength\` must be a positive integer.`);
  return new TransformersTokenizer(tokenizer, length);
}
