/**
 * Roles turned into others by a word or a prefix, for the question alignment (alignment.ts): "the Vice President" is not
 * "the President", "a subcontractor" not "a contractor", "my stepmother" not "my mother". WordNet makes the one a kind
 * of the other, so the alignment matches them, and the answer for one is wrong for the other. The lists are part of
 * ALIGNMENT_LISTS (alignment-lists.ts).
 */
import { isKindOf } from "./lexicon.js";

/**
 * Words that make a role another before it ("Vice President", "assistant manager", "my ex-wife", "a co-founder",
 * "a senior software engineer").
 */
export const ROLE_MODIFIERS: readonly string[] = ["vice", "deputy", "assistant", "associate", "acting", "former", "ex", "junior", "senior", "co", "sub", "step", "grand"];
/** Prefixes that make a role another, written as one word with it ("subcontractor", "cofounder", "stepson", "grandmother"). */
export const ROLE_PREFIXES: readonly string[] = ["sub", "co", "step", "grand"];
/** What a role is a kind of, within ROLE_STEPS is-a steps ("contractor", "CEO", "professor"; not "way", "set", "year"). */
export const ROLE_KIND = "person";
const ROLE_STEPS = 6;
/** The shortest rest of a prefixed word read as a word of its own ("stepson": "son"). */
const MIN_REST_LETTERS = 3;

const MODIFIERS = new Set(ROLE_MODIFIERS);
const isRole = (word: string) => isKindOf(word, ROLE_KIND, ROLE_STEPS);

/** A side as the role reading needs it: its lower-cased words and the content words the alignment left unmatched. */
export interface RoleSide {
  words: readonly string[];
  left: readonly string[];
}

/**
 * Whether `x` makes a role `y` names another: by a modifier only `x` has, left unmatched, before the role (the next word or
 * the one after: "the Vice President" / "the President", "a senior software engineer" / "a software engineer"), `y` having
 * no word of its own left or a modifier just before it ("a junior developer" / "an entry-level developer" is the
 * substitution's to read); or by a prefix written as one word with a role `y` names and `x` does not ("a subcontractor"
 * / "a general contractor", "stepsons" / "sons"), unless `y` writes the two apart ("cohosts" / "co hosts"). A role is a
 * kind of person (`ROLE_KIND`): "acting strange", "the junior year", "the former Yugoslavia", "a subway" and "a subset"
 * name none.
 */
export function changesRole(x: RoleSide, y: RoleSide, sameWord: (a: string, b: string) => boolean): boolean {
  const inY = (role: string) => y.words.findIndex((word) => sameWord(word, role));
  /** Whether `y` names the role at `at` with no word of its own, or modifier, just before it. */
  const standsAlone = (at: number) => {
    const before = y.words[at - 1] ?? "";
    return at >= 0 && !MODIFIERS.has(before) && !y.left.includes(before);
  };
  const modified = x.words.some((word, i) => {
    if (!MODIFIERS.has(word) || !x.left.includes(word) || y.words.includes(word)) return false;
    const role = [x.words[i + 1], x.words[i + 2]].find((next) => next !== undefined && isRole(next));
    return role !== undefined && standsAlone(inY(role));
  });
  const writtenApart = (prefix: string, rest: string) => y.words.some((word, k) => word === prefix && sameWord(y.words[k + 1] ?? "", rest));
  const prefixed = x.words.some((word) =>
    ROLE_PREFIXES.some((prefix) => {
      const rest = word.slice(prefix.length);
      if (!word.startsWith(prefix) || rest.length < MIN_REST_LETTERS || y.words.includes(word) || !isRole(rest)) return false;
      return inY(rest) >= 0 && !x.words.some((other) => sameWord(other, rest)) && !writtenApart(prefix, rest);
    }),
  );
  return modified || prefixed;
}
