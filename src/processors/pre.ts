import { ValidationError } from "../core/errors.js";
import { messageRole, messageText, requestMessages } from "../core/messages.js";
import type { CacheRequest } from "../core/types.js";
import type { PreEmbeddingContext } from "../core/contracts/processors.js";
import { escapeRegExp } from "../core/regexp.js";

/** A string, or the last of a non-empty list of strings (completion prompts may be lists). */
function stringOrLast(value: unknown): string | undefined {
  if (typeof value === "string") return value;
  if (Array.isArray(value) && value.length > 0 && value.every((item) => typeof item === "string")) {
    return value[value.length - 1] as string;
  }
  return undefined;
}

/**
 * The default key: the last message's text for chat requests, else `prompt`, else `input` (so the plain
 * put/get API with `{ prompt }` works on any cache).
 */
export function lastContent(request: CacheRequest): string {
  if (request.messages !== undefined && request.messages !== null) {
    const messages = requestMessages(request, "lastContent");
    return messageText(messages[messages.length - 1]);
  }
  const text = stringOrLast(request.prompt) ?? stringOrLast(request.input);
  if (text === undefined) {
    throw new ValidationError("lastContent: the request has no `messages`, `prompt` or `input` text.");
  }
  return text;
}

/** lastContent without the fixed instructions listed in config.prompts (removed verbatim, every occurrence). */
export function lastContentWithoutPrompt(request: CacheRequest, context: PreEmbeddingContext): string {
  let text = lastContent(request);
  for (const prompt of context.config.prompts) {
    if (prompt.length > 0) text = text.split(prompt).join("");
  }
  return text;
}

const compiledTemplates = new Map<string, RegExp>();

/** "Translate {text} into {lang}" -> an anchored pattern with one group per field ("{{" and "}}" are braces). */
function compileTemplate(template: string): RegExp {
  let pattern = compiledTemplates.get(template);
  if (pattern) return pattern;
  let source = "^";
  let last = 0;
  for (const token of template.matchAll(/\{\{|\}\}|\{[^{}]*\}/g)) {
    source += escapeRegExp(template.slice(last, token.index));
    source += token[0] === "{{" ? "\\{" : token[0] === "}}" ? "\\}" : "([\\s\\S]*?)";
    last = token.index + token[0].length;
  }
  pattern = new RegExp(`${source}${escapeRegExp(template.slice(last))}$`);
  compiledTemplates.set(template, pattern);
  return pattern;
}

/**
 * Keys a templated prompt on the values filled into config.template: "Translate hello into French" with
 * "Translate {text} into {lang}" keys as '["hello","French"]'. With several templates the matching one's
 * index leads the list ('[1,"hello","French"]'), so two templates filled with the same values never share
 * an answer. Content that matches no template is its own key.
 */
export function lastContentWithoutTemplate(request: CacheRequest, context: PreEmbeddingContext): string {
  const text = lastContent(request);
  const templates = context.config.template ?? [];
  for (const [index, template] of templates.entries()) {
    const match = compileTemplate(template).exec(text);
    if (match) {
      const values = match.slice(1);
      return JSON.stringify(templates.length > 1 ? [index, ...values] : values);
    }
  }
  return text;
}

/** The completion prompt (a string, or the last of a list of strings). */
export function getPrompt(request: CacheRequest): string {
  const prompt = stringOrLast(request.prompt);
  if (prompt === undefined) throw new ValidationError("getPrompt: the request needs `prompt`, a string or a list of strings.");
  return prompt;
}

/** The whole conversation as "role: text" lines: a key for callers whose answers depend on all of it. */
export function getMessages(request: CacheRequest): string {
  return requestMessages(request, "getMessages")
    .map((message) => `${messageRole(message)}: ${messageText(message)}`)
    .join("\n");
}

async function toBytes(file: unknown, nested = false): Promise<Uint8Array> {
  if (file instanceof Uint8Array) return file;
  if (file instanceof ArrayBuffer) return new Uint8Array(file);
  if (ArrayBuffer.isView(file)) return new Uint8Array(file.buffer, file.byteOffset, file.byteLength);
  if (typeof file === "object" && file !== null) {
    const f = file as { arrayBuffer?: () => Promise<ArrayBuffer>; data?: unknown; [Symbol.asyncIterator]?: unknown };
    if (typeof f.arrayBuffer === "function") return new Uint8Array(await f.arrayBuffer());
    if (typeof f[Symbol.asyncIterator] === "function") {
      const chunks: Buffer[] = [];
      for await (const chunk of file as AsyncIterable<string | Uint8Array>) chunks.push(Buffer.from(chunk));
      return Buffer.concat(chunks);
    }
    if (!nested && "data" in f) return toBytes(f.data, true);
  }
  throw new ValidationError(
    "getFileBytes: `file` must be bytes (Uint8Array, Buffer, ArrayBuffer), a Blob/File, a readable stream or { data }.",
  );
}

/**
 * The uploaded file's bytes (audio transcription keys), from any of the OpenAI SDK's uploadables. A stream
 * is read to its end: a caller that still needs the file must pass bytes or a Blob, which can be re-read.
 */
export async function getFileBytes(request: CacheRequest): Promise<Uint8Array> {
  if (request.file === undefined || request.file === null) throw new ValidationError("getFileBytes: the request has no `file`.");
  return toBytes(request.file);
}

/** The moderation input as one string: the text itself, or a list as JSON. */
export function getModerationInput(request: CacheRequest): string {
  const input = request.input;
  if (typeof input === "string") return input;
  if (Array.isArray(input)) return JSON.stringify(input);
  throw new ValidationError("getModerationInput: the request needs `input`, a string or a list.");
}
