/** Reading a request's chat messages, OpenAI-style or LangChain's, for the processors and the judges alike. */
import { ValidationError } from "./errors.js";
import type { CacheRequest } from "./types.js";

/** LangChain message types as the OpenAI roles the rest of the cache (skipList, `USER:` keys) speaks. */
const LANGCHAIN_ROLES: Readonly<Record<string, string>> = { human: "user", ai: "assistant" };

type MessageShape = {
  role?: unknown;
  type?: unknown;
  content?: unknown;
  getType?: () => string;
};

function asMessage(message: unknown): MessageShape {
  if (typeof message !== "object" || message === null) {
    throw new ValidationError(`A message must be an object with \`content\`, got ${message === null ? "null" : typeof message}.`);
  }
  return message as MessageShape;
}

/**
 * The text of a chat message: an OpenAI-style `{ role, content }` or a LangChain message. List content
 * keeps its text parts, joined by "\n" (images and other parts are not text); no content is "".
 */
export function messageText(message: unknown): string {
  const content = asMessage(message).content;
  if (content === null || content === undefined) return "";
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) throw new ValidationError("A message's `content` must be a string or a list of parts.");
  const texts: string[] = [];
  for (const part of content) {
    if (typeof part === "string") texts.push(part);
    else if (part?.type === "text" && typeof part.text === "string") texts.push(part.text);
  }
  return texts.join("\n");
}

/** The OpenAI role of a message (`user`, `assistant`, ...); LangChain's `human`/`ai` types are mapped. */
export function messageRole(message: unknown): string {
  const m = asMessage(message);
  const role = typeof m.role === "string" ? m.role : typeof m.getType === "function" ? m.getType() : m.type;
  if (typeof role !== "string") throw new ValidationError("A message has no `role` (or LangChain message type).");
  return LANGCHAIN_ROLES[role] ?? role;
}

/** The request's non-empty `messages` list, or a ValidationError naming the field. */
export function requestMessages(request: CacheRequest, caller: string): readonly unknown[] {
  const messages = request.messages;
  if (!Array.isArray(messages) || messages.length === 0) {
    throw new ValidationError(`${caller}: the request needs \`messages\`, a non-empty list.`);
  }
  return messages;
}
