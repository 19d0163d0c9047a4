/**
 * Numbers written in words, read as values for the question alignment (alignment.ts): "two hundred" is 200 and
 * "sixteenth" is 16. The word lists are part of ALIGNMENT_LISTS (alignment-lists.ts).
 */
export const UNITS = "zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen sixteen seventeen eighteen nineteen".split(" ");
export const TENS = "_ _ twenty thirty forty fifty sixty seventy eighty ninety".split(" ");
export const SCALES: Readonly<Record<string, number>> = { dozen: 12, hundred: 100, thousand: 1000, million: 1e6, billion: 1e9 };
export const ORDINALS: Readonly<Record<string, string>> = { first: "one", second: "two", third: "three", fifth: "five", eighth: "eight", ninth: "nine", twelfth: "twelve" };
/**
 * The parts a fraction's word cuts a whole into ("two thirds" is 2/3); "second" is a time or a place, never a part, and
 * "half" is no number here ("half an hour" / "30 minutes"): it is read as one half only against a fraction
 * (numbersAgainst in alignment.ts).
 */
export const DENOMINATORS: Readonly<Record<string, number>> = {
  third: 3, thirds: 3, quarter: 4, quarters: 4, fourth: 4, fourths: 4, fifth: 5, fifths: 5, sixth: 6, sixths: 6,
  eighth: 8, eighths: 8, tenth: 10, tenths: 10,
};
/** Number words that are usually not numbers ("one should", "a second opinion", "at first"), unless part of a longer number. */
export const AMBIGUOUS_NUMBER_WORDS = new Set(["one", "first", "second"]);

/** Units of time a lone "one" counts ("a one-year-old", "one hour a day"); not "one day", which is often "some day". */
export const COUNTED_TIMES: ReadonlySet<string> = new Set(["year", "month", "week", "hour", "minute"]);

/**
 * The numbers `words` give a unit of time that `otherWords` count as "one" ("one hour"): "half an hour" is 1/2, "an
 * hour and a half" 1.5, and "an hour" 1 where `words` name other numbers (alone it compares nothing).
 */
export function againstOneOfTime(words: readonly string[], otherWords: readonly string[], namesNumbers: boolean): string[] {
  // Read for every candidate a lookup judges: nothing to build when the other side has no "one".
  if (!otherWords.includes("one")) return [];
  const countedByOne = new Set(otherWords.flatMap((word, i) => (word === "one" && COUNTED_TIMES.has(otherWords[i + 1]) ? [otherWords[i + 1]] : [])));
  return words.flatMap((word, i) => {
    if ((word !== "a" && word !== "an") || !countedByOne.has(words[i + 1])) return [];
    if (words[i - 1] === "half") return ["1/2"];
    if (words[i + 2] === "and" && words[i + 4] === "half") return ["1.5"];
    return namesNumbers ? ["1"] : [];
  });
}

/**
 * Every word that stands for a cardinal, and the cardinal: the cardinals themselves, their ordinals in -th ("sixteenth",
 * "hundredth"; "twentieth" from "twenty"), and ORDINALS. Looked up for most words of every pair judged.
 */
const CARDINALS: ReadonlyMap<string, string> = new Map([
  ...[...UNITS, ...TENS, ...Object.keys(SCALES)].flatMap((base) => [
    [base, base] as const,
    [`${base}th`, base] as const,
    ...(base.endsWith("y") ? [[`${base.slice(0, -1)}ieth`, base] as const] : []),
  ]),
  ...Object.entries(ORDINALS),
]);

/** The cardinal a number word stands for ("sixteenth" → "sixteen", "twentieth" → "twenty"), or undefined. */
export const cardinal = (word: string): string | undefined => CARDINALS.get(word);

/** A number in digits without its thousands separators ("1,000" → "1000"; "1,5" stays). */
export const withoutThousands = (number: string) => number.replace(/,(?=\d{3}\b)/g, "");

/** The value of the run of number words that starts at `from` ("two hundred" → 200) and where it ends, or undefined. */
export function numberRun(words: readonly string[], from: number): { value: number; end: number } | undefined {
  let total = 0;
  let current = 0;
  let end = from;
  for (; end < words.length; end++) {
    const base = cardinal(words[end]);
    if (base === undefined) break;
    if (Object.hasOwn(SCALES, base)) {
      current = Math.max(current, 1) * SCALES[base];
      if (SCALES[base] >= 1000) [total, current] = [total + current, 0];
    } else current += UNITS.includes(base) ? UNITS.indexOf(base) : TENS.indexOf(base) * 10;
  }
  return end === from ? undefined : { value: total + current, end };
}

