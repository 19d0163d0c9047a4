/**
 * Numbers written in words, read as values for the question alignment (alignment.ts): "two hundred" is 200 and
 * "sixteenth" is 16. The word lists are part of ALIGNMENT_LISTS (alignment-lists.ts).
 */
export const UNITS = "zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen sixteen seventeen eighteen nineteen".split(" ");
export const TENS = "_ _ twenty thirty forty fifty sixty seventy eighty ninety".split(" ");
export const SCALES: Readonly<Record<string, number>> = { dozen: 12, hundred: 100, thousand: 1000, million: 1e6, billion: 1e9 };
export const ORDINALS: Readonly<Record<string, string>> = { first: "one", second: "two", third: "three", fifth: "five", eighth: "eight", ninth: "nine", twelfth: "twelve" };
/** Number words that are usually not numbers ("one should", "a second opinion", "at first"), unless part of a longer number. */
export const AMBIGUOUS_NUMBER_WORDS = new Set(["one", "first", "second"]);

/** The cardinal a number word stands for ("sixteenth" → "sixteen", "twentieth" → "twenty"), or undefined. */
export function cardinal(word: string): string | undefined {
  const ordinal = Object.hasOwn(ORDINALS, word) ? ORDINALS[word] : undefined;
  const base = ordinal ?? (word.endsWith("ieth") ? `${word.slice(0, -4)}y` : word.endsWith("th") ? word.slice(0, -2) : word);
  return UNITS.includes(base) || TENS.includes(base) || Object.hasOwn(SCALES, base) ? base : undefined;
}

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

/**
 * Numbers written in words, as values: "two hundred" → 200, "sixteenth" → 16, "one and a half" → 1.5 (see withHalf);
 * a lone "one", "first" or "second" is no number.
 */
export function wordNumbers(words: readonly string[]): string[] {
  const found: string[] = [];
  for (let i = 0; i < words.length; i++) {
    const run = numberRun(words, i);
    if (run === undefined) continue;
    const read = withHalf(words, i, run);
    const lone = read.end === i + 1 && AMBIGUOUS_NUMBER_WORDS.has(words[i]);
    if (!lone) found.push(String(read.value));
    i = read.end - 1;
  }
  return found;
}
