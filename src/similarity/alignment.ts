/**
 * Reads a pair of questions word by word, as a person comparing them would: each content word of one is
 * matched to a word of the other with the same base form, a synonym or a linked word (a kind of it, or the
 * same idea as another part of speech: WordNet, see lexicon.ts). What is left unmatched, and how the matched
 * words are arranged, tells a minimal pair ("sort a list" / "reverse a list", "miles to km" / "km to miles")
 * from a paraphrase ("largest" / "biggest", "make it load faster" / "speed up its loading time").
 *
 * The hand-written lists it reads are in alignment-lists.ts, versioned with the vetoes chosen on them.
 */
import { Lru } from "../core/lru.js";
import {
  ARITHMETIC_OPERATIONS,
  ARITHMETIC_WORDS,
  BOUNDS_BELOW,
  COMPOUNDS,
  CONVERTING_BEFORE_INTO,
  DETERMINERS,
  COUNT_RANGE_WORDS,
  DIMINISHING_WORDS,
  DIRECTION_WORDS,
  EST_WORDS,
  EXTREME_WORDS,
  FRACTION_WORDS,
  FUTURE_AUXILIARIES,
  INABILITY_WORDS,
  MAX_LONG_QUESTION_WORDS,
  MAX_QUESTION_WORDS,
  NOT_IN_OBJECT,
  ONE_OF_WORDS,
  OPPOSITE_AFTER_SAME_WORD,
  OPPOSITE_SMALL_WORDS,
  ORDER_WORDS,
  PAST_AUXILIARIES,
  PAST_WORDS,
  PHRASAL_VERBS,
  PRAISE_SUPERLATIVES,
  PRESENT_WORDS,
  QUESTION_OPENERS,
  REPLACED_BY,
  REPLACED_BY_WORD,
  REQUEST_VERBS,
  ROUTE_VERBS,
  SHORT_FORMS,
  SPELLED,
  STOPWORD_NOUNS,
  STOPWORD_VERBS,
  SUBSTITUTE_FOR,
  SUBSTITUTE_PHRASES,
  SUBSTITUTE_WORDS,
  SYMMETRIC_BEFORE_TO,
  SYMMETRIC_WORDS,
  SYNONYM_PHRASES,
  SYNONYM_PHRASES_AT_END,
  THIRD_TERM_WORDS,
  TOWARD_WORDS,
  UNLINKED_OPPOSITES,
  UNLINKED_SYNONYMS,
  VAGUE_AMOUNT_WORDS,
  WEAK_WORDS,
  WHOLE_WORDS,
  YEAR_PREPOSITIONS,
} from "./alignment-lists.js";
import { answerKindsDiffer, firstPhrase, questionPhrasesOf, type QuestionPhrase } from "./alignment-answer-kind.js";
import { modelsDiffer, modelsOf, type Models } from "./alignment-models.js";
import { againstOneOfTime, cardinal, digitFractions, numberRun, numbersDiffer, ORDINALS, withoutThousands, wordNumbers } from "./alignment-numbers.js";
import { clausesOf, namesOf, placesTraded, swapsArguments, type Clause } from "./alignment-arguments.js";
import { asksOtherRole } from "./alignment-question-role.js";
import { onlyTimesLeft, relativeTimesDiffer, relativeTimesOf } from "./alignment-relative-time.js";
import { changesRole } from "./alignment-role-words.js";
import { isPronounOne, partOfWhole, pickedApart, scopeDiffers, type PartSide } from "./alignment-scope.js";
import { readsBothWays, routeOf, routesTurned, type RouteStep } from "./alignment-routes.js";
import { countedUnitsOf, unitNamed, unitsOf } from "./alignment-units.js";
import { questionFacts, readRemembered, sameNamed, stem, type QuestionFacts } from "./guard-text.js";
import { areAntonyms, lemmasOf, partners, wordRelation } from "./lexicon.js";

// The lists' digest, exported here as before (lexical-vetoes.ts imports it from this file).
export { ALIGNMENT_LISTS } from "./alignment-lists.js";

// The verb inflected or not ("turns on", "switched off"), the words apart by any spacing.
const PHRASAL = Object.entries(PHRASAL_VERBS).map(([phrase, word]) => {
  const [verb, ...rest] = phrase.split(" ");
  return [new RegExp(`\\b${verb}(?:s|ed|ing)?\\s+${rest.join("\\s+")}\\b`, "gi"), word] as const;
});

/**
 * "turn a list into a string" reads "convert a list into a string", the verb up to four words before its "into", none of
 * them opening a clause ("Why do I turn red when I get into an argument?").
 */
const CONVERTING = [
  new RegExp(`\\b(?:${CONVERTING_BEFORE_INTO.join("|")})(?:s|ed|ing)?\\b(?=(?:\\s+(?!(?:${NOT_IN_OBJECT.join("|")})\\b)[\\p{L}\\p{N}'’.-]+){1,4}?\\s+into\\b)`, "giu"),
  "convert",
] as const;

/** A compound, a substitute's phrase or another phrase in any case, its words apart by any spacing. */
const COMPOUND = [
  ...Object.entries({ ...COMPOUNDS, ...SUBSTITUTE_PHRASES, ...SYNONYM_PHRASES }).map(
    ([compound, meaning]) => [new RegExp(`\\b${compound.replaceAll(" ", "\\s+")}\\b`, "gi"), meaning] as const,
  ),
  // Nothing after it but spaces and punctuation ("short for?", "short for?\"", "short for…").
  ...Object.entries(SYNONYM_PHRASES_AT_END).map(([phrase, meaning]) => [new RegExp(`\\b${phrase.replaceAll(" ", "\\s+")}(?=[^\\p{L}\\p{N}]*$)`, "giu"), meaning] as const),
];

const WEAK = new Set(WEAK_WORDS);
const BOUND_BELOW = new Set(BOUNDS_BELOW);
const STOPWORD_VERB = new Set(STOPWORD_VERBS);
const STOPWORD_NOUN = new Set(STOPWORD_NOUNS);
const DIRECTION = new Set(DIRECTION_WORDS);
const SUBSTITUTE = new Set(SUBSTITUTE_WORDS);
const ORDER = new Set(ORDER_WORDS);
const PAST_AUXILIARY = new Set(PAST_AUXILIARIES);
const FUTURE_AUXILIARY = new Set(FUTURE_AUXILIARIES);
const OPENER = new Set(QUESTION_OPENERS);
const DIMINISHING = new Set(DIMINISHING_WORDS);
const UNABLE = new Set(INABILITY_WORDS);
const SYMMETRIC = new Set(SYMMETRIC_WORDS);
const SYMMETRIC_TO = new Set(SYMMETRIC_BEFORE_TO);
const THIRD_TERM = new Set(THIRD_TERM_WORDS);
const PRAISE = new Set(PRAISE_SUPERLATIVES);
const FRACTIONS = new Set(FRACTION_WORDS);
const ONE_OF = new Set(ONE_OF_WORDS);
const COUNT_RANGE = new Set(COUNT_RANGE_WORDS);
const DETERMINER = new Set(DETERMINERS);
const TOWARD = new Set(TOWARD_WORDS);
const YEAR_BEFORE = new Set(YEAR_PREPOSITIONS);
const PRESENT = new Set(PRESENT_WORDS);
const PAST = new Set(PAST_WORDS);
const REQUEST = new Set(REQUEST_VERBS);
const ROUTE = new Set(ROUTE_VERBS);
const ARITHMETIC = new Set(ARITHMETIC_WORDS);
const UNLINKED_OPPOSITE_PAIRS = partners(UNLINKED_OPPOSITES);
const UNLINKED_SYNONYM_PAIRS = partners(UNLINKED_SYNONYMS);

const UNLINKED_SYNONYM_WORDS = [...new Set(UNLINKED_SYNONYMS.flat())];

/**
 * A word's forms that UNLINKED_SYNONYMS holds ("rebooting": reboot). Most words start with none of its words and stop
 * before the lexicon is asked: this runs for every pair of words the lexicon did not link.
 */
const listedForms = (word: string) =>
  UNLINKED_SYNONYM_WORDS.some((listed) => word.startsWith(listed)) ? [word, ...lemmasOf(word)].filter((form) => UNLINKED_SYNONYM_WORDS.includes(form)) : [];

