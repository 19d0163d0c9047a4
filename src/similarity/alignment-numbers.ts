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
const HALF_A = ["half", "a"];

/**
 * Numbers written in words, as values: "two hundred" → 200, "sixteenth" → 16, "one and a half" → 1.5, "a dozen and a
 * half" → 18, "half a dozen" → 6; a lone "one", "first" or "second" is no number.
 */
export function wordNumbers(words: readonly string[]): string[] {
  const found: string[] = [];
  for (let i = 0; i < words.length; i++) {
    const run = numberRun(words, i);
    if (run === undefined) continue;
    const last = cardinal(words[run.end - 1]) ?? "";
    // Half of the run's last scale, or of one: "a dozen and a half" is 18, "two and a half" 2.5.
    const half = Object.hasOwn(SCALES, last) ? SCALES[last] / 2 : 0.5;
    const andAHalf = readsAt(words, run.end, AND_A_HALF);
    const halfOf = !andAHalf && run.end === i + 1 && Object.hasOwn(SCALES, last) && readsAt(words, i - 2, HALF_A);
    const value = andAHalf ? run.value + half : halfOf ? run.value / 2 : run.value;
    if (andAHalf || !(run.end === i + 1 && AMBIGUOUS_NUMBER_WORDS.has(words[i]))) found.push(String(value));
    i = (andAHalf ? run.end + AND_A_HALF.length : run.end) - 1;
  }
  return found;
}
