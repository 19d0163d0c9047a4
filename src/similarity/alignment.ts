import { questionFacts, stem, type QuestionFacts } from "./guard-text.js";
import { lemmasOf, wordRelation } from "./lexicon.js";

/**
 * Reads a pair of questions word by word, as a person comparing them would: each content word of one is
 * matched to a word of the other with the same base form, a synonym or a linked word (a kind of it, or the
 * same idea as another part of speech: WordNet, see lexicon.ts). What is left unmatched, and how the matched
 * words are arranged, tells a minimal pair ("sort a list" / "reverse a list", "miles to km" / "km to miles")
 * from a paraphrase ("largest" / "biggest", "make it load faster" / "speed up its loading time").
 *
 * The lists below are written by hand: they are versioned with the vetoes chosen on them (see
 * lexical-vetoes.json and scripts/fit-vetoes.ts; a test fails when they change without a new fit).
 */

/** Words a rewording adds or drops without changing what is asked. */
export const WEAK_WORDS: readonly string[] = [
  "make",
  "do",
  "get",
  "use",
  "using",
  "way",
  "ways",
  "thing",
  "things",
  "know",
  "tell",
  "please",
  "need",
  "want",
  "possible",
  "able",
  "really",
  "actually",
  "exactly",
  "one",
  "someone",
  "something",
  "like",
  "go",
  "going",
  "happen",
  "happens",
  "per",
  // Praise that rewordings swap freely ("good tips" / "smart tips"); "worst" and "cheapest" are not here.
  "good",
  "best",
  "great",
  "top",
  "effective",
  "smart",
  "favourite",
  "favorite",
  "nice",
  "perfect",
  "ideal",
  "awesome",
  "amazing",
  "cool",
];

/**
 * Most content words a side may have for a substitution or a swap to count: they read questions (the hard
 * pairs' tune split has at most 9); in a long statement one word in other words, or a clause turned round
 * ("X is used to teach Y" / "to teach Y, use X"), is a rewording.
 */
export const MAX_QUESTION_WORDS = 9;

/** Words that give the words around them a direction: "miles to km" is not "km to miles". */
export const DIRECTION_WORDS: readonly string[] = ["to", "into", "from", "than", "vs", "versus", "onto", "toward", "towards", "over", "under"];

/** Pairs of short words whose swap reverses what is asked ("zoom in" / "zoom out", "most" / "least"). */
export const OPPOSITE_SMALL_WORDS: ReadonlyArray<readonly [string, string]> = [
  ["in", "out"],
  ["up", "down"],
  ["on", "off"],
  ["most", "least"],
  ["more", "less"],
  ["more", "fewer"],
];

/** Words that take in the whole of what they name ("close all tabs" is not "close a tab"). */
export const UNIVERSAL_WORDS: readonly string[] = ["all", "every", "each", "entire", "whole", "everything", "everyone", "always"];

/** Words that ask for less of what the rest of the question names ("less healthy", "fewest"). */
export const DIMINISHING_WORDS: readonly string[] = ["less", "least", "fewer", "fewest"];

const UNITS = "zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen sixteen seventeen eighteen nineteen".split(" ");
const TENS = "_ _ twenty thirty forty fifty sixty seventy eighty ninety".split(" ");
const SCALES: Readonly<Record<string, number>> = { hundred: 100, thousand: 1000, million: 1e6, billion: 1e9 };
const ORDINALS: Readonly<Record<string, string>> = { first: "one", second: "two", third: "three", fifth: "five", eighth: "eight", ninth: "nine", twelfth: "twelve" };
/** Number words that are usually not numbers ("one should", "a second opinion", "at first"), unless part of a longer number. */
const AMBIGUOUS_NUMBER_WORDS = new Set(["one", "first", "second"]);