/** Two words of the same sense that WordNet does not link ("rebooting" / "restart"), in any form. */
function unlinkedSynonyms(x: string, y: string): boolean {
  const formsX = listedForms(x);
  return formsX.length > 0 && listedForms(y).some((v) => formsX.some((u) => UNLINKED_SYNONYM_PAIRS.get(u)?.has(v)));
}

/** Whether a side names a move from one end to another ("convert", "migrating"); see ROUTE_VERBS. */
const namesRoute = (s: Side) => s.content.some((word) => ROUTE.has(word) || lemmasOf(word).some((lemma) => ROUTE.has(lemma)));

/** Whether a text asks: it ends in a question mark (a URL's "?" or code's "?." asks nothing), or opens with a request ("Write ...", "Please explain ..."). */
const asks = (text: string, words: readonly string[]) =>
  /\?["'”’)\]]*\s*$/u.test(text) || REQUEST.has(words[0] ?? "") || (words[0] === "please" && REQUEST.has(words[1] ?? ""));

/**
 * "from" facing "to" (or "into", ...): the same route read from its other end ("from Delhi to Mumbai" / "to Mumbai
 * from Delhi"), and "replacedby" facing "instead" ("replace oil with butter" / "butter instead of oil").
 */
const FACING_PAIRS = new Set([...TOWARD].map((toward) => `from ${toward}`).concat(`${REPLACED_BY_WORD} instead`));
const facing = (x: string, y: string) => FACING_PAIRS.has(`${x} ${y}`) || FACING_PAIRS.has(`${y} ${x}`);

/**
 * Whether a side asks the distance between two places, which reads the same both ways ("How far is the Sun from
 * Earth?" / "How far is Earth from the Sun?", "the distance from Mumbai to Delhi"): its question phrase asks a
 * distance, or "distance" comes before a "from" or "between"; not a conversion ("convert distance from miles to
 * km" names two units) nor "far" for "much" ("Is it far cheaper to fly from Delhi to Mumbai?").
 */
function asksDistance(s: Side): boolean {
  if (s.units.size >= 2) return false;
  const distance = s.words.findIndex((word) => word === "distance" || word === "distances");
  return s.phrase.kind === "distance" || (distance >= 0 && s.words.slice(distance + 1).some((word) => word === "from" || word === "between"));
}

/**
 * Whether a side's direction word reads as one end of a route: a "from" only with a "to" (or "into", ...) beside it
 * ("from Delhi to Mumbai"; "keep my cat from biting" / "train my cat to stop biting" names no route).
 */
const routeEnd = (s: Side, word: string) => word !== "from" || s.words.some((other) => TOWARD.has(other));

/** What the alignment of two questions found; each flag is a candidate veto (lexical-vetoes.json keeps the ones chosen). */
export interface Alignment extends Readonly<Record<AlignmentVeto, boolean>> {
  /** Content words of each side that matched nothing on the other. */
  readonly unmatched: readonly [readonly string[], readonly string[]];
  /** A word of one side whose antonym the other side has instead ("largest" / "smallest"). */
  readonly antonym: boolean;
  /**
   * One content word replaced, in the same place (a matched word next to it on either side, or both at the
   * same end), by one that is neither a synonym nor linked, the rest the same ("dogs" / "cats").
   */
  readonly substitution: boolean;
  /** Two or three content words in all replaced so, at least two others the same ("meters per second" / "miles per hour"). */
  readonly wideSubstitution: boolean;
  /**
   * Two noun phrases trade places around the same word between them: who does what to whom is turned round
   * ("a landlord evict a tenant" / "a tenant evict a landlord"); or one side asks for a verb's subject where the
   * other asks for its object ("Who taught Aristotle?" / "Who did Aristotle teach?", alignment-question-role.ts).
   */
  readonly argumentSwap: boolean;
  /**
   * One side counts several of what the other takes one of ("a cake" / "two cakes"), or, neither naming a
   * number, takes a part or a multiple of it ("half a cup", "twice the dose") where the other does not ("3/4" and
   * "three quarters" agree through their numbers).
   */
  readonly quantity: boolean;
  /**
   * One side asks for the extreme of a thing both name ("the heaviest elephant"), the other names no extreme
   * at all ("the weight of an elephant"). Only a word in -est before a shared content word reads so: "most"
   * also counts things ("most people"), "the easiest way to" qualifies no thing, and praise picks no extreme
   * ("the greatest examples", as "the best").
   */
  readonly superlative: boolean;
  /**
   * Words that trade places around a direction word ("Paris to London" / "London to Paris", "PDF to Word" / "Word
   * document to PDF"), or numbers and models ("from Windows 7 to Windows 10" / "from Windows 10 to Windows 7").
   */
  readonly swapped: boolean;
  /** One side has a short word, the other its opposite ("zoom in" / "zoom out"). */
  readonly oppositeSmallWord: boolean;
  /** One side asks for less ("less healthy", "fewest"), the other does not. */
  readonly diminishing: boolean;
  /**
   * One side takes in every member or the whole ("all tabs", "my entire history"), the other picks one or a part
   * ("a tab", "one search", "someone"); see alignment-scope.ts.
   */
  readonly scope: boolean;
  /** Both sides name numbers, not the same ones, digits and words alike ("2 plus 3" / "2+2", "two" / "four"). */
  readonly numberMismatch: boolean;
  /** The same name is followed by another model on each side ("Tesla Model 3" / "Tesla Model Y"); see alignment-models.ts. */
  readonly modelMismatch: boolean;
  /** The sides rank differently: "the third largest" is not "the largest" (an ordinal before a superlative). */
  readonly rank: boolean;
  /** Each side names a unit or currency the other does not ("seconds in a day" / "minutes in a day", "yen" / "yuan"). */
  readonly unitMismatch: boolean;
  /** One side asks about a year ("in 1950", "the 1800s"), the other, naming no number, about now ("What is the population of India?"). */
  readonly yearOneSided: boolean;
  /** Both sides tell a time from now, and not the same ("last week" / "next week", "tonight" / "last night"); see alignment-relative-time.ts. */
  readonly relativeTime: boolean;
  /** The sides ask for different kinds of answer ("how long" / "how far", "when" / "where"); see alignment-answer-kind.ts. */
  readonly answerKind: boolean;
  /** Both name the same units and each counts another one: a conversion turned round ("1 inch in cm" / "1 cm in inches"). */
  readonly conversion: boolean;
  /**
   * One side adds a name of one word and nothing else, the other leaving nothing unmatched: it asks about a narrower
   * thing ("Why is weed illegal?" / "Why is weed illegal in Italy?", "How do I uninstall Microsoft Office?" / "How do I
   * uninstall just Outlook from Microsoft Office?"). Not a word of a longer name ("Trump" / "Donald Trump").
   */
  readonly addedName: boolean;
  /**
   * Both sides own with "'s", and what one owns the other owns of ("my sister's husband" / "my husband's sister", "a
   * parent's debt" / "a child's debt" with the parent and the child on both sides, "my mother's brother's daughter" / "my
   * brother's mother's daughter").
   */
  readonly ownerSwap: boolean;
  /**
   * Two words or phrases trade places, every other word the same and in order, around no word that lets them ("Are cats
   * afraid of tigers?" / "Are tigers afraid of cats?", "Is New York ahead of London?" / "Is London ahead of New York?";
   * see placesTraded in alignment-arguments.ts), and neither side reads its values both ways ("compare", "or", ...).
   */
  readonly placesTraded: boolean;
  /**
   * One side makes a role of the other's another, by a word before it or a prefix ("the Vice President" / "the President",
   * "a subcontractor" / "a contractor", "my stepmother" / "my mother"; alignment-role-words.ts).
   */
  readonly roleChanged: boolean;
}

interface Side {
  readonly facts: QuestionFacts;
  readonly words: readonly string[];
  readonly content: readonly string[];
  /** Index in `words` of each content word. */
  readonly positions: readonly number[];
  /** Index in `words` of each direction word. */
  readonly directions: readonly number[];
  readonly numbers: ReadonlySet<string>;
  /** The models written after names ("Model Y"), and every model-like word. */
  readonly models: Models;
  readonly units: ReadonlySet<string>;
  /** The units it counts: named just after a number ("1 inch in cm": inch). */
  readonly counted: ReadonlySet<string>;
  /** Whether it names a rate ("3 dollars per pound", "$3/lb"), which counts its units both ways round and converts nothing. */
  readonly rate: boolean;
  /** The place an ordinal gives a superlative ("third largest": "3"), or "" for none. */
  readonly rank: string;
  /** Its first question phrase: the kind of answer it asks for ("how far": a distance) and the word that names it. */
  readonly phrase: QuestionPhrase;
  /** Every question phrase it opens (questionPhrasesOf), the first of them `phrase`. */
  readonly phrases: readonly QuestionPhrase[];
  /** Whether it asks: a question mark at its end, or a request ("Write a function that ..."). */
  readonly asks: boolean;
  /** The values on each side of its direction words ("from Windows 7 to Windows 10"); see alignment-routes.ts. */
  readonly route: readonly RouteStep[];
  /** Whether it reads its values both ways round ("different from", "compare", "or"; BOTH_WAYS_WORDS). */
  readonly bothWays: boolean;
  /** The arithmetic operations it asks between two numbers ("times" in "three times four"). */
  readonly operations: ReadonlySet<string>;
  /** The auxiliary it asks with when that sets a tense, "did" or "will", or "" (see ownAuxiliary). */
  readonly tense: string;
  /** The runs of its content words that spell a name ("harry", "potter"), as indexes (alignment-arguments.ts). */
  readonly names: readonly (readonly number[])[];
  /** Its verbs with who acts and who is acted on (alignment-arguments.ts). */
  readonly clauses: readonly Clause[];
}

/**
 * A lookup judges its question against each of its candidates, and a stored question meets many lookups: a
 * side is read once for each recent question. Sides are never changed after they are made.
 */
const RECENT_SIDES = new Lru<string, Side>(512);

/** The most pairs of content words the lexicon is asked about (a question has a few dozen words, not thousands). */
const MAX_LEXICON_PAIRS = 10_000;

const side = (text: string): Side => readRemembered(RECENT_SIDES, text, readSide);

function readSide(text: string): Side {
  const rewritten = [...SPELLED, ...PHRASAL, CONVERTING, ...COMPOUND, SUBSTITUTE_FOR, ...REPLACED_BY].reduce((spelled, [pattern, replacement]) => spelled.replace(pattern, replacement), text);
  const facts = questionFacts(rewritten);
  const words = facts.words;
  // "own" after a determiner or a possessive is no verb ("my own car", "Costco's own brand"); "will" after one is a noun ("a will", "my own will").
  const isContent = (word: string, i: number) =>
    facts.content.has(word) ||
    (STOPWORD_VERB.has(word) && i > 0 && !DETERMINER.has(words[i - 1]) && !facts.contracted.has(i - 1)) ||
    (STOPWORD_NOUN.has(word) && (DETERMINER.has(words[i - 1]) || (words[i - 1] === "own" && DETERMINER.has(words[i - 2]))));
  // A fraction's words are read with the numbers ("two thirds" and "2/3" are one value), not as content words.
  const spelledNumbers = wordNumbers(words);
  const positions = words.flatMap((word, i) =>
    isContent(word, i) && !WEAK.has(word) && !isNumber(word) && !spelledNumbers.fractionWords.has(i) && word.length > 1 ? [i] : [],
  );
  const fractions = digitFractions(text);
  const digits = [...fractions.values, ...(fractions.rest.match(/\d+(?:[.,]\d+)*/g) ?? []).map(withoutThousands)];
  const directions = words.flatMap((word, i) => (DIRECTION.has(word) ? [i] : []));
  const numbers = new Set([...digits, ...spelledNumbers.values]);
  const content = positions.map((i) => words[i]);
  const phrases = questionPhrasesOf(words, facts.starts, facts.contracted);
  // Who acts on whom is read only where a question is (MAX_LONG_QUESTION_WORDS): a long prompt's clauses are never compared.
  const short = content.length <= MAX_LONG_QUESTION_WORDS;
  const names = short ? namesOf({ words, content, positions, facts }) : [];
  return {
    facts,
    words,
    content,
    positions,
    directions,
    numbers,
    models: modelsOf(rewritten),
    units: unitsOf(rewritten, words),
    counted: countedUnitsOf(rewritten, words),
    rate: words.includes("per") || text.includes("/"),
    rank: rankOf(words),
    phrase: firstPhrase(phrases),
    phrases,
    asks: asks(text, words),
    route: routeOf(rewritten),
    bothWays: readsBothWays(words),
    operations: operationsOf(words),
    tense: ownAuxiliary(words),
    names,
    clauses: short ? clausesOf({ words, content, positions, facts }, names) : [],
  };
}

const EXTREMES = new Set(EXTREME_WORDS);
const NOT_SUPERLATIVE = new Set(EST_WORDS);
/** A superlative in -est ("largest", "fastest", "busiest"); not a word of its own in -est ("interest", "request"). */
const isEstSuperlative = (word: string) => word.length > 5 && word.endsWith("est") && !NOT_SUPERLATIVE.has(word);
const isSuperlative = (word: string) => EXTREMES.has(word) || isEstSuperlative(word);

/** Whether `x` asks for the extreme of one of its matched content words ("the heaviest elephant") and `y` names no extreme. */
function asksExtremeOfShared(x: Side, y: Side, isMatched: (k: number) => boolean): boolean {
  if (y.words.some(isSuperlative)) return false;
  return x.positions.some((position, k) => {
    const before = x.words[position - 1];
    return isMatched(k) && before !== undefined && isEstSuperlative(before) && !PRAISE.has(before);
  });
}

/** The place an ordinal gives the superlative after it ("third largest", "21st", "twenty-first tallest": "3", "21"), or "" (first or none). */
function rankOf(words: readonly string[]): string {
  for (let i = 0; i + 1 < words.length; i++) {
    if (!isSuperlative(words[i + 1]) || !/(?:st|nd|rd|th)$/.test(words[i])) continue;
    const digits = /^(\d+)(?:st|nd|rd|th)$/.exec(words[i]);
    let start = i;
    while (start > 0 && cardinal(words[start - 1]) !== undefined) start--;
    const run = digits ? undefined : numberRun(words, start);
    const place = digits ? Number(digits[1]) : run?.end === i + 1 ? run.value : undefined;
    if (place !== undefined && place > 1) return String(place);
  }
  return "";
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

/** Whether word `name` of one side is a name whose initials are word `initials` of the other, written in capitals. */
const standsFor = (facts: QuestionFacts, name: string, other: QuestionFacts, initials: string) =>
  facts.nameInitials.get(name) === initials && other.acronyms.has(initials);

/** A short form's word, its plural too ("dicts": "dictionary"; base forms then match "dictionaries"). */
function fullForm(word: string): string | undefined {
  const single = word.replace(/s$/, "");
  return Object.hasOwn(SHORT_FORMS, word) ? SHORT_FORMS[word] : Object.hasOwn(SHORT_FORMS, single) ? SHORT_FORMS[single] : undefined;
}

/** One word the short form of the other ("int" / "integer", "dicts" / "dictionaries"). */
function sameInFull(x: string, y: string): boolean {
  const fullX = fullForm(x);
  const fullY = fullForm(y);
  return (fullX !== undefined || fullY !== undefined) && sameWord(fullX ?? x, fullY ?? y);
}

/** Two words that name the same unit ("ounces" / "oz"). */
function sameUnit(x: string, y: string): boolean {
  const unit = unitNamed(x);
  return unit !== undefined && unit === unitNamed(y);
}

/** Question phrases asking for the same kind of answer match, whatever their words ("how long" / "how much time"). */
function matchPhrases(a: Side, b: Side, toB: number[], used: Set<number>): void {
  if (a.phrase.kind === "" || a.phrase.kind !== b.phrase.kind) return;
  const i = a.positions.indexOf(a.phrase.word);
  const j = b.positions.indexOf(b.phrase.word);
  if (i < 0 || j < 0) return;
  toB[i] = j;
  used.add(j);
}

/** Around one direction word: the matched content words (indexes into the side's content words) of the spans on each side. */
interface DirectionSpans {
  /** The direction word itself. */
  word: string;
  /** Its index in the side's words. */
  at: number;
  /** The index of the previous direction word, or -1. */
  previous: number;
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
      word: side.words[at],
      at,
      previous: from,
      before: matched.filter(([position]) => position > from && position < at).map(([, k]) => k),
      after: matched.filter(([position]) => position > at && position < to).map(([, k]) => k),
    };
  });
}

