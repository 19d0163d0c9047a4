import { createHash } from "node:crypto";
import { stableStringify } from "./keys.js";

/**
 * A conversation's context: what comes before the message a request is keyed on (system messages, earlier
 * turns). A question is matched semantically only among entries asked in the same context, as an exact
 * partition, since "Answer in French." or "My name is Bob." changes the right answer to the same words.
 */

/** A context's digest: its text never enters the store, and a long transcript costs 43 characters. */
export function contextDigest(context: string | readonly unknown[]): string | undefined {
  if (context.length === 0) return undefined;
  const text = typeof context === "string" ? context : stableStringify(context);
  return createHash("sha256").update(text).digest("base64url");
}

/**
 * Every message but the last, the one the default key reads: whatever its role, the messages it answers (the
 * user's question before an assistant prefill, say) are then in the partition.
 */
export function messagesBeforeLast<T>(messages: readonly T[]): readonly T[] {
  return messages.slice(0, -1);
}