/** The cardinal a number word stands for ("sixteenth" → "sixteen", "twentieth" → "twenty"), or undefined. */
function cardinal(word: string): string | undefined {
  const base = ORDINALS[word] ?? (word.endsWith("ieth") ? `${word.slice(0, -4)}y` : word.endsWith("th") ? word.slice(0, -2) : word);
  return UNITS.includes(base) || TENS.includes(base) || base in SCALES ? base : undefined;
}

/** Numbers written in words, as values: "two hundred" → 200, "sixteenth" → 16; a lone "one", "first" or "second" is no number. */
function wordNumbers(words: readonly string[]): string[] {
  const found: string[] = [];
  for (let i = 0; i < words.length; i++) {
    if (cardinal(words[i]) === undefined) continue;
    let total = 0;
    let current = 0;
    let end = i;
    for (; end < words.length; end++) {
      const base = cardinal(words[end]);
      if (base === undefined) break;
      if (base in SCALES) {
        current = Math.max(current, 1) * SCALES[base];
        if (SCALES[base] >= 1000) [total, current] = [total + current, 0];
      } else current += UNITS.includes(base) ? UNITS.indexOf(base) : TENS.indexOf(base) * 10;
    }
    if (!(end === i + 1 && AMBIGUOUS_NUMBER_WORDS.has(words[i]))) found.push(String(total + current));
    i = end - 1;
  }
  return found;
}

