/**
 * The question length rule, checked before a question is embedded: the embedding is the slowest step, and a
 * text longer than the encoder takes whole would be truncated into matching another question. A request over
 * the limit fails the same way any cache fault does: a lookup skips the cache (the model answers, nothing is
 * stored), while put, get and the server's /put and /get refuse it with ValueTooLongError (413).
 */
import { ValueTooLongError } from "./errors.js";

/** The limits a question must fit, each optional. */
export interface QuestionLimits {
  /** `config.maxQuestionLength`, in characters (code points). */
  configured?: number;
  /** The scalar store's question column (`scalarParams.tableLenConfig.question`), in characters. */
  column?: number;
  /** The embedding's `maxInputLength` (UTF-16 units, JavaScript's string length): longer texts it would truncate. */
  embedding?: number;
}

/** Unicode code points, as SQL VARCHAR(n) counts characters (an emoji is one, not two UTF-16 units). */
export function codePointLength(text: string): number {
  let length = 0;
  for (let i = 0; i < text.length; i++) {
    const unit = text.charCodeAt(i);
    if (unit >= 0xd800 && unit <= 0xdbff && i + 1 < text.length) {
      const next = text.charCodeAt(i + 1);
      if (next >= 0xdc00 && next <= 0xdfff) i++;
    }
    length++;
  }
  return length;
}

/** Throws ValueTooLongError naming the setting that refuses `text`; returns when it fits every limit. */
export function checkQuestionLength(text: string, limits: QuestionLimits): void {
  const { configured = Infinity, column = Infinity, embedding = Infinity } = limits;
  // UTF-16 length bounds the code points from above: the exact count is needed only past the smallest limit.
  if (text.length <= Math.min(configured, column, embedding)) return;
  if (text.length > embedding) throw new ValueTooLongError("question", text.length, embedding, "the embedding's maxInputLength");
  const length = codePointLength(text);
  if (length > configured) throw new ValueTooLongError("question", length, configured, "config.maxQuestionLength");
  if (length > column) throw new ValueTooLongError("question", length, column);
}