/**
 * A comparison stands before "than" on both sides ("Python faster than C++" / "C++ faster than Python"): the
 * matched word just before it is the relation, and its arguments are the words before that ("ordered"), unless
 * the relation reads the same both ways on either side ("different than": "symmetric"). "none" for no
 * comparison: "compare to" and "next to" read their arguments straight.
 */
function comparedAround(
  a: Side,
  b: Side,
  bothThan: boolean,
  beforeA: readonly number[],
  beforeB: readonly number[],
  toB: readonly number[],
): "ordered" | "symmetric" | "none" {
  const relationA = beforeA[beforeA.length - 1];
  const relationB = beforeB[beforeB.length - 1];
  if (!bothThan || beforeA.length < 2 || beforeB.length < 2 || toB[relationA] !== relationB) return "none";
  return SYMMETRIC.has(a.content[relationA]) || SYMMETRIC.has(b.content[relationB]) ? "symmetric" : "ordered";
}

/**
 * Whether the direction word at `at` is a "to" that may open a verb: not one before a determiner, a name or an
 * inflected word, which no verb after "to" is ("to a student", "to Germany", "to students", "to children"; "to pass",
 * "to discuss" may still open one).
 */
const mayOpenVerb = (s: Side, at: number) => {
  if (s.words[at] !== "to") return false;
  const next = s.words[at + 1] ?? "";
  const lemmas = lemmasOf(next);
  const inflected = lemmas.length > 0 && !lemmas.includes(next);
  return !DETERMINER.has(next) && !opensName(s, at + 1) && !inflected;
};