/** Names that lose their meaning to tokenising ("C#" would be "c"), written as words first. */
const SPELLED: ReadonlyArray<readonly [RegExp, string]> = [
  [/(^|[^\p{L}])c#/giu, "$1csharp"],
  [/(^|[^\p{L}])f#/giu, "$1fsharp"],
  [/(^|[^\p{L}])c\+\+/giu, "$1cplusplus"],
  [/(^|[^\p{L}])\.net\b/giu, "$1dotnet"],
];

/** Phrasal verbs read as the one word they mean ("turn on dark mode" asks "enable dark mode"). */
export const PHRASAL_VERBS: Readonly<Record<string, string>> = {
  "turn on": "enable",
  "switch on": "enable",
  "turn off": "disable",
  "switch off": "disable",
  "get rid of": "remove",
  "log in": "login",
  "sign in": "login",
  "log out": "logout",
  "sign out": "logout",
};
// The verb inflected or not ("turns on", "switched off"), the words apart by any spacing.
const PHRASAL = Object.entries(PHRASAL_VERBS).map(([phrase, word]) => {
  const [verb, ...rest] = phrase.split(" ");
  return [new RegExp(`\\b${verb}(?:s|ed|ing)?\\s+${rest.join("\\s+")}\\b`, "gi"), word] as const;
});

const WEAK = new Set(WEAK_WORDS);
const DIRECTION = new Set(DIRECTION_WORDS);
const DIMINISHING = new Set(DIMINISHING_WORDS);
const UNIVERSAL = new Set(UNIVERSAL_WORDS);

/** What the alignment of two questions found; each flag is a candidate veto (lexical-vetoes.json keeps the ones chosen). */
export interface Alignment extends Record<AlignmentVeto, boolean> {
  /** Content words of each side that matched nothing on the other. */
  unmatched: [string[], string[]];
  /** A word of one side whose antonym the other side has instead ("largest" / "smallest"). */
  antonym: boolean;
  /**
   * One content word replaced, in the same place (a matched word next to it on either side, or both at the
   * same end), by one that is neither a synonym nor linked, the rest the same ("dogs" / "cats").
   */
  substitution: boolean;
  /** Two or three content words in all replaced so, at least two others the same ("meters per second" / "miles per hour"). */
  wideSubstitution: boolean;
  /** Words that trade places around a direction word ("Paris to London" / "London to Paris", "PDF to Word" / "Word document to PDF"). */
  swapped: boolean;
  /** One side has a short word, the other its opposite ("zoom in" / "zoom out"). */
  oppositeSmallWord: boolean;
  /** One side asks for less ("less healthy", "fewest"), the other does not. */
  diminishing: boolean;
  /** One side takes in the whole ("all tabs", "the entire history"), the other does not. */
  scope: boolean;
  /** Both sides name numbers, not the same ones, digits and words alike ("2 plus 3" / "2+2", "two" / "four"). */
  numberMismatch: boolean;
}

interface Side {
  facts: QuestionFacts;
  words: string[];
  content: string[];
  /** Index in `words` of each content word. */
  positions: number[];
  /** Index in `words` of each direction word. */
  directions: number[];
  numbers: Set<string>;
}

function side(text: string): Side {
  const rewritten = [...SPELLED, ...PHRASAL].reduce((spelled, [pattern, replacement]) => spelled.replace(pattern, replacement), text);
  const facts = questionFacts(rewritten);
  const words = facts.words;
  const positions = words.flatMap((word, i) => (facts.content.has(word) && !WEAK.has(word) && cardinal(word) === undefined && !/^\d/.test(word) && word.length > 1 ? [i] : []));
  const digits = (text.match(/\d+(?:[.,]\d+)*/g) ?? []).map((number) => number.replace(/,(?=\d{3}\b)/g, ""));
  const directions = words.flatMap((word, i) => (DIRECTION.has(word) ? [i] : []));
  return { facts, words, content: positions.map((i) => words[i]), positions, directions, numbers: new Set([...digits, ...wordNumbers(words)]) };
}

/** Same word, same crude stem, or a shared base form. */
function sameWord(a: string, b: string): boolean {
  if (a === b || stem(a) === stem(b)) return true;
  const lemmas = lemmasOf(b);
  return lemmasOf(a).some((lemma) => lemmas.includes(lemma));
}

/** Matches each word of `a` to at most one unused word of `b` by `matches`, in order, into `toB` (-1: unmatched). */
function matchWords(a: readonly string[], b: readonly string[], toB: number[], used: Set<number>, matches: (x: string, y: string) => boolean): void {
  a.forEach((word, i) => {
    if (toB[i] >= 0) return;
    const j = b.findIndex((other, k) => !used.has(k) && matches(word, other));
    if (j < 0) return;
    toB[i] = j;
    used.add(j);
  });
}

/** Around one direction word: the matched content words (indexes into the side's content words) of the spans on each side. */
interface DirectionSpans {
  /** From the previous direction word (or the start), nearest last. */
  before: number[];
  /** Up to the next direction word (or the end), nearest first. */
  after: number[];
}

function spansAround(side: Side, isMatched: (k: number) => boolean): DirectionSpans[] {
  return side.directions.map((at, d) => {
    const from = d > 0 ? side.directions[d - 1] : -1;
    const to = d + 1 < side.directions.length ? side.directions[d + 1] : Infinity;
    const matched = side.positions.flatMap((position, k) => (isMatched(k) ? [[position, k] as const] : []));
    return {
      before: matched.filter(([position]) => position > from && position < at).map(([, k]) => k),
      after: matched.filter(([position]) => position > at && position < to).map(([, k]) => k),
    };
  });
}

/**
 * Whether the words on the two sides of a direction word trade places ("miles to km" / "km to miles", "from
 * MySQL to PostgreSQL" / "from PostgreSQL to MySQL", "a file from my machine to a server" / "from a server to
 * my machine"): for a direction word of each side, the word just before it on one side is in the span after
 * it on the other, and the word just after it in the span before. Words a rewording merely moves elsewhere do
 * not count.
 */
function crosses(a: Side, b: Side, toB: readonly number[]): boolean {
  const spansB = spansAround(b, (j) => toB.includes(j));
  return spansAround(a, (i) => toB[i] >= 0).some(({ before, after }) => {
    if (before.length === 0 || after.length === 0) return false;
    const last = toB[before[before.length - 1]];
    const first = toB[after[0]];
    return spansB.some((span) => span.after.includes(last) && span.before.includes(first));
  });
}

function hasOppositeSmallWord(a: Side, b: Side): boolean {
  const has = (s: Side, word: string) => s.words.includes(word);
  return OPPOSITE_SMALL_WORDS.some(
    ([x, y]) => (has(a, x) && !has(a, y) && has(b, y) && !has(b, x)) || (has(a, y) && !has(a, x) && has(b, x) && !has(b, y)),
  );
}

/** Whether word `i` of one side and word `j` of the other sit between the same matched words (or at the same end). */
function sameSlot(toB: readonly number[], i: number, j: number, lengthB: number): boolean {
  const before = i === 0 ? j === 0 : toB[i - 1] === j - 1;
  const after = i === toB.length - 1 ? j === lengthB - 1 : toB[i + 1] === j + 1;
  return before || after;
}

const diminishes = (s: Side) => s.words.some((word) => DIMINISHING.has(word)) && !s.words.some((word) => word === "more" || word === "most");

/** The candidate vetoes an alignment reports. */
export const ALIGNMENT_VETOES = ["antonym", "substitution", "wideSubstitution", "swapped", "oppositeSmallWord", "diminishing", "scope", "numberMismatch"] as const;
export type AlignmentVeto = (typeof ALIGNMENT_VETOES)[number];

/** Every hand-written list the alignment reads, for the digest that versions them with the vetoes chosen. */
export const ALIGNMENT_LISTS = {
  weak: WEAK_WORDS,
  maxQuestionWords: MAX_QUESTION_WORDS,
  direction: DIRECTION_WORDS,
  oppositeSmallWords: OPPOSITE_SMALL_WORDS,
  diminishing: DIMINISHING_WORDS,
  universal: UNIVERSAL_WORDS,
  units: UNITS,
  tens: TENS,
  scales: SCALES,
  ordinals: ORDINALS,
  ambiguousNumbers: [...AMBIGUOUS_NUMBER_WORDS],
  spelled: SPELLED.map(([pattern, replacement]) => [String(pattern), replacement]),
  phrasal: PHRASAL_VERBS,
};

/** Aligns two questions (see the module's comment). */
export function alignQuestions(textA: string, textB: string): Alignment {
  const a = side(textA);
  const b = side(textB);
  const toB = a.content.map(() => -1);
  const used = new Set<number>();
  matchWords(a.content, b.content, toB, used, sameWord);
  // The lexicon only for what the words themselves did not settle.
  matchWords(a.content, b.content, toB, used, (x, y) => {
    const relation = wordRelation(x, y);
    return relation === "synonym" || relation === "linked";
  });
  const leftA = a.content.filter((_, i) => toB[i] < 0);
  const leftB = b.content.filter((_, j) => !used.has(j));
  const matched = toB.filter((j) => j >= 0).length;
  const i = toB.indexOf(-1);
  const j = b.content.findIndex((_, k) => !used.has(k));
  const replaced = leftA.length > 0 && leftB.length > 0;
  const short = Math.max(a.content.length, b.content.length) <= MAX_QUESTION_WORDS;
  return {
    unmatched: [leftA, leftB],
    antonym: leftA.some((x) => leftB.some((y) => wordRelation(x, y) === "antonym")),
    substitution: short && replaced && leftA.length === 1 && leftB.length === 1 && matched > 0 && sameSlot(toB, i, j, b.content.length),
    wideSubstitution: replaced && leftA.length + leftB.length <= 4 && matched >= 2,
    swapped: short && crosses(a, b, toB),
    oppositeSmallWord: hasOppositeSmallWord(a, b),
    diminishing: diminishes(a) !== diminishes(b),
    scope: a.words.some((word) => UNIVERSAL.has(word)) !== b.words.some((word) => UNIVERSAL.has(word)),
    numberMismatch: a.numbers.size > 0 && b.numbers.size > 0 && (a.numbers.size !== b.numbers.size || [...a.numbers].some((number) => !b.numbers.has(number))),
  };
}
