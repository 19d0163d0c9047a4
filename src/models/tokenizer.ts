import { ValidationError } from "../core/errors.js";

/** One text (or text pair) as model inputs: token ids, the attention mask and segment ids, all the same length. */
export interface Encoding {
  inputIds: number[];
  attentionMask: number[];
  tokenTypeIds: number[];
}

/** What the ONNX models need of a tokenizer: encodings of a text (or pair), and padding into one batch. */
export interface TextTokenizer {
  /** Longest encoding, special tokens included. */
  readonly maxLength: number;
  encode(text: string, pair?: string): Encoding;
  pad(encodings: readonly Encoding[]): Encoding[];
}

/** Encodings right-padded to the longest one (ids with `padId`, masks and segments with 0), so they run as one batch. */
export function padEncodings(encodings: readonly Encoding[], padId: number): Encoding[] {
  const length = Math.max(0, ...encodings.map((e) => e.inputIds.length));
  const fill = (values: number[], value: number) => [...values, ...Array<number>(length - values.length).fill(value)];
  return encodings.map((e) => ({
    inputIds: fill(e.inputIds, padId),
    attentionMask: fill(e.attentionMask, 0),
    tokenTypeIds: fill(e.tokenTypeIds, 0),
  }));
}

interface WordPieceJson {
  type: "WordPiece";
  vocab: Record<string, number>;
  unk_token?: string;
  continuing_subword_prefix?: string;
  max_input_chars_per_word?: number;
}

interface NormalizerJson {
  type?: string;
  lowercase?: boolean;
  strip_accents?: boolean | null;
  handle_chinese_chars?: boolean;
}

export interface TokenizerJson {
  model?: { type?: string } & Partial<WordPieceJson>;
  normalizer?: NormalizerJson | null;
  truncation?: { max_length?: number } | null;
}

const PUNCTUATION = /[\p{P}\p{S}]/u;
const CONTROL = /[\p{Cc}\p{Cf}]/gu;

/** The CJK ideograph blocks BERT's basic tokenizer splits into one token per character (Chinese has no spaces). */
function isCjk(char: string): boolean {
  const code = char.codePointAt(0) ?? 0;
  return (
    (code >= 0x4e00 && code <= 0x9fff) ||
    (code >= 0x3400 && code <= 0x4dbf) ||
    (code >= 0x20000 && code <= 0x2a6df) ||
    (code >= 0x2a700 && code <= 0x2ceaf) ||
    (code >= 0xf900 && code <= 0xfaff) ||
    (code >= 0x2f800 && code <= 0x2fa1f)
  );
}

/**
 * The tokenizer of BERT-family sentence models (sentence-transformers, cross-encoders) read from their
 * `tokenizer.json`: BERT normalisation (lower case, accents stripped), whitespace and punctuation split, each
 * CJK character a word of its own (unless the normalizer's handle_chinese_chars is false), WordPiece, then
 * `[CLS] a [SEP]` or `[CLS] a [SEP] b [SEP]` with segment ids. Only the WordPiece model is implemented here: a
 * BPE or Unigram tokenizer.json is refused with a ValidationError (loadTokenizer hands those to transformers.js).
 */
export class WordPieceTokenizer implements TextTokenizer {
  readonly #vocab: Map<string, number>;
  readonly #unkId: number;
  readonly #clsId: number;
  readonly #sepId: number;
  readonly #padId: number;
  readonly #prefix: string;
  readonly #maxWordChars: number;
  readonly #lowercase: boolean;
  readonly #stripAccents: boolean;
  readonly #splitCjk: boolean;
  /** Longest encoding, special tokens included. */
  readonly maxLength: number;

  constructor(json: TokenizerJson, maxLength?: number) {
    const model = json?.model;
    if (model?.type !== "WordPiece" || typeof model.vocab !== "object" || model.vocab === null) {
      throw new ValidationError(`tokenizer.json: only WordPiece tokenizers are supported, got ${JSON.stringify(model?.type ?? "none")}.`);
    }
    this.#vocab = new Map(Object.entries(model.vocab));
    const id = (token: string) => {
      const value = this.#vocab.get(token);
      if (value === undefined) throw new ValidationError(`tokenizer.json: the vocabulary has no ${token} token.`);
      return value;
    };
    this.#unkId = id(model.unk_token ?? "[UNK]");
    this.#clsId = id("[CLS]");
    this.#sepId = id("[SEP]");
    this.#padId = this.#vocab.get("[PAD]") ?? 0;
    this.#prefix = model.continuing_subword_prefix ?? "##";
    this.#maxWordChars = model.max_input_chars_per_word ?? 100;
    const normalizer = json.normalizer ?? {};
    this.#lowercase = normalizer.lowercase ?? true;
    this.#stripAccents = normalizer.strip_accents ?? this.#lowercase;
    this.#splitCjk = normalizer.handle_chinese_chars ?? true;
    this.maxLength = maxLength ?? json.truncation?.max_length ?? 512;
    if (!Number.isInteger(this.maxLength) || this.maxLength < 3) {
      throw new ValidationError("WordPieceTokenizer: `maxLength` must be an integer of at least 3.");
    }
  }

  /** The word-piece ids of a text, without special tokens. */
  tokenize(text: string): number[] {
    const ids: number[] = [];
    for (const word of this.#words(text)) ids.push(...this.#wordPieces(word));
    return ids;
  }

  /** One text, or a pair (the second gets segment id 1), truncated longest-first to `maxLength`. */
  encode(text: string, pair?: string): Encoding {
    const first = this.tokenize(text);
    const second = pair === undefined ? undefined : this.tokenize(pair);
    const budget = this.maxLength - (second === undefined ? 2 : 3);
    if (second === undefined) first.length = Math.min(first.length, budget);
    else {
      while (first.length + second.length > budget) (first.length >= second.length ? first : second).pop();
    }
    const inputIds = [this.#clsId, ...first, this.#sepId, ...(second ? [...second, this.#sepId] : [])];
    const tokenTypeIds = inputIds.map((_, i) => (i < first.length + 2 ? 0 : 1));
    return { inputIds, attentionMask: inputIds.map(() => 1), tokenTypeIds };
  }

  /** Encodings padded to the longest one, so they run as one batch. */
  pad(encodings: readonly Encoding[]): Encoding[] {
    return padEncodings(encodings, this.#padId);
  }

  #words(text: string): string[] {
    let normal = text.replace(CONTROL, "").replace(/\s/g, " ");
    if (this.#lowercase) normal = normal.toLowerCase();
    if (this.#stripAccents) normal = normal.normalize("NFD").replace(/\p{Mn}/gu, "");
    const words: string[] = [];
    for (const chunk of normal.split(" ")) {
      let current = "";
      for (const char of chunk) {
        if (PUNCTUATION.test(char) || (this.#splitCjk && isCjk(char))) {
          if (current) words.push(current);
          words.push(char);
          current = "";
        } else current += char;
      }
      if (current) words.push(current);
    }
    return words;
  }

  /** Greedy longest-match-first WordPiece; a word that cannot be split is one unknown token. */
  #wordPieces(word: string): number[] {
    const chars = [...word];
    if (chars.length > this.#maxWordChars) return [this.#unkId];
    const ids: number[] = [];
    for (let start = 0; start < chars.length; ) {
      let end = chars.length;
      let found: number | undefined;
      for (; end > start; end--) {
        const piece = (start > 0 ? this.#prefix : "") + chars.slice(start, end).join("");
        found = this.#vocab.get(piece);
        if (found !== undefined) break;
      }
      if (found === undefined) return [this.#unkId];
      ids.push(found);
      start = end;
    }
    return ids;
  }
}
