import { createHash } from "node:crypto";
import { stableStringify } from "../../core/keys.js";

/**
 * A digest of every non-text part of a conversation (images, audio, files), or undefined when it has none.
 * Vision questions are keyed on their text and partitioned by this digest: a similar question about the
 * same picture hits, the same question about another picture never does (a text embedding cannot tell two
 * pictures apart, and the key functions see only text).
 */
export function attachmentDigest(messages: unknown): string | undefined {
  if (!Array.isArray(messages)) return undefined;
  const hash = createHash("sha256");
  let found = false;
  for (const message of messages) {
    const content = (message as { content?: unknown } | null)?.content;
    if (!Array.isArray(content)) continue;
    for (const part of content) {
      if (typeof part === "string" || (part as { type?: unknown } | null)?.type === "text") continue;
      hash.update(stableStringify(part)).update("\u0000");
      found = true;
    }
  }
  return found ? hash.digest("hex") : undefined;
}
