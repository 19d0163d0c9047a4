/**
 * The hand-written lists the question alignment (alignment.ts) reads. They are versioned with the vetoes chosen on
 * them (see lexical-vetoes.json and scripts/fit-vetoes.ts; a test fails when they change without a new fit), through
 * ALIGNMENT_LISTS below.
 */
import {
  ALIKE_KINDS,
  DISTANCE_NOUNS,
  EFFECT_AUXILIARIES,
  EFFECT_PASSIVES,
  FINDING_VERBS,
  FOUND_QUESTIONS,
  HOW_KINDS,
  HAPPENING_AUXILIARIES,
  HAPPENING_VERBS,
  QUESTION_JOINERS,
  KIND_BREAKERS,
  KIND_NOUNS,
  MEASURE_ASKERS,
  MEASURE_HOLDERS,
  MEASURES,
  METHOD_ASKERS,
  METHOD_AUXILIARIES,
  OF_KIND_NOUNS,
  PASSIVE_BE_FORMS,
  PHRASE_PREPOSITIONS,
  QUESTION_AUXILIARIES,
  TIME_NOUNS,
} from "./alignment-answer-kind.js";
import { NOT_A_MODEL, NOT_BEFORE_A_LETTER, NUMBERED_NOUNS, SIGN_WORDS } from "./alignment-models.js";
import { AMBIGUOUS_NUMBER_WORDS, COUNTED_TIMES, DENOMINATORS, ORDINALS, SCALES, TENS, UNITS } from "./alignment-numbers.js";
import { DAYS_OF_THE_WEEK, PARTS_OF_A_DAY, RELATIVE_DAYS, RELATIVE_TIME_NOUNS, RELATIVE_TIME_WORDS, SPAN_NAMES } from "./alignment-relative-time.js";
import { ROLE_KIND, ROLE_MODIFIERS, ROLE_PREFIXES } from "./alignment-role-words.js";
import { DETERMINERS, SCOPE_LISTS } from "./alignment-scope.js";
import { AFTER_SECOND, BEFORE_ABBREVIATION, GIGA_AFTER, UNIT_ABBREVIATIONS, UNIT_COMPOUNDS, UNIT_KINDS, UNIT_KINDS_AFTER, UNIT_NAMES, UNIT_QUALIFIERS, UNIT_SIGNS } from "./alignment-units.js";
import { GUARD_LISTS } from "./guard-text.js";

/**
 * What "replace X with Y" and "exchange X for Y" are read as: "X replacedby Y", the other way round from "Y instead
 * of X" (see REPLACED_BY).
 */
export const REPLACED_BY_WORD = "replacedby";

/** Stopwords read as content words where they are verbs ("Which companies own Instagram?" / "Who owns Instagram?"): not after a determiner ("my own car"). */
export const STOPWORD_VERBS: readonly string[] = ["own"];

/** Stopwords read as content words where they are nouns, after a determiner ("the executor of a will", "a can of beans"). */
export const STOPWORD_NOUNS: readonly string[] = ["will", "can"];

/** Words that take the whole of the word after them: "a room" / "a whole house" replaces "room" by "house". */
export const WHOLE_WORDS: readonly string[] = ["whole", "entire"];