/** Two numbers around a slash, not a date's three ("12/25/2020"), or "out of" between them ("4 out of 5"). */
const SLASHED = /(?<![\d/.])(\d{1,2})(?:\/|\s+out\s+of\s+)(\d{1,2})(?![\d/])/gi;

/** The parts a fraction in digits cuts a whole into: not "9/11" nor "4/20", dates and names, nor "7/4". */
const DIGIT_DENOMINATORS = new Set([2, 3, 4, 5, 6, 8, 10, 16]);

/** A fraction as the numbers read it, as written: "2/3" and "two thirds" agree, "4/8" and "2/4" do not (simplify one). */
const fraction = (numerator: number, denominator: number) => `${numerator}/${denominator}`;

const isFraction = (number: string) => number.includes("/");

/** A number's value as a key: a fraction's ("1/2" → 0.5) or the digits' own, to nine places. */
const valueKey = (number: string) => {
  const [numerator, denominator = "1"] = number.split("/");
  return Math.round((Number(numerator) / Number(denominator)) * 1e9);
};

/**
 * Whether both name numbers and not the same ones: each of `x` is one of `y` as written, or a fraction against a
 * decimal of the same value ("1/2" and "0.5"; "4/8" and "2/4" are two fractions, and differ). Read with sets, so two
 * long texts full of numbers cost no more than their length.
 */
export function numbersDiffer(x: ReadonlySet<string>, y: ReadonlySet<string>): boolean {
  if (x.size === 0 || y.size === 0) return false;
  if (x.size !== y.size) return true;
  const keysOf = (fractions: boolean) => new Set([...y].filter((number) => isFraction(number) === fractions).map(valueKey));
  const [yFractions, yOthers] = [keysOf(true), keysOf(false)];
  return [...x].some((number) => !y.has(number) && !(isFraction(number) ? yOthers : yFractions).has(valueKey(number)));
}

/**
 * A text's fractions in digits ("2/3", "3/8", "4 out of 5" → "4/5"), and the text without them for its other numbers.
 * Only a part of a whole: "iPhone 7/7s" and "24/7" are no fractions.
 */
export function digitFractions(text: string): { values: string[]; rest: string } {
  const values: string[] = [];
  const rest = text.replace(SLASHED, (whole, numerator: string, denominator: string) => {
    if (!DIGIT_DENOMINATORS.has(Number(denominator)) || Number(numerator) >= Number(denominator)) return whole;
    values.push(fraction(Number(numerator), Number(denominator)));
    return " ";
  });
  return { values, rest };
}

/** Whether `words` from `at` read `phrase` ("and a half"). */
const readsAt = (words: readonly string[], at: number, phrase: readonly string[]) => at >= 0 && phrase.every((word, k) => words[at + k] === word);

const AND_A_HALF = ["and", "a", "half"];
/** Words that may stand between a number and its "and a half": times ("two hours and a half"), not "two eggs and a half cup". */
const HALVED_TIMES = new Set("seconds minutes hours days weeks months years".split(" "));
const HALF_A = ["half", "a"];

/**
 * A run's value with the half that follows it or comes before it, and where it ends: "one and a half" is 1.5, "one
 * and a half dozen" 18, "two hours and a half" 2.5 (a word between), "a dozen and a half" 18 (half of its last
 * scale), "half a dozen" 6. Not after an ordinal ("a second and a half").
 */
