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

/** Nouns of a time within a day: "this evening" is "tonight", "last night" is "yesterday". */
export const PARTS_OF_A_DAY: readonly string[] = ["day", "night", "morning", "afternoon", "evening"];

/** Nouns of a day within a week: "next Monday" is "Monday next week". */
export const DAYS_OF_THE_WEEK: readonly string[] = ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"];

/** Nouns of time that RELATIVE_TIME_WORDS place ("last week", "this Monday", "next summer"). */
export const RELATIVE_TIME_NOUNS: readonly string[] = [
  ...PARTS_OF_A_DAY,
  ..."week weekend month year season spring summer autumn fall winter semester term quarter".split(" "),
  ...DAYS_OF_THE_WEEK,
];

/** Other names of one span of time. */
export const SPAN_NAMES: Readonly<Record<string, string>> = { fall: "autumn", term: "semester" };

const TIME_NOUN = new Set(RELATIVE_TIME_NOUNS);

/** The span a time noun counts in: a day for its parts, a week for its days, else the noun's own (by one name). */
const SPAN = new Map([...PARTS_OF_A_DAY.map((noun) => [noun, "day"] as const), ...DAYS_OF_THE_WEEK.map((noun) => [noun, "week"] as const), ...Object.entries(SPAN_NAMES)]);
const spanOf = (noun: string) => SPAN.get(noun) ?? noun;

/** Whether every word a side leaves unmatched tells a time ("last", "tonight", "week"): the sides differ in their times alone. */
export const onlyTimesLeft = (left: readonly string[]) =>
  left.every((word) => Object.hasOwn(RELATIVE_TIME_WORDS, word) || Object.hasOwn(RELATIVE_DAYS, word) || TIME_NOUN.has(word));

/** The times a side tells from now, and whether it names a year. */
export interface RelativeTimes {
  /** Each time's span and how far from now it stands (0 now, 1 the next, -1 the last): "day -1" for "yesterday", "week -1" for "last week". */
  readonly times: ReadonlySet<string>;
  readonly year: boolean;
}

/** The times a side's words tell from now; `text` for its years. */
export function relativeTimesOf(text: string, words: readonly string[]): RelativeTimes {
  const times = new Set<string>();
  words.forEach((word, i) => {
    if (Object.hasOwn(RELATIVE_DAYS, word)) times.add(`day ${RELATIVE_DAYS[word]}`);
    // Not "the last week" (the seven days up to now, or the final one: "the last week of December").
    const placed = TIME_NOUN.has(words[i + 1]) && !(word === "last" && words[i - 1] === "the");
    if (placed && Object.hasOwn(RELATIVE_TIME_WORDS, word)) times.add(`${spanOf(words[i + 1])} ${RELATIVE_TIME_WORDS[word]}`);
  });
  return { times, year: /\b\d{4}\b/.test(text) };
}

/**
 * Whether both sides tell a time from now and none in common ("last week" / "this week", "yesterday" / "last week";
 * "tonight" / "this evening" agree, and so do "die tomorrow" / "die tomorrow ... finish today"), and neither names a year, which fixes the time
 * whatever the words ("this season 2016-2017" / "next season 2016-2017").
 */
export function relativeTimesDiffer(a: RelativeTimes, b: RelativeTimes): boolean {
  return a.times.size > 0 && b.times.size > 0 && !a.year && !b.year && [...a.times].every((time) => !b.times.has(time));
}
