import { createHash } from "node:crypto";
import { stableStringify } from "./keys.js";

/**
 * The request field holding a digest of the conversation before the question (system messages, earlier turns),
 * one of the default partition keys: a question is matched semantically only among entries asked in the same
 * context, since "Answer in French." or "My name is Bob." changes the right answer to the same words.
 */
export const CONTEXT_KEY = "semcache_context";

/** A context's digest: its text never enters the store, and a long transcript costs 43 characters. */
export function contextDigest(context: string | readonly unknown[]): string | undefined {
  if (context.length === 0) return undefined;
  const text = typeof context === "string" ? context : stableStringify(context);
  return createHash("sha256").update(text).digest("base64url");
}

/** The messages before the last one with the user role (none: the question stands alone). */
export function messagesBeforeQuestion<T extends { role?: unknown }>(messages: readonly T[]): readonly T[] {
  for (let i = messages.length - 1; i >= 0; i--) if (messages[i].role === "user") return messages.slice(0, i);
  return [];
}