/** Most words of a name a "to" may stand before: "to South Korea", "to Papua New Guinea". */
const NAME_WORDS = 3;

/** Whether word `i` of a side opens one of its names ("south" in "to South Korea", "germany"). */
const opensName = (s: Side, i: number) => Array.from({ length: NAME_WORDS }, (_, n) => s.words.slice(i, i + n + 1).join("")).some((joined) => s.facts.entities.has(joined));

/**
 * Whether the "to" at `at` follows a relation that holds both ways ("close to", "married to"; SYMMETRIC_BEFORE_TO)
 * between two terms only: no third after it ("than", "but", ...; THIRD_TERM_WORDS) nor a possessive ("married to Anna's
 * sister").
 */
const relatesBothWays = (s: Side, at: number) =>
  s.words[at] === "to" &&
  SYMMETRIC_TO.has(s.words[at - 1] ?? "") &&
  !s.words.slice(at + 1).some((word) => THIRD_TERM.has(word)) &&
  ![...s.facts.contracted].some((i) => i > at);

/** Whether the "to" at `at` belongs to a passive, its agent just after ("children are lied to by parents", "listened to more by teachers"). */
const ofPassive = (s: Side, at: number) => s.words[at] === "to" && s.words.slice(at + 1, at + 3).includes("by");

/**
 * What a direction word reads against on the other side: a substitute word only against a substitute word ("use Quora
 * instead of Google" / "go to Quora instead of Google" is no swap), an order word only against itself ("before" /
 * "after" is an opposite small word), the others against each other.
 */
const readingOf = (word: string) => (SUBSTITUTE.has(word) ? "substitute" : ORDER.has(word) ? word : "direction");

/** How many words from a direction word a word still stands by it along a route: "convert a decimal number to binary". */
const NEAR_DIRECTION = 2;

/**
 * Most matched words before a direction word, on each side, whose first is read as a subject that may trade places
 * ("dogs catch the flu from"), a name counting as one ("South Korea export cars to").
 */
const SUBJECT_REACH = 3;

/** How many words content words `span` of a side make, a name of several counting as one. */
const wordsOf = (s: Side, span: readonly number[]) => span.length - s.names.reduce((extra, name) => extra + (name.length > 1 && name.every((k) => span.includes(k)) ? name.length - 1 : 0), 0);

/**
 * How many words before "than" both sides share as their comparison, nearest first: "faster" in "Python faster than
 * C++", "burn more calories" in "running burn more calories than walking" (at least the one comparedAround found).
 */
function sharedRelation(before: readonly number[], beforeB: readonly number[], toB: readonly number[]): number {
  let shared = 1;
  while (shared < before.length - 1 && shared < beforeB.length - 1 && toB[before[before.length - 1 - shared]] === beforeB[beforeB.length - 1 - shared]) shared++;
  return shared;
}

/**
 * Whether the words on the two sides of a direction word trade places ("miles to km" / "km to miles", "from
 * MySQL to PostgreSQL" / "from PostgreSQL to MySQL", "a file from my machine to a server" / "from a server to
 * my machine"): for a direction word of each side, the word just before it on one side is in the span after
 * it on the other, and the word just after it in the span before. Words a rewording merely moves elsewhere do
 * not count. Against a direction word facing it ("to" / "from"), the words cross when the route is the same
 * ("from Delhi to Mumbai" / "to Mumbai from Delhi"), and, where its "from" names a route, stand in the same
 * order when it is turned round ("from Delhi to Mumbai" / "to Delhi from Mumbai"). A word a side writes twice
 * tells no side of its direction word; where both sides name a route (ROUTE_VERBS), a word up to NEAR_DIRECTION
 * words from it stands by it too ("convert a decimal number to binary" / "a binary number to decimal").
 */
function crosses(a: Side, b: Side, toB: readonly number[]): boolean {
  if (asksDistance(a) && asksDistance(b)) return false;
  // A word written twice on a side stands on both sides of its direction word ("from Windows 7 to Windows 10").
  const once = (s: Side, k: number) => s.content.indexOf(s.content[k]) === s.content.lastIndexOf(s.content[k]);
  const spansB = spansAround(b, (j) => toB.includes(j) && once(b, j));
  const routes = namesRoute(a) && namesRoute(b);
  const bothWays = a.bothWays || b.bothWays;
  return spansAround(a, (i) => toB[i] >= 0 && once(a, i)).some(({ word, at, previous, before, after }) => {
    if (before.length === 0 || after.length === 0) return false;
    const first = toB[after[0]];
    // Along a route, words within NEAR_DIRECTION of the direction word stand by it too ("a decimal number to binary").
    const near = (k: number) => routes && Math.abs(a.positions[k] - at) <= NEAR_DIRECTION;
    return spansB.some((span) => {
      if (readingOf(word) !== readingOf(span.word)) return false;
      const relation = comparedAround(a, b, word === "than" && span.word === "than", before, span.before, toB);
      if (relation === "symmetric") return false;
      const last = toB[before[before.length - 1 - (relation === "ordered" ? sharedRelation(before, span.before, toB) : 0)]];
      if (!facing(word, span.word)) {
        if (relation === "ordered") return span.after.includes(last) && span.before.includes(first);
        // The first word of a short clause on both sides too, its subject ("Can dogs catch the flu from humans?"),
        // unless a side reads both ways ("different from"); not before a "to" that may open a verb ("the function
        // to apply ..." / "... is used to apply"), only one before a determiner ("give feedback to a student"), nor
        // after one: the verb opens that span ("have to hand his salary to his wife").
        const opensClause = !mayOpenVerb(a, at) && !mayOpenVerb(a, previous) && !mayOpenVerb(b, span.previous) && !ofPassive(a, at) && !ofPassive(b, span.at);
        const short = opensClause && wordsOf(a, before) <= SUBJECT_REACH && wordsOf(b, span.before) <= SUBJECT_REACH;
        const subject = short && !bothWays && !relatesBothWays(a, at) && !relatesBothWays(b, span.at) ? [toB[before[0]]] : [];
        const lasts = [last, ...subject, ...before.filter(near).map((k) => toB[k])];
        const firsts = [first, ...after.filter(near).map((k) => toB[k])];
        return lasts.some((j) => span.after.includes(j)) && firsts.some((j) => span.before.includes(j));
      }
      return routeEnd(a, word) && routeEnd(b, span.word) && span.before.includes(last) && span.after.includes(first);
    });
  });
}

/** Where `words` hold `phrase`, a word or a few ("too much"), as indexes. */
function placesOf(words: readonly string[], phrase: string): number[] {
  const parts = phrase.split(" ");
  return words.flatMap((_, i) => (parts.every((part, k) => words[i + k] === part) ? [i] : []));
}

/** The words just before and just after each place `words` hold `phrase` ("flows", "it" for "into" in "water flows into it"). */
function wordsAround(words: readonly string[], phrase: string): Array<readonly [string, string]> {
  const length = phrase.split(" ").length;
  return placesOf(words, phrase).flatMap((i) => (i > 0 ? [[words[i - 1], words[i + length] ?? ""] as const] : []));
}

/** Whether a word is a number, in digits or in words ("12", "three"). */
const isNumber = (word: string) => /^\d/.test(word) || cardinal(word) !== undefined;



