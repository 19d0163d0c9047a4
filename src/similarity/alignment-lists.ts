/**
 * The hand-written lists the question alignment (alignment.ts) reads. They are versioned with the vetoes chosen on
 * them (see lexical-vetoes.json and scripts/fit-vetoes.ts; a test fails when they change without a new fit), through
 * ALIGNMENT_LISTS below.
 */
import { AMBIGUOUS_NUMBER_WORDS, ORDINALS, SCALES, TENS, UNITS } from "./alignment-numbers.js";
import { AFTER_SECOND, UNIT_COMPOUNDS, UNIT_NAMES } from "./alignment-units.js";

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

/**
 * Scope: words that take in every member of a set ("close all tabs" is not "close a tab"), and the whole of one
 * thing ("delete my entire history" is not "delete one search"). "each" is left out: "how much is each ticket"
 * asks what "how much is a ticket" does.
 */
export const UNIVERSAL_WORDS: readonly string[] = ["all", "every", "everything", "everyone", "everybody"];
export const WHOLE_WORDS: readonly string[] = ["whole", "entire"];
/** Words that pick one member or a part ("one paragraph", "some birds", "someone", "the first element"). */
export const PARTICULAR_WORDS: readonly string[] = ["one", "single", "some", "someone", "somebody", "something", "individual", "specific", "particular", "first"];
/** After "all", words that make it a pronoun ("all that is required", "all it takes", "all you need"). */
export const PRONOUNS_AFTER_ALL: readonly string[] = ["that", "it", "you", "i", "we", "they", "he", "she"];
/** Articles: a particular against a universal ("a tab" / "all tabs"), not against a whole ("a folder" / "a whole folder"). */
export const ARTICLES: readonly string[] = ["a", "an"];

/** Words that ask for less of what the rest of the question names ("less healthy", "fewest"). */
export const DIMINISHING_WORDS: readonly string[] = ["less", "least", "fewer", "fewest"];

/** Names that lose their meaning to tokenising ("C#" would be "c"), written as words first. */
export const SPELLED: ReadonlyArray<readonly [RegExp, string]> = [
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

/** Every hand-written list the alignment reads, for the digest that versions them with the vetoes chosen. */
export const ALIGNMENT_LISTS = {
  weak: WEAK_WORDS,
  maxQuestionWords: MAX_QUESTION_WORDS,
  direction: DIRECTION_WORDS,
  oppositeSmallWords: OPPOSITE_SMALL_WORDS,
  diminishing: DIMINISHING_WORDS,
  universal: UNIVERSAL_WORDS,
  whole: WHOLE_WORDS,
  particular: PARTICULAR_WORDS,
  articles: ARTICLES,
  pronounsAfterAll: PRONOUNS_AFTER_ALL,
  units: UNITS,
  tens: TENS,
  scales: SCALES,
  ordinals: ORDINALS,
  ambiguousNumbers: [...AMBIGUOUS_NUMBER_WORDS],
  unitNames: UNIT_NAMES,
  unitCompounds: UNIT_COMPOUNDS,
  afterSecond: AFTER_SECOND,
  spelled: SPELLED.map(([pattern, replacement]) => [String(pattern), replacement]),
  phrasal: PHRASAL_VERBS,
};
