/**
 * Times told from now, for the question alignment (alignment.ts): "last week", "this Monday", "tomorrow". Two
 * questions that place their time differently from now ask about different times ("Who won the game last night?" /
 * "Who won the game tonight?", "What's the weather next week?" / "What was the weather last week?"). The lists are
 * part of ALIGNMENT_LISTS (alignment-lists.ts).
 */

/** Words before a time noun and how far from now they place it, in that noun's units. */
export const RELATIVE_TIME_WORDS: Readonly<Record<string, number>> = { this: 0, current: 0, next: 1, last: -1, previous: -1 };

/** Words that are a time from now on their own. */
export const RELATIVE_DAYS: Readonly<Record<string, number>> = { today: 0, tonight: 0, tomorrow: 1, yesterday: -1 };

/** Nouns of time that RELATIVE_TIME_WORDS place ("last week", "this Monday", "next summer"). */
export const RELATIVE_TIME_NOUNS: readonly string[] = (
  "day night morning afternoon evening week weekend month year season spring summer autumn fall winter semester term quarter " +
  "monday tuesday wednesday thursday friday saturday sunday"
).split(" ");

const TIME_NOUN = new Set(RELATIVE_TIME_NOUNS);

/** Whether every word a side leaves unmatched tells a time ("last", "tonight", "week"): the sides differ in their times alone. */
export const onlyTimesLeft = (left: readonly string[]) =>
  left.every((word) => Object.hasOwn(RELATIVE_TIME_WORDS, word) || Object.hasOwn(RELATIVE_DAYS, word) || TIME_NOUN.has(word));

/** The times a side tells from now, and whether it names a year. */
export interface RelativeTimes {
  /** How far from now each stands: 0 now, 1 the next, -1 the last. */
  readonly offsets: ReadonlySet<number>;
  readonly year: boolean;
}

/** The times a side's words tell from now; `text` for its years. */
export function relativeTimesOf(text: string, words: readonly string[]): RelativeTimes {
  const offsets = new Set<number>();
  words.forEach((word, i) => {
    if (Object.hasOwn(RELATIVE_DAYS, word)) offsets.add(RELATIVE_DAYS[word]);
    // Not "the last week" (the seven days up to now, or the final one: "the last week of December").
    const placed = TIME_NOUN.has(words[i + 1]) && !(word === "last" && words[i - 1] === "the");
    if (placed && Object.hasOwn(RELATIVE_TIME_WORDS, word)) offsets.add(RELATIVE_TIME_WORDS[word]);
  });
  return { offsets, year: /\b\d{4}\b/.test(text) };
}

/**
 * Whether both sides tell a time from now and none in common ("last week" / "this week"; "tonight" / "this evening"
 * agree, and so do "die tomorrow" / "die tomorrow ... finish today"), and neither names a year, which fixes the time
 * whatever the words ("this season 2016-2017" / "next season 2016-2017").
 */
export function relativeTimesDiffer(a: RelativeTimes, b: RelativeTimes): boolean {
  return a.offsets.size > 0 && b.offsets.size > 0 && !a.year && !b.year && [...a.offsets].every((offset) => !b.offsets.has(offset));
}