function withHalf(words: readonly string[], from: number, run: { value: number; end: number }): { value: number; end: number } {
  const lastWord = words[run.end - 1];
  const last = cardinal(lastWord) ?? "";
  const scale = Object.hasOwn(SCALES, last) ? SCALES[last] : undefined;
  if (last === lastWord) {
    // "and a half" just after the run, or after a time ("two hours and a half").
    const at = readsAt(words, run.end, AND_A_HALF) ? run.end : HALVED_TIMES.has(words[run.end] ?? "") && readsAt(words, run.end + 1, AND_A_HALF) ? run.end + 1 : -1;
    if (at >= 0) {
      const end = at + AND_A_HALF.length;
      const next = cardinal(words[end] ?? "");
      // A scale after it takes the whole: "one and a half dozen" is 1.5 dozen.
      if (at === run.end && next !== undefined && Object.hasOwn(SCALES, next)) return { value: (run.value + 0.5) * SCALES[next], end: end + 1 };
      return { value: run.value + (scale !== undefined && at === run.end ? scale / 2 : 0.5), end };
    }
  }
  const halfOf = run.end === from + 1 && scale !== undefined && readsAt(words, from - 2, HALF_A);
  return halfOf ? { value: run.value / 2, end: run.end } : run;
}

/** Most number words a fraction's count or whole may run over ("twenty one"), which keeps a long text's reading linear. */
const MAX_COUNT_WORDS = 4;

/** The run of cardinals (no ordinal: "first half") from `from`, up to a fraction's word ("one third" is 1 and its part, not 1 + 3). */
function cardinalsAt(words: readonly string[], from: number): { value: number; end: number } | undefined {
  let end = from;
  while (end < words.length && end - from < MAX_COUNT_WORDS && cardinal(words[end]) === words[end] && !Object.hasOwn(DENOMINATORS, words[end])) end++;
  const run = end === from ? undefined : numberRun(words.slice(from, end), 0);
  return run && { value: run.value, end };
}

/**
 * The fraction a count and the words after it make, and where it ends: "two thirds" (2/3) and "three quarters of" in
 * the plural; "one third", and "a third" only before "of" ("a third of a cup"; "a third option" is an ordinal); "four
 * out of five" (4/5).
 */
function fractionAt(words: readonly string[], from: number): { value: string; end: number } | undefined {
  const article = words[from] === "a" || words[from] === "an";
  const count = article ? { value: 1, end: from + 1 } : cardinalsAt(words, from);
  if (!count) return undefined;
  const word = words[count.end] ?? "";
  // "one out of" picks one ("How do I choose one out of two job offers?"): a fraction from two on ("four out of five").
  if (!article && count.value >= 2 && word === "out" && words[count.end + 1] === "of") {
    const whole = cardinalsAt(words, count.end + 2);
    return whole && DIGIT_DENOMINATORS.has(whole.value) && count.value < whole.value ? { value: fraction(count.value, whole.value), end: whole.end } : undefined;
  }
  if (!Object.hasOwn(DENOMINATORS, word)) return undefined;
  // "quarters" are coins and a year's parts too ("two quarters" of earnings): a fraction only before "of" or "as" ("three
  // quarters of an hour", "three quarters as a decimal").
  const ofFollows = words[count.end + 1] === "of" || words[count.end + 1] === "as";
  const several = word.endsWith("s") ? count.value >= 2 && (word !== "quarters" || ofFollows) : count.value === 1 && (words[from] === "one" || ofFollows);
  return several ? { value: fraction(count.value, DENOMINATORS[word]), end: count.end + 1 } : undefined;
}

/** The numbers written in words, as values, and which words are fractions' ("thirds" in "two thirds"). */
export interface WordNumbers {
  readonly values: readonly string[];
  readonly fractionWords: ReadonlySet<number>;
}

/**
 * Numbers written in words, as values: "two hundred" → 200, "sixteenth" → 16, "one and a half" → 1.5 (see withHalf),
 * "two thirds" → 2/3 (see fractionAt); a lone "one", "first" or "second" is no number.
 */
export function wordNumbers(words: readonly string[]): WordNumbers {
  const values: string[] = [];
  const fractionWords = new Set<number>();
  for (let i = 0; i < words.length; i++) {
    const part = fractionAt(words, i);
    if (part) {
      values.push(part.value);
      for (let k = i; k < part.end; k++) fractionWords.add(k);
      i = part.end - 1;
      continue;
    }
    const run = numberRun(words, i);
    if (run === undefined) continue;
    const read = withHalf(words, i, run);
    const lone = read.end === i + 1 && AMBIGUOUS_NUMBER_WORDS.has(words[i]) && !(words[i] === "one" && COUNTED_TIMES.has(words[i + 1]));
    if (!lone) values.push(String(read.value));
    i = read.end - 1;
  }
  return { values, fractionWords };
}