/** Words a rewording adds or drops without changing what is asked. */
export const WEAK_WORDS: readonly string[] = [
  // A substitute's direction word, read by its place ("X instead of Y"), not a word a rewording replaces ("Y replaced with X").
  "instead",
  REPLACED_BY_WORD,
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
  // Asking leave in other words: "Is it OK to freeze a cake?" asks "Can I freeze a cake?".
  "ok",
  "okay",
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
  // Asking for help in other words: "tips for public speaking" asks how to get better at it.
  "tips",
  "advice",
  "steps",
  "suggestions",
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
 * Most content words a side may have for a substitution, a swap, a superlative, a scope, a unit or a year to count,
 * unless both sides ask (end in a question mark, or open with a request: then MAX_LONG_QUESTION_WORDS; the other
 * vetoes read any length): in a
 * long statement one word in other words, a clause turned round ("X is used to teach Y" / "to teach Y, use X") or
 * a time in other units ("the last decade" / "the last 10 years") is a rewording; in a long question that repeats
 * every other word it is another question.
 */
export const MAX_QUESTION_WORDS = 9;

/**
 * Verbs that open a request ("Write a bash one-liner that counts the lines ...", "Please explain ..."): a request
 * asks as a question does, so one word changed in it asks for something else.
 */
export const REQUEST_VERBS: readonly string[] =
  "write explain summarize summarise describe list give show tell translate convert calculate compute create generate define compare sort suggest recommend".split(" ");

/** Most content words a question may have for those rules to read it: past it, a prompt is read as a statement (and the swap rules' cost stays bounded). */
export const MAX_LONG_QUESTION_WORDS = 40;

/** Words that say a thing cannot be done ("can't remember"): the opposite of doing it ("forgot"). */
export const INABILITY_WORDS: readonly string[] = ["can't", "cannot", "couldn't", "cant", "unable"];

/**
 * Direction words that name a substitute ("use butter instead of oil"): they read only against a substitute word on
 * the other side ("oil instead of butter" is turned round; "use Quora instead of Google" / "go to Quora instead of
 * Google" is not), "replacedby" against "instead" the other way round ("replace oil with butter" / "use butter
 * instead of oil" ask the same).
 */
export const SUBSTITUTE_WORDS: readonly string[] = ["instead", REPLACED_BY_WORD];

/** Phrases that name a substitute as "instead of" does, read as it ("tabs rather than spaces" is "tabs instead of spaces"). */
export const SUBSTITUTE_PHRASES: Readonly<Record<string, string>> = {
  "rather than": "instead of",
  "in place of": "instead of",
};

/**
 * A verb, not the noun written the same ("a substitute for sugar", "Substitute teachers ...", "the exchange rate
 * for"): its base forms after a pronoun, "to", "please" or a modal ("Can I substitute", "how to swap", "Can she
 * trade"), its other forms anywhere ("substituting", "traded"); `atStart`, its base forms opening the text too ("Swap
 * butter for oil in brownies"). Up to three spaces before it: a longer run would make the look back cost the square of
 * its length.
 */
const asVerb = (base: readonly string[], inflected: readonly string[], { atStart = false } = {}) =>
  String.raw`(?:(?<=${atStart ? String.raw`^\s{0,3}|` : ""}\b(?:i|you|we|they|he|she|it|one|people|to|please|can|could|should|must|will|would|may|might|shall)\s{1,3})(?:${base.join("|")})|\b(?:${inflected.join("|")}))\b`;

/** "replace", never a noun, wherever it stands ("Why did Apple replace Lightning with USB-C?"). */
const REPLACE_FORMS = String.raw`\b(?:replace|replaces|replaced|replacing)\b`;

/**
 * Up to four words after a verb, as few as can be: its first argument ("substitute honey for", "replace the old tabs
 * with"); not past a substitute already read ("be replaced replacedby honey with no change").
 */
const FIRST_ARGUMENT = String.raw`((?:\s+(?!${REPLACED_BY_WORD}\b)[\p{L}\p{N}'’-]+){1,4}?)`;

/** The verb "substitute" in any form (asVerb). */
const SUBSTITUTE_VERB = asVerb(["substitute", "substitutes"], ["substituted", "substituting"]);

/**
 * "substitute X for Y" uses X instead of Y: its "for", up to four words after the verb, read as "instead of"; not
 * "substitute for Y", which names no X.
 */
export const SUBSTITUTE_FOR: readonly [RegExp, string] = [
  new RegExp(String.raw`(${SUBSTITUTE_VERB})(?!\s+for\b)${FIRST_ARGUMENT}\s+for\b`, "giu"),
  "$1$2 instead of",
];

/** A passive's auxiliary, before a participle: "Can honey be substituted for sugar?". */
const PASSIVE = String.raw`\b(?:be|is|are|was|were|been|being|get|gets|got)\s+`;

/**
 * "replace X with Y", "substitute X with Y", "swap / exchange / trade X for Y": Y takes X's place,
 * read as "X replacedby Y" ("exchange dollars for euros" / "exchange euros for dollars" is turned round); in the
 * passive, "X be replaced with / by Y", "X be exchanged for Y" too, and "X be substituted for Y" as "X instead of Y".
 * Not "trade with" nor "exchange with" (a partner: "trade with China"), nor "swap X with Y", which reads the same
 * either way round ("swap rows with columns").
 */
export const REPLACED_BY: ReadonlyArray<readonly [RegExp, string]> = [
  [new RegExp(String.raw`(${PASSIVE}substituted)\s+for\b`, "giu"), "$1 instead of"],
  [new RegExp(String.raw`(${PASSIVE}(?:replaced|substituted))\s+(?:with|by)\b`, "giu"), `$1 ${REPLACED_BY_WORD}`],
  [new RegExp(String.raw`(${PASSIVE}(?:exchanged|traded|swapped))\s+for\b`, "giu"), `$1 ${REPLACED_BY_WORD}`],
  [
    new RegExp(String.raw`((?:${REPLACE_FORMS}|${SUBSTITUTE_VERB})${FIRST_ARGUMENT})\s+with\b`, "giu"),
    `$1 ${REPLACED_BY_WORD}`,
  ],
  [
    new RegExp(
      String.raw`(${asVerb(["exchange", "exchanges", "trade", "trades", "swap", "swaps"], ["exchanged", "exchanging", "traded", "trading", "swapped", "swapping"], { atStart: true })}(?!\s+with\b)${FIRST_ARGUMENT})\s+for\b`,
      "giu",
    ),
    `$1 ${REPLACED_BY_WORD}`,
  ],
];

/**
 * Direction words that put one thing ahead of another in time ("learn calculus before linear algebra"): read only
 * against the same word on the other side ("before a workout" / "after a workout" is an opposite small word).
 */
export const ORDER_WORDS: readonly string[] = ["before", "after"];

/** Words that give the words around them a direction: "miles to km" is not "km to miles". */
export const DIRECTION_WORDS: readonly string[] = ["to", "into", "from", "than", "vs", "versus", "onto", "toward", "towards", "over", "under", ...ORDER_WORDS, ...SUBSTITUTE_WORDS];

/** Direction words that point the other way from "from": "from Delhi to Mumbai" is "to Mumbai from Delhi". */
export const TOWARD_WORDS: readonly string[] = ["to", "into", "onto", "toward", "towards"];

/**
 * Verbs that move or turn a thing from one end to the other ("convert a decimal number to binary"): with one of
 * them a question's words near its "to" are its ends, where elsewhere a word near it is a relation both sides
 * keep ("How is the brain different from the mind?", "How does Python compare to Java?").
 */
export const ROUTE_VERBS: readonly string[] = ["convert", "translate", "change", "migrate", "switch", "move", "port", "upgrade", "downgrade", "transfer", "travel", "fly", "drive"];

/**
 * Words that make a text's values read both ways round, so that their order tells nothing: a comparison ("Compare
 * Windows 10 to Windows 11", "Is 0.999 repeating equal to 1?") or alternatives ("2 to the power of 10 or 10 to the
 * power of 2").
 */
export const BOTH_WAYS_WORDS: readonly string[] = [
  "compare", "compared", "compares", "comparing", "comparison", "similar", "same", "equal", "equals", "equivalent",
  "different", "differ", "differs", "difference", "or",
];

/**
 * Words between two that trade places that let them trade places and ask the same, besides BOTH_WAYS_WORDS and
 * the relations that hold both ways: "Python and Java", "Python vs Java", "between Python and Java", "Python with
 * Java", "Is tea as healthy as coffee?"; an operation that commutes ("7 times 8", "12 plus 15"; "25 percent of 80"
 * is "80 percent of 25"), a synonym.
 */
export const TRADING_BOTH_WAYS: readonly string[] = [
  "and", "vs", "versus", "between", "with", "nor", "both", "as", "times", "plus", "multiplied", "percent", "synonym", "synonyms",
  "while", "alongside", "together",
];

/**
 * Words anywhere in a text that let two words trade places: a distance ("How far is Paris from London?", "within walking
 * distance of", "How many miles is it from Los Angeles to San Francisco?").
 */
export const DISTANCE_WORDS: readonly string[] = ["far", "distance", "distances", "mile", "miles", "km", "kilometer", "kilometers", "kilometre", "kilometres"];

/** Before a relation's noun, words that make it one way: "the older brother of" is not "the younger brother of". */
export const ORDERING_KIN_WORDS: readonly string[] = ["older", "oldest", "younger", "youngest", "elder", "eldest", "big", "little"];

/**
 * Relations before "to" that hold both ways, so a clause's subject and the word after "to" may trade places: "Is Los
 * Angeles close to San Diego?" / "Is San Diego close to Los Angeles?", "Is Trump married to Melania?".
 */
export const SYMMETRIC_BEFORE_TO: readonly string[] = ["close", "near", "next", "adjacent", "married", "engaged", "related", "connected", "linked"];

/**
 * Words after such a relation's "to" that bring in a third term, between which and the others the relation no longer
 * holds both ways: "Is London close to Paris than to Berlin?", "close to Norway but far from Spain", "next to Mexico and
 * to Oklahoma".
 */
export const THIRD_TERM_WORDS: readonly string[] = ["than", "or", "but", "and"];

/** Comparisons before "than" that read the same both ways: "Python different than Java" asks of "Java different than Python". */
export const SYMMETRIC_WORDS: readonly string[] = ["different", "differ", "differs"];

/** Question words that ask for an argument of a verb: "Who taught Aristotle?" asks for its subject, "Who did Aristotle teach?" for its object. */
export const ROLE_QUESTION_WORDS: readonly string[] = ["who", "whom", "what", "which"];

/**
 * Auxiliaries that put a verb's subject after them and the verb after it ("did" in "Who did Aristotle teach?"); not
 * "is", which also makes the passive, nor "has", as often the verb itself ("Who has the highest ratio?").
 */
export const ROLE_AUXILIARIES: readonly string[] = "do does did will would can could should shall may might must".split(" ");

/** "has" and its forms as an auxiliary, only before a past participle: "Which companies has Google acquired?". */
export const PERFECT_AUXILIARIES: readonly string[] = ["has", "have", "had"];

/** Auxiliaries with no meaning of their own, after which the subject stands ("What do cats eat?"), where a modal may take the verb ("What can kill a lion?"). */
export const DO_AUXILIARIES: readonly string[] = ["do", "does", "did"];

/** Forms of "be" that make a passive with a past participle and "by": "Was Mozart taught by Haydn?", "Penicillin was discovered by Fleming". */
export const PASSIVE_AUXILIARIES: readonly string[] = "am is are was were be been being".split(" ");

/**
 * Relations that hold both ways, so asking for either argument asks the same ("Who did Kim marry?" / "Who married
 * Kim?", "Which countries border India?" / "Which countries does India border?"); not a contest's winner ("Who
 * defeated Napoleon?" / "Who did Napoleon defeat?").
 */
export const SYMMETRIC_RELATIONS: readonly string[] =
  "marry wed meet date border neighbor neighbour rhyme resemble equal match pair compete collaborate trade partner kiss".split(" ");

/** Words shortly after a verb that make its relation hold both ways: "compete with", "share a border with", "play against". */
export const BOTH_WAYS_AFTER_VERB: readonly string[] = ["with", "against", "alongside"];

/**
 * Contests: their two arguments trade places and ask the same who-wins question ("Can a pit bull beat a wolf?"),
 * though asking for one of them does not (see SYMMETRIC_RELATIONS).
 */
export const CONTEST_VERBS: readonly string[] = ["beat", "defeat", "fight", "debate"];

/**
 * Contests with a winner: between names and told in the past, one event whose winner turns round with its arguments
 * ("Did Ali defeat Foreman in 1974?" / "Did Foreman defeat Ali in 1974?"), though a fight both fought does not.
 */
export const WINNING_VERBS: readonly string[] = ["beat", "defeat"];

/**
 * Prepositions between a verb and its second argument that keep who acts on whom: "Does Bruce Wayne work for Lucius
 * Fox?", "Did Brutus vote for Caesar?", "Does a cat rely on its owner?"; not "with" or "against", which read both ways.
 */
export const VERB_PREPOSITIONS: readonly string[] = ["for", "on", "about", "at"];

/**
 * Particles between a verb and its second argument, read as one verb with it: "Did Ali knock out Frazier?", "Can a
 * dog chew up a shoe?".
 */
export const VERB_PARTICLES: readonly string[] = ["out", "up", "off", "down", "away", "back"];

/**
 * Personal pronouns that stand for a clause's argument, each person's forms together, its subject's first: "Should I
 * text my ex?" / "Should my ex text me?". "her" is a possessive before a content word ("her car"; see DETERMINERS).
 */
export const PERSONAL_PRONOUNS: readonly (readonly string[])[] = [["i", "me"], ["we", "us"], ["you"], ["he", "him"], ["she", "her"], ["they", "them"]];

/** Adverbs between a clause's first argument and its verb: "Has Brazil ever beaten Germany?", "Why does he never call me?". */
export const CLAUSE_ADVERBS: readonly string[] =
  "ever already really actually still finally recently even once never always just also often usually sometimes not".split(" ");

/**
 * Nouns of a relation that holds one way, read as a clause's verb between two arguments after "the" or "a" and before
 * "of" ("Is Darth Vader the father of Luke?" / "Is Luke the father of Darth Vader?"); a relation that may hold both
 * ways ("the brother of", "a neighbour of", "a rival of") is not among them.
 */
export const ONE_WAY_RELATION_NOUNS: readonly string[] = (
  "father mother parent son daughter child grandfather grandmother grandparent grandson granddaughter grandchild " +
  "uncle aunt nephew niece ancestor descendant husband wife owner boss employer employee teacher student mentor " +
  "creator founder author inventor capital subsidiary successor predecessor factor multiple divisor subset superset subclass superclass"
).split(" ");

/** What tells a past event before a clause's first argument: "Did Ali defeat Foreman?", "Was Foreman defeated by Ali?". */
export const PAST_EVENT_AUXILIARIES: readonly string[] = ["did", "was", "were"];

/** Verbs that are contests between two names only ("When did Brazil play Germany?"; "Can a PS4 play Xbox games?" is none). */
export const NAMED_CONTEST_VERBS: readonly string[] = ["play", "face"];

/**
 * Relations that hold both ways but that one side starts: their arguments trading places ask who acts ("Should a
 * guy kiss a girl on the first date?" / "Should a girl kiss a guy ...?", "Should a doctor date an engineer?").
 */
export const INITIATED_RELATIONS: readonly string[] = ["date", "kiss"];

/** Words before digits that make them a year ("in 1950", "since 2010"); "the" makes a decade one ("the 1990s"). */
export const YEAR_PREPOSITIONS: readonly string[] = ["in", "since", "from", "until", "till", "by", "before", "after", "during", "of", "around", "year"];

/** A question in the present ("What is ...?", "... now?"), against one about a year; unless it also has a past word. */
export const PRESENT_WORDS: readonly string[] = ["is", "are", "am", "do", "does", "has", "have", "can", "will", "now", "today", "current", "currently", "nowadays", "latest"];
export const PAST_WORDS: readonly string[] = ["did", "was", "were", "had"];

/** Arithmetic operations: between the same two numbers, another one asks another sum ("three times four" / "three plus four"). */
export const ARITHMETIC_OPERATIONS: readonly string[] = ["plus", "minus", "times", "divided by"];

/**
 * The past against the future, read from a question's own auxiliary, its first word or the one after its question
 * words: "When did the iPhone come out?" / "When will the iPhone come out?" (not "... if I did not receive ...").
 */
export const PAST_AUXILIARIES: readonly string[] = ["did"];
export const FUTURE_AUXILIARIES: readonly string[] = ["will"];
/** Question words before a question's own auxiliary: "when did", "how long will", "how many times did". */
export const QUESTION_OPENERS: readonly string[] = "what when where why who whom which how long much many often soon far times".split(" ");

/** Opposite small words that reverse what is asked only after the same word: "flows into" / "flows out of" ("made out of" / "turned into" ask the same). */
export const OPPOSITE_AFTER_SAME_WORD: ReadonlyArray<readonly [string, string]> = [["into", "out of"]];

/** Pairs of short words or phrases whose swap reverses what is asked ("zoom in" / "zoom out", "most" / "least", "too much" / "too little"). */
export const OPPOSITE_SMALL_WORDS: ReadonlyArray<readonly [string, string]> = [
  ["in", "out"],
  ["half of", "double"],
  ["up", "down"],
  ["on", "off"],
  ["most", "least"],
  ["more", "less"],
  ["more", "fewer"],
  ["few", "many"],
  ["first", "last"],
  ["before", "after"],
  // "before 2006" / "since 2006": the time bound's side.
  ["before", "since"],
  // "How much salt is too much?" / "... too little?": the phrase, where "much" alone also asks how much.
  ["too much", "too little"],
  ["too many", "too few"],
  // A limit's side: "a drone over 250 grams" / "under 250 grams", "above freezing" / "below freezing".
  ["over", "under"],
  ["above", "below"],
];

/**
 * Opposites WordNet holds no antonym for. Comparatives of opposite ends ("great" has none, "close" none of "far"):
 * "Is 7 greater than 5?" is not "Is 7 smaller than 5?", and "Is 5 smaller than 7?" asks it from the other end; not
 * "further", which as often adds ("How can I further my career?"). Actions that undo each other ("compress a
 * folder into a zip file" / "extract a zip file"), in any form but a participle ("open a compressed file" asks
 * to extract it). Not one event told from its two sides, which a rewording swaps freely ("books to read" / "books
 * written", "receive payments" / "people send me payments", "purchase" / "sell", "approve" / "deny").
 */
export const UNLINKED_OPPOSITES: ReadonlyArray<readonly [string, string]> = [
  ["greater", "smaller"],
  ["greater", "lesser"],
  ["greater", "less"],
  ["closer", "farther"],
  ["nearer", "farther"],
  ["compress", "extract"],
  ["zip", "extract"],
  ["serialize", "deserialize"],
  ["mount", "unmount"],
  ["link", "unlink"],
  ["merge", "split"],
  ["pause", "resume"],
  ["expand", "collapse"],
  ["arrive", "depart"],
  ["load", "unload"],
  ["buyer", "seller"],
];

/**
 * Synonyms WordNet does not link, in their base forms ("restart" / "reboot" a computer). Not "remove" / "eliminate": a team
 * eliminated from a cup was not removed from it.
 */
export const UNLINKED_SYNONYMS: ReadonlyArray<readonly [string, string]> = [
  ["restart", "reboot"],
  // A verb and the noun of what it measures, as WordNet links "tall" / "height" and "deep" / "depth" ("How much does
  // it weigh?" / "What is its weight?").
  ["weigh", "weight"],
  // A bound on a number ("under 18" / "less than 18"); "over" / "under" stays opposite.
  ["under", "below"],
  ["under", "less"],
  ["below", "less"],
  ["under", "fewer"],
  ["below", "fewer"],
];

/** Words that bound a number from above as "less than" does ("a laptop under $1000" / "for less than $1000"). */
export const BOUNDS_BELOW: readonly string[] = ["under", "below"];

/** Words that change a value ("5 times 2", "5 squared"): a comparison whose ends they change is not read from its other end. */
export const ARITHMETIC_WORDS: readonly string[] = "times plus minus squared cubed double doubled twice triple tripled half divided multiplied sum product power root".split(" ");

/** Words in -est that are no superlative ("the second request" is no rank). */
export const EST_WORDS: readonly string[] = "interest request contest protest forest harvest honest modest earnest suggest digest invest arrest manifest conquest inquest bequest behest tempest midwest".split(" ");

/** Words that name an extreme as a superlative in -est does. */
export const EXTREME_WORDS: readonly string[] = ["most", "least", "best", "worst"];

/** Superlatives that praise rather than pick the extreme ("the greatest examples" asks for great ones), as "best" does. */
export const PRAISE_SUPERLATIVES: readonly string[] = ["greatest", "finest", "coolest", "nicest"];

/** Words that take a part or a multiple of what they qualify ("half a cup" is not "a cup"); not "double", a verb's too ("double check"). */
export const FRACTION_WORDS: readonly string[] = ["half", "halves", "halve", "quarter", "quarters", "twice", "thrice"];

/** Words before a noun that count it as one ("a cake" is not "two cakes"). */
export const ONE_OF_WORDS: readonly string[] = ["a", "an", "one", "single"];

/** Words that join two counts into a range ("2 or 3 eggs", "2 to 3 cups"): neither count is meant alone. */
export const COUNT_RANGE_WORDS: readonly string[] = ["or", "to"];

/**
 * Amounts given without a number ("a few eggs", "a couple of beers", "several days"), with the counts each may stand
 * for, least and most: against a count of the same thing outside them on the other side ("a dozen eggs", "12 eggs")
 * they ask about another amount; "a few eggs" / "3 eggs" may ask the same.
 */
export const VAGUE_AMOUNT_WORDS: Readonly<Record<string, readonly [number, number]>> = { few: [2, 4], couple: [2, 2], several: [3, 7], handful: [3, 6] };

export { DETERMINERS };

/** Words that ask for less of what the rest of the question names ("less healthy", "fewest"). */
export const DIMINISHING_WORDS: readonly string[] = ["less", "least", "fewer", "fewest"];

/** Names that lose their meaning to tokenising ("C#" would be "c"), written as words first. */
export const SPELLED: ReadonlyArray<readonly [RegExp, string]> = [
  [/(^|[^\p{L}])c#/giu, "$1csharp"],
  [/(^|[^\p{L}])f#/giu, "$1fsharp"],
  [/(^|[^\p{L}])c\+\+/giu, "$1cplusplus"],
  [/(^|[^\p{L}])\.net\b/giu, "$1dotnet"],
  // "AT&T", "H&M", "R&D": one name, not "at" and "t".
  [/(\p{L})&(?=\p{L})/gu, "$1and"],
  // "all-new songs", "all-time high": one adjective, no "all" that takes in every song.
  [/\b(all)-(?=\p{L})/giu, "$1"],
];

/**
 * Short forms of words, which WordNet does not hold ("int" for "integer", "dicts" for "dictionaries"); a plural "s"
 * on either reads as the same word's plural. Units and names have their own rules (alignment-units.ts, guard-text.ts).
 */
export const SHORT_FORMS: Readonly<Record<string, string>> = {
  int: "integer",
  str: "string",
  dict: "dictionary",
  arr: "array",
  func: "function",
  fn: "function",
  arg: "argument",
  param: "parameter",
  config: "configuration",
  repo: "repository",
  db: "database",
  app: "application",
  info: "information",
  pic: "picture",
  doc: "document",
  env: "environment",
  var: "variable",
  obj: "object",
  pkg: "package",
  lib: "library",
  dir: "directory",
  img: "image",
  msg: "message",
  num: "number",
  admin: "administrator",
  govt: "government",
  dept: "department",
  vit: "vitamin",
  approx: "approximately",
  fl: "fluid",
  sq: "square",
};

/**
 * Compounds read as the words they mean, which WordNet, holding single words only, cannot link ("the melting point of
 * gold" asks "the temperature at which gold melts").
 */
export const COMPOUNDS: Readonly<Record<string, string>> = {
  "melting point": "melting temperature",
  "melting points": "melting temperatures",
  "boiling point": "boiling temperature",
  "boiling points": "boiling temperatures",
  "freezing point": "freezing temperature",
  "freezing points": "freezing temperatures",
  "put on weight": "gain weight",
  "putting on weight": "gaining weight",
  "puts on weight": "gains weight",
};

/**
 * Phrases read as the word they mean ("every branch apart from main" keeps what "except main" keeps). Not "besides",
 * which also adds ("What can I eat besides rice?" asks for more than rice).
 */
export const SYNONYM_PHRASES: Readonly<Record<string, string>> = {
  "apart from": "except",
};

/**
 * Phrases read so only where the text ends with them (punctuation may follow): "What is DNA short for?" asks what
 * "What does DNA stand for?" asks; "Is 5'8 short for a man?" does not.
 */
export const SYNONYM_PHRASES_AT_END: Readonly<Record<string, string>> = {
  "short for": "stand for",
};

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

/**
 * Words a verb's object does not run through: a clause's opener or a verb after a noun ("turn red when I get into",
 * "Whose turn is it to go into").
 */
export const NOT_IN_OBJECT: readonly string[] = ["i", "you", "he", "she", "we", "they", "when", "if", "while", "because", "is", "was", "are", "were"];

/** Verbs that mean "convert" where "into" follows within four words ("turn a list into a string", "parse a string into an integer"); not "turn into" alone ("What did Anakin turn into?"). */
export const CONVERTING_BEFORE_INTO: readonly string[] = ["turn", "parse"];

/** Every hand-written list the alignment reads, for the digest that versions them with the vetoes chosen. */
export const ALIGNMENT_LISTS = {
  weak: WEAK_WORDS,
  whole: WHOLE_WORDS,
  stopwordVerbs: STOPWORD_VERBS,
  stopwordNouns: STOPWORD_NOUNS,
  maxQuestionWords: MAX_QUESTION_WORDS,
  maxLongQuestionWords: MAX_LONG_QUESTION_WORDS,
  requestVerbs: REQUEST_VERBS,
  direction: DIRECTION_WORDS,
  shortForms: SHORT_FORMS,
  substitute: SUBSTITUTE_WORDS,
  order: ORDER_WORDS,
  substitutePhrases: SUBSTITUTE_PHRASES,
  substituteFor: String(SUBSTITUTE_FOR[0]),
  replacedBy: REPLACED_BY.map(([pattern]) => String(pattern)),
  inability: INABILITY_WORDS,
  toward: TOWARD_WORDS,
  routeVerbs: ROUTE_VERBS,
  bothWays: BOTH_WAYS_WORDS,
  tradingBothWays: TRADING_BOTH_WAYS,
  distanceWords: DISTANCE_WORDS,
  orderingKin: ORDERING_KIN_WORDS,
  symmetric: SYMMETRIC_WORDS,
  symmetricBeforeTo: SYMMETRIC_BEFORE_TO,
  thirdTerm: THIRD_TERM_WORDS,
  contests: CONTEST_VERBS,
  winning: WINNING_VERBS,
  pastEvent: PAST_EVENT_AUXILIARIES,
  verbPrepositions: VERB_PREPOSITIONS,
  verbParticles: VERB_PARTICLES,
  personalPronouns: PERSONAL_PRONOUNS,
  clauseAdverbs: CLAUSE_ADVERBS,
  oneWayRelationNouns: ONE_WAY_RELATION_NOUNS,
  namedContests: NAMED_CONTEST_VERBS,
  initiated: INITIATED_RELATIONS,
  roles: { questionWords: ROLE_QUESTION_WORDS, auxiliaries: ROLE_AUXILIARIES, perfect: PERFECT_AUXILIARIES, doAuxiliaries: DO_AUXILIARIES, passive: PASSIVE_AUXILIARIES, symmetric: SYMMETRIC_RELATIONS, bothWaysAfter: BOTH_WAYS_AFTER_VERB },
  years: { before: YEAR_PREPOSITIONS, present: PRESENT_WORDS, past: PAST_WORDS },
  praise: PRAISE_SUPERLATIVES,
  extremes: EXTREME_WORDS,
  oppositeSmallWords: OPPOSITE_SMALL_WORDS,
  oppositeAfterSameWord: OPPOSITE_AFTER_SAME_WORD,
  arithmeticOperations: ARITHMETIC_OPERATIONS,
  tense: { past: PAST_AUXILIARIES, future: FUTURE_AUXILIARIES, openers: QUESTION_OPENERS },
  unlinkedOpposites: UNLINKED_OPPOSITES,
  unlinkedSynonyms: UNLINKED_SYNONYMS,
  boundsBelow: BOUNDS_BELOW,
  arithmetic: ARITHMETIC_WORDS,
  diminishing: DIMINISHING_WORDS,
  fractions: FRACTION_WORDS,
  oneOf: ONE_OF_WORDS,
  vagueAmounts: VAGUE_AMOUNT_WORDS,
  countRanges: COUNT_RANGE_WORDS,
  determiners: DETERMINERS,
  notAModel: NOT_A_MODEL,
  numberedNouns: NUMBERED_NOUNS,
  notBeforeALetter: NOT_BEFORE_A_LETTER,
  signWords: SIGN_WORDS,
  answerKinds: {
    how: HOW_KINDS,
    breakers: KIND_BREAKERS,
    nouns: KIND_NOUNS,
    ofNouns: OF_KIND_NOUNS,
    measures: MEASURES,
    measureAskers: MEASURE_ASKERS,
    measureHolders: MEASURE_HOLDERS,
    happening: HAPPENING_VERBS,
    happeningAuxiliaries: HAPPENING_AUXILIARIES,
    questionJoiners: QUESTION_JOINERS,
    distances: DISTANCE_NOUNS,
    times: TIME_NOUNS,
    auxiliaries: QUESTION_AUXILIARIES,
    prepositions: PHRASE_PREPOSITIONS,
    alike: ALIKE_KINDS,
    methodAuxiliaries: METHOD_AUXILIARIES,
    methodAskers: METHOD_ASKERS,
    findingVerbs: FINDING_VERBS,
    foundQuestions: FOUND_QUESTIONS,
    effectAuxiliaries: EFFECT_AUXILIARIES,
    effectPassives: EFFECT_PASSIVES,
    passiveBeForms: PASSIVE_BE_FORMS,
  },
  scope: SCOPE_LISTS,
  roleWords: { modifiers: ROLE_MODIFIERS, prefixes: ROLE_PREFIXES, kind: ROLE_KIND },
  estWords: EST_WORDS,
  units: UNITS,
  tens: TENS,
  scales: SCALES,
  ordinals: ORDINALS,
  denominators: DENOMINATORS,
  ambiguousNumbers: [...AMBIGUOUS_NUMBER_WORDS],
  countedTimes: [...COUNTED_TIMES],
  relativeTime: { words: RELATIVE_TIME_WORDS, days: RELATIVE_DAYS, nouns: RELATIVE_TIME_NOUNS, dayParts: PARTS_OF_A_DAY, weekdays: DAYS_OF_THE_WEEK, spanNames: SPAN_NAMES },
  unitNames: UNIT_NAMES,
  unitAbbreviations: UNIT_ABBREVIATIONS,
  beforeAbbreviation: BEFORE_ABBREVIATION,
  unitSigns: UNIT_SIGNS,
  unitCompounds: UNIT_COMPOUNDS,
  afterSecond: AFTER_SECOND,
  unitQualifiers: UNIT_QUALIFIERS,
  unitKinds: UNIT_KINDS,
  unitKindsAfter: UNIT_KINDS_AFTER,
  gigaAfter: GIGA_AFTER,
  spelled: SPELLED.map(([pattern, replacement]) => [String(pattern), replacement]),
  phrasal: PHRASAL_VERBS,
  synonymPhrases: SYNONYM_PHRASES,
  synonymPhrasesAtEnd: SYNONYM_PHRASES_AT_END,
  convertingBeforeInto: CONVERTING_BEFORE_INTO,
  notInObject: NOT_IN_OBJECT,
  compounds: COMPOUNDS,
  // The alignment reads names, numbers and negations with the guard's reading of a question (questionFacts).
  guard: GUARD_LISTS,
};