/** The arithmetic operations asked between two numbers ("times" in "three times four"; not "how many times"). */
const operationsOf = (words: readonly string[]) =>
  new Set(ARITHMETIC_OPERATIONS.filter((operation) => wordsAround(words, operation).some(([before, after]) => isNumber(before) && isNumber(after))));

/**
 * The auxiliary a question asks with when it sets a tense, its first word or the one after its question words ("did"
 * in "When did ...?"), or ""; none before "you", which asks what the one answering lived through ("How did you know
 * you were ready?" asks what "How will I know I am ready?" does).
 */
function ownAuxiliary(words: readonly string[]): string {
  const at = words.findIndex((word) => !OPENER.has(word));
  const tense = at >= 0 && (PAST_AUXILIARY.has(words[at]) || FUTURE_AUXILIARY.has(words[at]));
  return tense && words[at + 1] !== "you" ? words[at] : "";
}

function hasOppositeSmallWord(a: Side, b: Side): boolean {
  const has = (s: Side, phrase: string) => (phrase.includes(" ") ? placesOf(s.words, phrase).length > 0 : s.words.includes(phrase));
  const exclusive = (x: string, y: string) => (has(a, x) && !has(a, y) && has(b, y) && !has(b, x)) || (has(a, y) && !has(a, x) && has(b, x) && !has(b, y));
  // Between the same words on both sides only: "flows into it" / "flows out of it", not "made out of bamboo" / "made into paper".
  const sameAround = ([x, y]: readonly [string, string]) =>
    exclusive(x, y) &&
    [[a, b], [b, a]].some(([s, t]) =>
      wordsAround(s.words, x).some(([before, after]) => wordsAround(t.words, y).some(([other, otherAfter]) => sameWord(before, other) && (after === otherAfter || sameWord(after, otherAfter)))),
    );
  const otherOperation = a.operations.size > 0 && b.operations.size > 0 && [...a.operations].every((operation) => !b.operations.has(operation));
  const otherTense = a.tense !== "" && b.tense !== "" && PAST_AUXILIARY.has(a.tense) !== PAST_AUXILIARY.has(b.tense);
  return OPPOSITE_SMALL_WORDS.some(([x, y]) => exclusive(x, y)) || OPPOSITE_AFTER_SAME_WORD.some(sameAround) || otherOperation || otherTense;
}

/**
 * Whether word `i` of one side and word `j` of the other sit between the same matched words (or at the same end), a
 * word that says "whole" just before either standing aside (`opensI`, `opensJ`: "a room" / "a whole house").
 */
function sameSlot(toB: readonly number[], i: number, j: number, lengthB: number, opensI = 0, opensJ = 0): boolean {
  const [firstI, firstJ] = [i - opensI, j - opensJ];
  const before = firstI === 0 ? firstJ === 0 : toB[firstI - 1] === firstJ - 1;
  const after = i === toB.length - 1 ? j === lengthB - 1 : toB[i + 1] === j + 1;
  return before || after;
}

/** Words that take the whole of the next one ("a whole house", "the entire house"). */
const WHOLE = new Set(WHOLE_WORDS);

/**
 * The content words of a side left for a substitution: its unmatched ones but a "whole" or an "entire" just before
 * another unmatched one ("a room" / "a whole house" replaces "room" by "house"; "a slice" / "a whole pizza" stays
 * "slice" against "whole"), and a "half" read as a number against the other side's fraction ("half a cup" / "1/2 cup").
 */
function leftForSubstitution(s: Side, other: Side, unmatched: (k: number) => boolean): number[] {
  const opensOther = (k: number) => WHOLE.has(s.content[k]) && unmatched(k + 1) && s.positions[k + 1] === s.positions[k] + 1;
  const halfNumber = readsHalf(s, other);
  return s.content.flatMap((_, k) => (unmatched(k) && !opensOther(k) && !(halfNumber && s.content[k] === "half") ? [k] : []));
}

/**
 * The count that starts at word `i`, in digits or in words, and where it ends ("30", "twenty two"). Words hold digits
 * only: "1,000" and "3.5" are two words each.
 */
const countAt = (words: readonly string[], i: number) => (/^\d+$/.test(words[i] ?? "") ? { value: Number(words[i]), end: i + 1 } : numberRun(words, i));

/** How far after a count or an article its noun may stand: past two words ("two large pizzas", "one birth control pill"). */
const NOUN_REACH = 3;

/**
 * Whether `x` counts several of a noun ("two cakes", "twenty one cakes", "two large pizzas") that `y` counts as one
 * ("a cake", "a large pizza"), and `y` names no such count itself ("an iPhone 7 case" / "iPhone 7 cases") nor one
 * as a least ("more than one moon"), nor counts after its article ("an 8-year-old" / "5 years old").
 */
function countsSeveralOfOne(x: Side, y: Side): boolean {
  // The words after each count of two or more that `y` does not name, a run read once from its first word ("twenty two
  // cakes" is 22, not also 2).
  const counted: string[] = [];
  for (let i = 0; i < x.words.length; i++) {
    const run = countAt(x.words, i);
    if (!run) continue;
    if (run.value >= 2 && !y.numbers.has(String(run.value))) counted.push(...x.words.slice(run.end, run.end + NOUN_REACH));
    i = run.end - 1;
  }
  if (counted.length === 0) return false;
  // The words `y` counts as one: the nouns just after "a", "an", "one" or "single", not after "than" nor before a
  // count ("an 8-year-old", "a 3 day trip").
  const after = (m: number) => {
    const next = y.words[m + 1] ?? "";
    return ONE_OF.has(y.words[m]) && y.words[m - 1] !== "than" && !/^\d/.test(next) && cardinal(next) === undefined ? y.words.slice(m + 1, m + 1 + NOUN_REACH) : [];
  };
  const ones = new Set(y.words.flatMap((_, m) => after(m)));
  // After "one" or "single" the count is said outright: the same word counts too ("one Advil" / "two Advil"); not the
  // pronoun ("How can one root a phone?") nor a fraction ("one and a half dozen", "one half").
  const saysOne = (word: string, m: number) =>
    (word === "one" && !isPronounOne(y.words, m) && y.words[m + 1] !== "and" && !FRACTIONS.has(y.words[m + 1])) || word === "single";
  const saidOne = new Set(y.words.flatMap((word, m) => (saysOne(word, m) ? after(m) : [])));
  const byStem = new Map<string, Set<string>>();
  for (const one of ones) byStem.set(stem(one), (byStem.get(stem(one)) ?? new Set()).add(one));
  // The noun in the plural against the singular ("glasses" / "glass"): a word both write alike is no count of one ("a good score").
  return counted.some((noun) => {
    if (saidOne.has(noun) && y.content.includes(noun)) return true;
    const sameStem = byStem.get(stem(noun));
    const otherForm = sameStem !== undefined && (sameStem.size > 1 || !sameStem.has(noun));
    return otherForm || lemmasOf(noun).some((lemma) => lemma !== noun && ones.has(lemma));
  });
}

const outsideRange = (value: number, [least, most]: readonly [number, number]) => value < least || value > most;

/**
 * Whether `x` counts a thing ("a dozen eggs", "12 eggs") that `y`, naming no number, gives a vague amount of that the
 * count lies outside ("a few eggs"; "a couple of beers" against any count but two). Not an ordinal ("my first few
 * customers" / "my first customers"), nor a count in a range ("2 or 3 eggs").
 */
function countsVagueAmount(x: Side, y: Side): boolean {
  if (y.numbers.size > 0) return false;
  const vague = y.words.flatMap((word, m) => (Object.hasOwn(VAGUE_AMOUNT_WORDS, word) ? [{ range: VAGUE_AMOUNT_WORDS[word], thing: thingCounted(y, m + 1) }] : []));
  if (vague.length === 0) return false;
  for (let i = 0; i < x.words.length; i++) {
    const run = countAt(x.words, i);
    if (!run) continue;
    const ranged = COUNT_RANGE.has(x.words[i - 1]) || COUNT_RANGE.has(x.words[run.end]) || countAt(x.words, run.end) !== undefined;
    const counted = Object.hasOwn(ORDINALS, x.words[i]) || ranged ? undefined : thingCounted(x, run.end);
    if (counted !== undefined && vague.some(({ range, thing }) => thing === counted && outsideRange(run.value, range))) return true;
    i = run.end - 1;
  }
  return false;
}

