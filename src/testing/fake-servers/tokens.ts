/** How the fake model servers count tokens: a word with the spaces around it (not exported from the testing entry). */

/** The fake's tokens: a word with the spaces around it (joined, they give the text back). */
export function fakeTokens(text: string): string[] {
  return text.match(/\s*\S+\s*/g) ?? (text ? [text] : []);
}

/** The answer's tokens cut to `limit` (absent or negative: no limit), and whether the limit cut them. */
export function cutToLimit(text: string, limit: unknown): { tokens: string[]; cut: boolean } {
  const tokens = fakeTokens(text);
  if (typeof limit !== "number" || limit < 0 || tokens.length <= limit) return { tokens, cut: false };
  return { tokens: tokens.slice(0, limit), cut: true };
}
