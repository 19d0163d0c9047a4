/**
 * Roles turned into others by a word or a prefix, for the question alignment (alignment.ts): "the Vice President" is not
 * "the President", "a subcontractor" not "a contractor", "my stepmother" not "my mother". WordNet makes the one a kind
 * of the other, so the alignment matches them, and the answer for one is wrong for the other. The lists are part of
 * ALIGNMENT_LISTS (alignment-lists.ts).
 */

/** Words that make a role another before its noun ("Vice President", "assistant manager", "my ex-wife"). */
export const ROLE_MODIFIERS: readonly string[] = ["vice", "deputy", "assistant", "associate", "acting", "former", "ex", "junior", "senior"];
/** Prefixes that make a role another, written as one word with it ("subcontractor", "cofounder", "stepson", "grandmother"). */
export const ROLE_PREFIXES: readonly string[] = ["sub", "co", "step", "grand"];
/** The shortest rest of a prefixed word read as a word of its own ("stepson": "son"). */
const MIN_REST_LETTERS = 3;

const MODIFIERS = new Set(ROLE_MODIFIERS);

/**
 * Whether a side (its words, content words and the alignment's `left` of it) makes a role of the other side's another: a
 * modifier it alone has, left unmatched, just before a content word the other side has with no modifier of its own
 * ("the Vice President" / "the President"; not "an ex Christian" / "a former Christian"), or a word of its own made of a
 * prefix and a word the other side has and it has not ("a subcontractor" / "a general contractor"), unless the other
 * side writes the two apart ("coworking" / "co working").
 */
export function changesRole(words: readonly string[], content: readonly string[], left: readonly string[], other: readonly string[]): boolean {
  const modifiedInOther = (noun: string) => other.some((word, k) => word === noun && MODIFIERS.has(other[k - 1] ?? ""));
  const modified = words.some((word, i) => {
    const noun = words[i + 1] ?? "";
    return MODIFIERS.has(word) && left.includes(word) && !other.includes(word) && content.includes(noun) && other.includes(noun) && !modifiedInOther(noun);
  });
  const writtenApart = (prefix: string, rest: string) => other.some((word, k) => word === prefix && other[k + 1] === rest);
  const prefixed = words.some(
    (word) =>
      !other.includes(word) &&
      ROLE_PREFIXES.some((prefix) => {
        const rest = word.slice(prefix.length);
        return word.startsWith(prefix) && rest.length >= MIN_REST_LETTERS && other.includes(rest) && !words.includes(rest) && !writtenApart(prefix, rest);
      }),
  );
  return modified || prefixed;
}