/**
 * The thing counted from `from` on, by stem: the last of the first run of content words within NOUN_REACH, "of" passed
 * over first ("a couple of beers", "a few large eggs", "a few slices of bread": "slices").
 */
function thingCounted(s: Side, from: number): string | undefined {
  const start = s.words[from] === "of" ? from + 1 : from;
  const window = s.words.slice(start, start + NOUN_REACH);
  const first = window.findIndex((word) => s.content.includes(word));
  if (first < 0) return undefined;
  let last = first;
  while (last + 1 < window.length && s.content.includes(window[last + 1])) last++;
  return stem(window[last]);
}

/** Words between a fraction and what it takes a part of ("half of a cup", "twice the dose"). */
const FRACTION_LINKS = new Set(["of", "a", "an", "the"]);

/**
 * Whether a side takes a part or a multiple of one of its matched content words: the fraction just before it,
 * but for "of", "a", "an" and "the" ("half of a cup", "twice the dose"), or "in half" just after it ("cut a
 * recipe in half"). A fraction of something else ("English in half a year") does not count.
 */
function takesFractionOf(s: Side, isMatched: (k: number) => boolean): boolean {
  return s.positions.some((position, k) => {
    if (!isMatched(k)) return false;
    let before = position - 1;
    while (before >= 0 && FRACTION_LINKS.has(s.words[before])) before--;
    const inHalfAfter = s.words[position + 1] === "in" && FRACTIONS.has(s.words[position + 2]) && !FRACTION_LINKS.has(s.words[position + 3]);
    return (before >= 0 && FRACTIONS.has(s.words[before])) || inHalfAfter;
  });
}

/** Several against one, a count against a vague amount, or (neither naming a number) a part or a multiple of a shared thing against none. */
function quantityDiffers(a: Side, b: Side, matchedA: (k: number) => boolean, matchedB: (k: number) => boolean): boolean {
  if (countsSeveralOfOne(a, b) || countsSeveralOfOne(b, a) || countsVagueAmount(a, b) || countsVagueAmount(b, a)) return true;
  return a.numbers.size + b.numbers.size === 0 && takesFractionOf(a, matchedA) !== takesFractionOf(b, matchedB);
}

/** A year or a decade, as digits ("1950", "1990s"). */
const YEAR = /^(?:1[0-9]|20)\d\ds?$/;

/**
 * Whether a side names a year: digits after a word that places them in time ("in 1950", "since 2010", "the
 * 1990s"), not an amount or a model ("a 1200 calorie diet", "RTX 2080", "1080p").
 */
const namesYear = (s: Side) =>
  s.words.some((word, i) => YEAR.test(word) && (YEAR_BEFORE.has(s.words[i - 1]) || (s.words[i - 1] === "the" && word.endsWith("s"))));

/** Whether a side asks in the present ("What is the population of India?"), not the past ("Why did the Titanic sink?"). */
const readsPresent = (s: Side) => s.words.some((word) => PRESENT.has(word)) && !s.words.some((word) => PAST.has(word));

/** Whether `x` asks about a year and `y`, naming no number, about now. */
const namesYearAlone = (x: Side, y: Side) => y.numbers.size === 0 && namesYear(x) && readsPresent(y);

const sameSet = (x: ReadonlySet<string>, y: ReadonlySet<string>) => x.size === y.size && [...x].every((item) => y.has(item));

/** Whether the sides convert between the same units, each from another one (the units they count have none in common). */
const convertsOtherWay = (a: Side, b: Side) =>
  a.units.size >= 2 &&
  sameSet(a.units, b.units) &&
  a.counted.size > 0 &&
  b.counted.size > 0 &&
  ![...a.counted].some((unit) => b.counted.has(unit)) &&
  !a.rate &&
  !b.rate;

/** The adjectives a comparative may come from: "longer" long, "bigger" big, "larger" large, "heavier" heavy. */
function comparedAdjectives(word: string): string[] {
  if (!word.endsWith("er") || word.length < 5) return [];
  const stem = word.slice(0, -2);
  const undoubled = stem.length > 2 && stem.at(-1) === stem.at(-2) ? [stem.slice(0, -1)] : [];
  return [stem, `${stem}e`, ...undoubled, ...(stem.endsWith("i") ? [`${stem.slice(0, -1)}y`] : [])];
}

/** Two antonyms, or two opposites WordNet does not link ("greater" / "smaller", "compress" / "extract"), in any form but a participle. */
const antonymous = (x: string, y: string) =>
  areAntonyms(x, y) || formsOf(x).some((u) => formsOf(y).some((v) => UNLINKED_OPPOSITE_PAIRS.get(u)?.has(v)));

/** A word and its base forms, unless it is a participle ("compressed" names a state, not the action). */
const formsOf = (word: string) => (word.endsWith("ed") ? [word] : [word, ...lemmasOf(word)]);

/** The adjectives a verb in -en makes ("tighten": tight, "loosen": loose, "widened": wide), or none. */
function madeFrom(verb: string): string[] {
  const stem = /^(\p{L}{3,})en(?:s|ed|ing)?$/u.exec(verb)?.[1];
  if (stem === undefined) return [];
  // "fatten": fat, as comparatives double it ("fatter").
  const undoubled = /([b-df-hj-np-tv-z])\1$/.test(stem) ? [stem.slice(0, -1)] : [];
  return [stem, `${stem}e`, ...undoubled];
}

/** The verbs in -en of both sides, with the adjectives each makes (madeFrom, read once a word). */
type MadeFrom = ReadonlyMap<string, readonly string[]>;

function verbsInEn(words: readonly string[]): MadeFrom {
  return new Map(words.map((word) => [word, madeFrom(word)] as const).filter(([, made]) => made.length > 0));
}

/**
 * The pairs of an adjective and its verb in -en across the sides ("loose" / "loosen", "tightens" / "tight"), matched
 * to each other or both left over.
 */
function madePairs(a: readonly string[], b: readonly string[], toB: readonly number[], used: ReadonlySet<number>, lexicon: boolean, made: MadeFrom): Array<[string, string]> {
  // Most questions hold no verb in -en: then nothing pairs.
  if (made.size === 0) return [];
  const makes = (i: number, j: number) => made.get(a[i])?.includes(b[j]) === true || made.get(b[j])?.includes(a[i]) === true;
  const pairs = toB.flatMap((j, i): Array<[string, string]> => (j >= 0 && makes(i, j) ? [[a[i], b[j]]] : []));
  if (!lexicon) return pairs;
  const taken = new Set<number>();
  a.forEach((x, i) => {
    if (toB[i] >= 0) return;
    const j = b.findIndex((_, k) => !used.has(k) && !taken.has(k) && makes(i, k));
    if (j < 0) return;
    taken.add(j);
    pairs.push([x, b[j]]);
  });
  return pairs;
}

/** Verbs that make opposites, or one that makes the opposite of the other word: "tighten" / "loosen", "widen" / "narrow". */
function oppositeMakings(x: string, y: string, made: MadeFrom): boolean {
  const fromX = made.get(x);
  const fromY = made.get(y);
  if (fromX === undefined && fromY === undefined) return false;
  return (fromX ?? [x]).some((u) => (fromY ?? [y]).some((v) => areAntonyms(u, v)));
}

/** Two comparatives of opposite adjectives ("longer" / "shorter", "faster" / "slower"), or two antonyms. */
const opposite = (x: string, y: string) =>
  antonymous(x, y) || comparedAdjectives(x).some((adjective) => comparedAdjectives(y).some((other) => areAntonyms(adjective, other)));

/** Whether a side's word stands before its last "than". */
const beforeThan = (s: Side, word: string) => s.words.includes(word) && s.words.indexOf(word) < s.words.lastIndexOf("than");

/** Whether `word` of a side is a comparative before its "than" ("longer ... than", "better than", "more expensive than"). */
function comparesBeforeThan(s: Side, word: string): boolean {
  const comparative = comparedAdjectives(word).length > 0 || lemmasOf(word).some((lemma) => lemma !== word) || s.words[s.words.indexOf(word) - 1] === "more";
  return comparative && beforeThan(s, word);
}

/**
 * Whether the sides make one comparison from its two ends ("Is the Amazon longer than the Nile?" / "Is the Nile
 * shorter than the Amazon?", "more popular than" / "less popular than"): their only unmatched words are opposite
 * comparatives, each before its "than" (not "more rich people than monks" / "more monks than poor people"), or
 * "less" or "fewer" against "more"; each side makes one comparison of two plain ends (not "Is 7 greater than 5
 * times 2?" / "Is 5 smaller than 7 times 2?").
 */
const readsConversely = (a: Side, b: Side, leftA: readonly string[], leftB: readonly string[]) =>
  comparesPlainEnds(a) &&
  comparesPlainEnds(b) &&
  ((leftA.length === 1 && leftB.length === 1 && opposite(leftA[0], leftB[0]) && comparesBeforeThan(a, leftA[0]) && comparesBeforeThan(b, leftB[0])) ||
    (leftA.length + leftB.length > 0 &&
      [...leftA, ...leftB].every((word) => DIMINISHING.has(word)) &&
      comparesOnly(a) &&
      comparesOnly(b) &&
      (moreAgainstLess(a, b) || moreAgainstLess(b, a))) ||
    comparativeAgainstLess(a, b, [...leftA, ...leftB]) ||
    comparativeAgainstLess(b, a, [...leftA, ...leftB]));

/**
 * Whether `x` compares with a word's comparative and `y` with "less" and the word ("healthier than" / "less healthy
 * than", "heavier than" / "less heavy than"), and nothing else is left unmatched.
 */
function comparativeAgainstLess(x: Side, y: Side, left: readonly string[]): boolean {
  const lessAt = y.words.indexOf("less");
  if (lessAt < 0 || !beforeThan(y, "less")) return false;
  const base = y.words[lessAt + 1];
  const comparative = x.words.find((word) => word !== base && beforeThan(x, word) && [...comparedAdjectives(word), ...lemmasOf(word)].includes(base));
  return comparative !== undefined && left.every((word) => word === "less" || word === base || word === comparative);
}

/** One "than" and no word that changes a value ("times", "squared"). */
const comparesPlainEnds = (s: Side) => s.words.filter((word) => word === "than").length === 1 && !s.words.some((word) => ARITHMETIC.has(word));

/** Whether a side's only direction word is its comparison's "than" (no route that might be what turned round). */
const comparesOnly = (s: Side) => s.directions.length > 0 && s.directions.every((at) => s.words[at] === "than");

/** Whether `x` compares with "more" and `y` with "less" or "fewer" ("more popular than" / "less popular than"), each before its "than". */
const moreAgainstLess = (x: Side, y: Side) => beforeThan(x, "more") && !beforeThan(x, "less") && (beforeThan(y, "less") || beforeThan(y, "fewer")) && !beforeThan(y, "more");

/** Whether `word` of a side follows "less" or "least" ("the least expensive"). */
const diminished = (s: Side, word: string) => DIMINISHING.has(s.words[s.words.indexOf(word) - 1]);

/**
 * Whether a side says it cannot do the word ("can't remember", "unable to find"), which is doing its opposite
 * ("forgot", "lost"); other negations are not ("don't raise" is not "lower", "didn't find" not "lost").
 */
function unableTo(s: Side, word: string): boolean {
  const i = s.words.indexOf(word);
  const before = s.words[i - 1]?.replace("’", "'");
  return i > 0 && (UNABLE.has(before) || (before === "to" && s.words[i - 2] === "unable"));
}

/** Whether each "less" or "least" of a side asks for less of a word whose opposite the other side has unmatched ("least expensive" / "cheapest"). */
const diminishesOpposite = (s: Side, otherLeft: readonly string[]) =>
  s.words.some((word) => DIMINISHING.has(word)) &&
  s.words.every((word, i) => !DIMINISHING.has(word) || (i + 1 < s.words.length && otherLeft.some((other) => opposite(s.words[i + 1], other))));

/** The value of the number that starts at `at`, past an "a" ("600", "a thousand"), or undefined. */
const numberAt = (words: readonly string[], at: number) => countAt(words, words[at] === "a" ? at + 1 : at)?.value;

/** The number a "less than" or "fewer than" at `i` bounds ("less than a thousand dollars"), not after "no" or "not" ("no less than 3 months"). */
const boundedByLess = (words: readonly string[], i: number) => (words[i + 1] === "than" && words[i - 1] !== "no" && words[i - 1] !== "not" ? numberAt(words, i + 2) : undefined);

/** The numbers a side bounds with "under" or "below" (BOUNDS_BELOW: "a laptop under $1000"). */
const boundedBelow = (words: readonly string[]) => words.flatMap((word, i) => (BOUND_BELOW.has(word) ? [numberAt(words, i + 1)] : []));

/**
 * Whether a side asks for less, against `other`: a "less than" bounding a number that `other` bounds with "under" or
 * "below" is the same limit ("a laptop under $1000" / "for less than a thousand dollars"); against a bare number, "over"
 * or another number it still differs ("a credit score less than 600" / "of 600").
 */
const diminishes = (s: Side, other: Side) =>
  s.words.some((word, i) => {
    if (!DIMINISHING.has(word)) return false;
    const bound = boundedByLess(s.words, i);
    return bound === undefined || !boundedBelow(other.words).includes(bound);
  }) && !s.words.some((word) => word === "more" || word === "most");

/** A side as the scope reads it (alignment-scope.ts). */
const scopeSide = (s: Side, left: readonly string[]): PartSide => ({ words: s.words, content: s.facts.content, left, contracted: s.facts.contracted, entities: s.facts.entities });

/** A set against a pick of it, or a whole against a part, either way round (alignment-scope.ts). */
const scopeOrPartDiffers = (a: PartSide, b: PartSide) =>
  scopeDiffers(a, b, sameWord) || partOfWhole(a, b, sameWord) || partOfWhole(b, a, sameWord) || pickedApart(a, b, sameWord) || pickedApart(b, a, sameWord);

/** The candidate vetoes an alignment reports. */
export const ALIGNMENT_VETOES = ["antonym", "substitution", "wideSubstitution", "swapped", "argumentSwap", "quantity", "superlative", "oppositeSmallWord", "diminishing", "scope", "numberMismatch", "modelMismatch", "rank", "unitMismatch", "yearOneSided", "relativeTime", "answerKind", "conversion", "addedName", "ownerSwap", "placesTraded", "roleChanged"] as const;
export type AlignmentVeto = (typeof ALIGNMENT_VETOES)[number];

/**
 * A side's numbers as read against the other's: "half" is no number ("half an hour" / "30 minutes"), but against a
 * fraction it is one half ("half a pill" / "a quarter of a pill", "a half cup" / "1/2 cup", "one half" / "1/2"); against
 * "one hour", "half an hour" is 1/2 and "an hour" 1 (see againstOneOfTime).
 */
function numbersAgainst(s: Side, other: Side): ReadonlySet<string> {
  const read = [...(readsHalf(s, other) ? ["1/2"] : []), ...againstOneOfTime(s.words, other.words, s.numbers.size > 0)];
  return read.length > 0 ? new Set([...s.numbers, ...read]) : s.numbers;
}

/** Whether a side's "half" is read as a number against the other side's fraction (see numbersAgainst). */
const readsHalf = (s: Side, other: Side) => s.words.includes("half") && [...other.numbers].some((number) => number.includes("/"));

/** Whether one content word of `a` is replaced by one of `b` in the same place (sameSlot), the rest matched. */
function substituted(a: Side, b: Side, toB: readonly number[], used: ReadonlySet<number>): boolean {
  const leftA = leftForSubstitution(a, b, (k) => toB[k] < 0);
  const leftB = leftForSubstitution(b, a, (k) => !used.has(k));
  if (leftA.length !== 1 || leftB.length !== 1) return false;
  const [i, j] = [leftA[0], leftB[0]];
  const opens = (s: Side, k: number) => Number(k > 0 && WHOLE.has(s.content[k - 1]) && s.positions[k] === s.positions[k - 1] + 1 && (s === a ? toB[k - 1] < 0 : !used.has(k - 1)));
  return sameSlot(toB, i, j, b.content.length, opens(a, i), opens(b, j));
}

/** The content words a side writes with "'s", in order ("my mother's brother's daughter": mother, brother). */
const ownersOf = (s: Side) => s.positions.filter((i) => s.facts.contracted.has(i)).map((i) => s.words[i]);

/** Whether the two sides' owners trade places (see Alignment.ownerSwap). */
function ownersSwapped(a: Side, b: Side): boolean {
  const ownersA = ownersOf(a);
  const ownersB = ownersOf(b);
  if (ownersA.length === 0 || ownersB.length === 0) return false;
  const has = (words: readonly string[], word: string) => words.some((other) => sameWord(other, word));
  // An owner of one side that the other names but does not own.
  const ownedOnlyBy = (owners: readonly string[], otherOwners: readonly string[], other: Side) => owners.filter((word) => !has(otherOwners, word) && has(other.content, word));
  const onlyA = ownedOnlyBy(ownersA, ownersB, b);
  const onlyB = ownedOnlyBy(ownersB, ownersA, a);
  if (onlyA.length > 0 && onlyB.length > 0) return true;
  // The same owners in another order.
  return ownersA.length > 1 && ownersA.length === ownersB.length && ownersA.every((word) => has(ownersB, word)) && ownersA.some((word, k) => !sameWord(word, ownersB[k]));
}

/**
 * Whether a side's only unmatched word is a name of one word, in letters (not a model, "B12" / "B-12", nor a unit written
 * in capitals, "mL"), and the other side leaves nothing (see Alignment.addedName), nor names it by another of its names
 * where that name is no content word ("in Go" / "in Golang").
 */
const addsName = (s: Side, left: readonly string[], otherLeft: readonly string[], other: Side) =>
  left.length === 1 &&
  otherLeft.length === 0 &&
  s.facts.entities.has(left[0]) &&
  /^\p{L}+$/u.test(left[0]) &&
  unitNamed(left[0]) === undefined &&
  ![...other.facts.entities].some((name) => sameNamed(s.facts, left[0], other.facts, name));

/** Whether `word` of a side is initials ending in a capital S ("HTTPS") and `other` of the other text its rest, written in capitals ("HTTP"). */
function endsInCapitalS(s: Side, text: string, word: string, other: string, otherText: string): boolean {
  if (!s.facts.acronyms.has(word) || word !== `${other}s` || !/\p{Ll}/u.test(text)) return false;
  return new RegExp(`\\b${other.toUpperCase()}\\b`, "u").test(otherText);
}

/** Aligns two questions (see the module's comment). */
export function alignQuestions(textA: string, textB: string): Alignment {
  const a = side(textA);
  const b = side(textB);
  const toB = a.content.map(() => -1);
  const used = new Set<number>();
  matchPhrases(a, b, toB, used);
  // Initials ending in a capital S are no plural where the other side writes the rest in capitals: "HTTPS" is not
  // "HTTP"; "GPUS" is "GPUs", and a text all in capitals says nothing ("WHAT ARE THE BEST SSDS").
  const initialsApart = (x: string, y: string) => endsInCapitalS(a, textA, x, y, textB) || endsInCapitalS(b, textB, y, x, textA);
  // The very same word first, so that a base form does not take another's partner ("mentor" / "mentoring session").
  matchWords(a.content, b.content, toB, used, (x, y) => x === y && !initialsApart(x, y));
  // Base forms, the lexicon, names and units only between a question's words, not a long prompt's thousands against
  // another's: millions of lookups. Its words then stay unmatched, and no antonyms are looked for among them (the
  // guard's opposite actions still are).
  const lexicon = a.content.length * b.content.length <= MAX_LEXICON_PAIRS;
  if (lexicon) {
    matchWords(a.content, b.content, toB, used, (x, y) => sameWord(x, y) && !initialsApart(x, y));
    // The lexicon only for what the words themselves did not settle.
    matchWords(a.content, b.content, toB, used, (x, y) => {
      const relation = wordRelation(x, y);
      return (relation === "synonym" || relation === "linked" || unlinkedSynonyms(x, y)) && !initialsApart(x, y);
    });
    // A name written as its initials ("JS" for "JavaScript") or another of its names ("Postgres"), a unit as its abbreviation ("oz" for "ounces").
    matchWords(
      a.content,
      b.content,
      toB,
      used,
      (x, y) => standsFor(a.facts, x, b.facts, y) || standsFor(b.facts, y, a.facts, x) || sameNamed(a.facts, x, b.facts, y) || sameUnit(x, y) || sameInFull(x, y),
    );
  }
  const leftA = a.content.filter((_, i) => toB[i] < 0);
  const leftB = b.content.filter((_, j) => !used.has(j));
  const matched = toB.filter((j) => j >= 0).length;
  const replaced = leftA.length > 0 && leftB.length > 0;
  // A rewording moves and replaces words freely in a long statement, not in a question or a request (MAX_QUESTION_WORDS).
  const longest = Math.max(a.content.length, b.content.length);
  const questions = longest <= MAX_QUESTION_WORDS || (a.asks && b.asks && longest <= MAX_LONG_QUESTION_WORDS);
  const matchedA = (k: number) => toB[k] >= 0;
  const matchedB = (k: number) => used.has(k);
  // An adjective paired with its verb in -en, matched or left over ("loose" / "loosen", "tighten" / "tight"): the
  // verb may still face its opposite ("tighten a loose hinge" / "loosen a tight hinge"), the adjective is settled
  // ("loosen or tighten" / "become loose or tight").
  const verbs = verbsInEn([...a.content, ...b.content]);
  const made = madePairs(a.content, b.content, toB, used, lexicon, verbs);
  const makesFrom = (verb: string, adjective: string) => verbs.get(verb)?.includes(adjective) === true;
  const openA = [...leftA.filter((x) => !made.some(([u]) => u === x)), ...made.flatMap(([x, y]) => (makesFrom(x, y) ? [x] : []))];
  const openB = [...leftB.filter((y) => !made.some(([, v]) => v === y)), ...made.flatMap(([x, y]) => (makesFrom(y, x) ? [y] : []))];
  // "the least expensive" is "the cheapest", "can't remember" is "forgot": an antonym after "less" or "least", or
  // after "can't", on one side only names the same end.
  const antonym =
    lexicon && openA.some((x) => openB.some((y) => (antonymous(x, y) || oppositeMakings(x, y, verbs)) && diminished(a, x) === diminished(b, y) && unableTo(a, x) === unableTo(b, y)));
  // Values turned round in a statement as in a question ("from Windows 7 to Windows 10" / "from Windows 10 to Windows 7").
  const crossed = (questions && crosses(a, b, toB)) || (longest <= MAX_LONG_QUESTION_WORDS && routesTurned(a.route, b.route));
  const converse = crossed && readsConversely(a, b, leftA, leftB);
  return {
    unmatched: [leftA, leftB],
    antonym: antonym && !converse,
    substitution: questions && replaced && substituted(a, b, toB, used) && matched > 0 && !converse,
    wideSubstitution: replaced && leftA.length + leftB.length <= 4 && matched >= 2,
    swapped: crossed && !converse,
    argumentSwap: questions && (swapsArguments(a, b, toB, sameWord) || asksOtherRole(a, b, toB)),
    superlative: questions && (asksExtremeOfShared(a, b, matchedA) || asksExtremeOfShared(b, a, matchedB)),
    quantity: quantityDiffers(a, b, matchedA, matchedB),
    oppositeSmallWord: hasOppositeSmallWord(a, b) && !converse,
    diminishing: diminishes(a, b) !== diminishes(b, a) && !diminishesOpposite(a, leftB) && !diminishesOpposite(b, leftA) && !converse,
    scope: questions && scopeOrPartDiffers(scopeSide(a, leftA), scopeSide(b, leftB)),
    numberMismatch: numbersDiffer(numbersAgainst(a, b), numbersAgainst(b, a)),
    modelMismatch: modelsDiffer(a.models, b.models),
    rank: a.rank !== b.rank,
    unitMismatch: questions && [...a.units].some((unit) => !b.units.has(unit)) && [...b.units].some((unit) => !a.units.has(unit)),
    yearOneSided: questions && (namesYearAlone(a, b) || namesYearAlone(b, a)),
    relativeTime: questions && onlyTimesLeft(leftA) && onlyTimesLeft(leftB) && relativeTimesDiffer(relativeTimesOf(textA, a.words), relativeTimesOf(textB, b.words)),
    answerKind: answerKindsDiffer(a.phrases, b.phrases),
    conversion: convertsOtherWay(a, b),
    addedName: questions && (addsName(a, leftA, leftB, b) || addsName(b, leftB, leftA, a)),
    ownerSwap: questions && ownersSwapped(a, b),
    placesTraded: !a.bothWays && !b.bothWays && placesTraded(a.words, b.words, textA, sameWord),
    roleChanged: questions && (changesRole({ words: a.words, left: leftA }, { words: b.words, left: leftB }, sameWord) || changesRole({ words: b.words, left: leftB }, { words: a.words, left: leftA }, sameWord)),
  };
}
