/**
 * Word-level facts about a question that a sentence embedding blurs: the precision guard compares them
 * between a request and a cached question. Pure functions, English only.
 */
import { Lru } from "../core/lru.js";
import { withoutThousands } from "./alignment-numbers.js";
import { isKindOf, isOtherFormOf } from "./lexicon.js";

const STOPWORDS = new Set(
  ("a an the is are was were be been being am do does did doing have has had having i me my we our you your he she it its " +
    "they them their this that these those of to in on at by for with from as into about over after before between " +
    "and or but if so than then there here what which who whom whose when where why how can could should would will " +
    "shall may might must any some all each every most more much many very just also only own same such too").split(" "),
);

const NEGATIONS = new Set(["not", "no", "non", "never", "without", "none", "nobody", "nothing", "neither", "nor", "cannot", "lack", "lacks", "lacking", "absence", "absent"]);

/** Words that make the order of two names tell nothing: alternatives, comparisons, distances (namesTraded). */
const ORDERLESS_WORDS: readonly string[] = [
  "or", "and", "between", "vs", "versus", "than", "far", "distance", "compare", "compared", "comparison", "difference", "different", "similar",
];
const ORDERLESS = new Set(ORDERLESS_WORDS);

/** Words that negate what follows their "to" ("fails to start" is "won't start"). */
const NEGATING_BEFORE_TO = new Set(["fail", "fails", "failed", "failing", "unable"]);

/** Nouns that tell a failure ("a boot failure"), against a "fails to". */
const FAILURE_NOUNS = new Set(["failure", "failures"]);

/**
 * What a place that a people's word names is a kind of, and how far up WordNet's kinds (placeAndItsPeople): a country
 * or a state is an administrative district, a district, a region ("country" alone is also a people: "the French").
 */
const PLACE_KIND = "region";
const PLACE_STEPS = 5;
/** How far up WordNet's kinds a language lies ("French" is a Romance language, an Italic one, Indo-European, ...). */
const LANGUAGE_STEPS = 6;

/** Other names of one thing, each group written as the guard joins a name ("visualstudiocode"). */
export const NAME_ALIAS_GROUPS: ReadonlyArray<readonly string[]> = [
  ["go", "golang"],
  ["postgres", "postgresql"],
  ["macos", "osx"],
  ["k8s", "kubernetes"],
  ["node", "nodejs"],
  ["react", "reactjs"],
  ["vue", "vuejs"],
  ["sklearn", "scikitlearn"],
  ["vscode", "visualstudiocode"],
  // A people's adjective names its country ("British prime minister"); "America" is mostly asked of the USA, and
  // "US" in capitals names it ("us" does not: a name is capitalised; a shouted "Can you help US?" is rare).
  ["uk", "unitedkingdom", "greatbritain", "britain", "british"],
  ["usa", "us", "unitedstates", "unitedstatesofamerica", "america", "american", "americans"],
];
/**
 * Names written in several ways that the name reading cannot join ("World War 2": "2" is no name word), each
 * pattern rewritten to one spelling before a question is read. The "II" pattern comes first, so that "World War
 * II" is not read as "World War I".
 */
export const NAME_SPELLINGS: ReadonlyArray<readonly [string, string]> = [
  ["World War (?:II|2|Two)|Second World War|WW ?2", "WWII"],
  ["World War (?:I|1|One)|First World War|WW ?1", "WWI"],
  // A people's word that is part of a thing's name, no place ("American football" is no football in the US).
  ["(American|Australian|Canadian|Gaelic) football", "$1Football"],
  ["French (fries|toast|press|horn)", "French$1"],
  ["Swiss (cheese|army knife)", "Swiss$1"],
];
const SPELLINGS = NAME_SPELLINGS.map(([pattern, name]) => [new RegExp(`\\b(?:${pattern})\\b`, "gi"), name] as const);

const NAME_ALIASES = new Map(NAME_ALIAS_GROUPS.flatMap((group) => group.map((name) => [name, group.filter((other) => other !== name)] as const)));

/** Pairs of words whose swap reverses what is asked (matched on a crude stem, so "installing" is "install"). */
const OPPOSITES: ReadonlyArray<readonly [string, string]> = [
  ["install", "uninstall"],
  ["enable", "disable"],
  ["add", "remove"],
  ["buy", "sell"],
  ["increase", "decrease"],
  ["start", "stop"],
  ["open", "close"],
  ["lock", "unlock"],
  ["encrypt", "decrypt"],
  ["connect", "disconnect"],
  ["upload", "download"],
  ["import", "export"],
  ["subscribe", "unsubscribe"],
  ["follow", "unfollow"],
  ["block", "unblock"],
  ["mute", "unmute"],
  ["hide", "show"],
  ["create", "delete"],
  ["gain", "lose"],
  ["win", "lose"],
  ["push", "pull"],
  ["login", "logout"],
  ["zip", "unzip"],
  ["compress", "decompress"],
  ["upgrade", "downgrade"],
  ["activate", "deactivate"],
  ["before", "after"],
  ["maximum", "minimum"],
  ["max", "min"],
  ["best", "worst"],
  ["cheapest", "expensive"],
  ["advantage", "disadvantage"],
  ["pro", "con"],
  ["male", "female"],
  ["men", "women"],
  ["boy", "girl"],
  ["good", "bad"],
  ["rich", "poor"],
  ["hot", "cold"],
  ["long", "short"],
  ["fast", "slow"],
];

/**
 * Words of the opposite list that, before one of these nouns, name a thing rather than do the action: "extract a zip
 * file" unzips it. Not after a word a verb follows (VERB_AFTER: "how to zip files", "can I zip files"), a negation
 * ("can't zip files") or an adverb in -ly ("quickly zip files"), nor first in a sentence ("Zip files and folders").
 */
const OPPOSITE_AS_NOUN: ReadonlyArray<readonly [string, readonly string[]]> = [["zip", ["file", "files", "archive", "archives", "folder", "folders", "code", "codes"]]];
const NOUNS_AFTER = new Map(OPPOSITE_AS_NOUN);
/** Words a verb follows: "to", a pronoun, a modal, "do" ("how to zip files", "how do I remove packages", "let me zip files"). */
const VERB_AFTER = new Set("to i you we they he she it one me us them him can could should would will shall may might must do does did please let lets".split(" "));

/** Words a participle in -ed after them describes a noun with: "a locked door", "all installed packages". */
const DETERMINERS_OF_A_STATE = new Set("a an the my your his her its our their this these those all every each any some no".split(" "));

/**
 * Words that open a clause: a noun between one of them and a participle is the clause's subject, and the participle
 * its verb ("if someone blocked me", "apps that the update installed").
 */
const CLAUSE_OPENERS = new Set(["if", "when", "whenever", "that", "which", "who", "because", "since", "while", "after", "before", "and", "or", "but", "so"]);

/**
 * Verbs before a participle that make it an action done to their object or subject: "got locked", "get Chrome
 * uninstalled", "want it deleted".
 */
const ACTION_MAKERS = new Set("get gets got gotten getting become becomes became have has had want wants wanted need needs needed".split(" "));

/** Words of time that may open a sentence before its subject: "Today my friend blocked me". */
const TIME_ADVERBS = new Set("today yesterday tonight tomorrow now then recently lately".split(" "));

/**
 * How far back the reading of a participle looks: a noun phrase, the words before it and its verb ("remove all of the
 * old Python packages installed with pip"), not a long prompt's every word.
 */
const STATE_REACH = 9;

/**
 * Words in -ly that are no adverb: adjectives that tell what kind a noun is ("daily zip files", "a weekly backup"),
 * nouns and verbs ("family", "apply"). Not "early", as often an adverb ("Early today my friend blocked me").
 */
const NO_ADVERBS_IN_LY = new Set(
  "daily weekly monthly yearly hourly nightly quarterly biweekly elderly friendly costly lonely lovely ugly silly family july italy apply supply reply ally fly".split(" "),
);

const IRREGULAR: Record<string, string> = { bought: "buy", sold: "sell", lost: "lose", won: "win", shown: "show", cons: "con", pros: "pro" };
// A Map, not the record: a word such as "constructor" must not read an object's own property.
const IRREGULAR_STEMS = new Map(Object.entries(IRREGULAR));
const STEM_SUFFIXES = ["ing", "ed", "es", "s"];

const QUESTION_WORDS = new Set(["what", "why", "how", "when", "who", "where", "which"]);

/**
 * Spellings read as written, case and all ("c" is no Celsius), each rewritten before a question is read: a
 * temperature's sign or letter spelled out ("350°F", "350 ℉", "350 degrees F" and "100.4 F" are "... degrees
 * Fahrenheit"; not "C++" or "C#"; a "C" after a number only where its clause ends, "at 38 C?", for "the Windows 10 C
 * drive" and "4 C batteries"). A Mac stays a Mac: "the price of a Mac" is not that of macOS.
 */
export const CASED_SPELLINGS: ReadonlyArray<readonly [string, string]> = [
  ["(?<!\\s)\\s*(?:[°º]\\s*F\\b(?![+#])|℉)", " degrees Fahrenheit"],
  ["(?<!\\s)\\s*(?:[°º]\\s*C\\b(?![+#])|℃)", " degrees Celsius"],
  ["\\b(degrees?)\\s+F\\b(?![+#])", "$1 Fahrenheit"],
  ["\\b(degrees?)\\s+C\\b(?![+#])", "$1 Celsius"],
  ["(\\d)\\s+F\\b(?![+#])", "$1 degrees Fahrenheit"],
  ["(\\d)\\s+C(?=\\s*(?:[?.!,;:)]|$))", "$1 degrees Celsius"],
];
const CASED = CASED_SPELLINGS.map(([pattern, spelled]) => [new RegExp(pattern, "g"), spelled] as const);

/** Every hand-written list the guard's features read, for the digest that versions them with the model fitted on them. */
export const GUARD_LISTS = {
  stopwords: [...STOPWORDS],
  negations: [...NEGATIONS],
  negatingBeforeTo: [...NEGATING_BEFORE_TO],
  failureNouns: [...FAILURE_NOUNS],
  placeKind: [PLACE_KIND, PLACE_STEPS],
  languageSteps: LANGUAGE_STEPS,
  orderless: ORDERLESS_WORDS,
  casedSpellings: CASED_SPELLINGS,
  nameAliases: NAME_ALIAS_GROUPS,
  nameSpellings: NAME_SPELLINGS,
  opposites: OPPOSITES,
  oppositeAsNoun: OPPOSITE_AS_NOUN,
  verbAfter: [...VERB_AFTER],
  clauseOpeners: [...CLAUSE_OPENERS],
  determinersOfAState: [...DETERMINERS_OF_A_STATE],
  actionMakers: [...ACTION_MAKERS],
  timeAdverbs: [...TIME_ADVERBS],
  stateReach: STATE_REACH,
  noAdverbsInLy: [...NO_ADVERBS_IN_LY],
  irregular: IRREGULAR,
  questionWords: [...QUESTION_WORDS],
};

/** A crude stem: enough to match inflections of the opposite-word list, not a linguistic stemmer. */
export function stem(word: string): string {
  const lower = word.toLowerCase();
  const irregular = IRREGULAR_STEMS.get(lower);
  if (irregular !== undefined) return irregular;
  // Suffixes by their ends, the longer first where two match ("-es" before "-s"): read for most words of every pair.
  const suffix = lower.length > 5 ? STEM_SUFFIXES.find((end) => lower.endsWith(end)) : lower.endsWith("s") ? "s" : undefined;
  const bare = suffix === undefined ? lower : lower.slice(0, -suffix.length);
  return bare.length > 3 && bare.endsWith("e") ? bare.slice(0, -1) : bare;
}

const OPPOSITE_STEMS = OPPOSITES.map(([a, b]) => [stem(a), stem(b)] as const);

/** What the guard reads from one question. */
export interface QuestionFacts {
  /** Lower-case words without stopwords. */
  readonly content: ReadonlySet<string>;
  /** Stems of every word. */
  readonly stems: ReadonlySet<string>;
  /**
   * Stems of every word but those that do no action: a participle in -ed that tells a noun's state ("a locked door",
   * "remove every package installed with pip"), and a word of the opposite list naming a thing ("a zip file").
   */
  readonly actions: ReadonlySet<string>;
  /** Numbers as written ("2", "3.5", "2019"), without thousands separators ("1,000" is "1000"). */
  readonly numbers: ReadonlySet<string>;
  /**
   * Names (people, products, places): runs of capitalised words, lower-cased and joined ("Hugging Face" is
   * "huggingface"). A sentence's first word is capitalised anyway: it is never taken for a name, unless it
   * starts in lower case with a capital inside ("iPhone", "macOS", "eBay" are names wherever they stand).
   */
  readonly entities: ReadonlySet<string>;
  /**
   * Words written in the plural, lower-cased: a lower-case "s" after a lower-case letter, 3 letters or more
   * ("Pros", "Sunnis"; not "AWS", "XS" or a model's "S"); and the names that end in one ("macbookpros").
   */
  readonly plurals: ReadonlySet<string>;
  /** The initials of each name of two or more words or parts ("machinelearning" → "ml", "javascript" → "js"). */
  readonly nameInitials: ReadonlyMap<string, string>;
  /** Words written in capitals ("ML", "US"), lower-cased: they may stand for initials. */
  readonly acronyms: ReadonlySet<string>;
  /** Every word, lower-cased, in order. */
  readonly words: readonly string[];
  /** Indexes in `words` of the words that begin a sentence. */
  readonly starts: ReadonlySet<number>;
  /** Indexes in `words` of the words written with "'s" or "'re" ("Where's"), which `words` have lost. */
  readonly contracted: ReadonlySet<number>;
  /** Whether it negates (not, no, never, n't, without, absence of, ...). */
  readonly negated: boolean;
  /** Stems of what is negated: the first content word after each negation, in the same clause. */
  readonly negatedStems: ReadonlySet<string>;
  /** Stems of what an "X-free" negates ("gluten-free": gluten), which "gluten free" written apart may mean too. */
  readonly freeOf: ReadonlySet<string>;
  /** The first question word (what, why, how, ...), or "". */
  readonly questionWord: string;
  /** Number of words. */
  readonly length: number;
}

const WORD = /[\p{L}\p{N}]+(?:['’][\p{L}]+)?/gu;

const CLITIC = /['’](?:s|re|ll|ve|d|m)$/;

/** Lower-cased words; clitics carry no meaning of their own here ("what's" asks what), "n't" stays: it negates. */
function lowerWords(text: string): string[] {
  return (text.match(WORD) ?? []).map((word) => word.toLowerCase().replace(CLITIC, ""));
}

/** Indexes of the words written with "'s" or "'re" ("Where's the station?"), which the lower-cased words have lost. */
function contractedWords(words: readonly string[]): Set<number> {
  return new Set(words.flatMap((word, i) => (/['’](?:s|re)$/i.test(word) ? [i] : [])));
}

const WRITTEN_PLURAL = /^\p{L}[\p{L}\p{N}]*\p{Ll}s$/u;

const isPlainNegation = (word: string | undefined) => word !== undefined && (NEGATIONS.has(word) || /n['’]t$/.test(word));
const failsTo = (words: readonly string[], i: number) => NEGATING_BEFORE_TO.has(words[i]) && words[i + 1] === "to";

/**
 * Whether word `i` negates: a negation, a "n't", or a "fail" before its "to"; not the two together, which affirm
 * ("never fails to start" starts).
 */
function isNegation(words: readonly string[], i: number): boolean {
  if (isPlainNegation(words[i])) return !failsTo(words, i + 1);
  return failsTo(words, i) && !isPlainNegation(words[i - 1]);
}

/** A dot opening a word: the dot of a file's name (".gitignore"), no full stop. */
const DOT_NAME = /(^|\s)\.(?=\p{L})/gu;

/**
 * What each negation bears on: the first content word after it in its clause ("not good" negates good,
 * "doesn't have any metadata" negates metadata). A negation that ends its clause ("No, ...", "or not?")
 * and "not only" negate nothing.
 */
function negatedStemsOf(text: string): Set<string> {
  const negated = new Set<string>();
  // The dot of a file's name is no full stop: "not in .gitignore" negates "gitignore".
  for (const clause of text.replace(DOT_NAME, "$1").split(/[,;:.!?()[\]{}"“”]+/)) {
    const words = lowerWords(clause);
    words.forEach((word, i) => {
      if (!isNegation(words, i) || (word === "not" && words[i + 1] === "only")) return;
      const scope = words.slice(i + 1).find((next, j) => !STOPWORDS.has(next) && !isNegation(words, i + 1 + j));
      if (scope) negated.add(stem(scope));
    });
  }
  return negated;
}

/** Indexes of the words that begin a sentence. */
function sentenceStarts(text: string): Set<number> {
  const starts = new Set<number>([0]);
  let offset = 0;
  for (const sentence of text.split(/(?<=[.?!])\s+/).slice(0, -1)) {
    offset += (sentence.match(WORD) ?? []).length;
    starts.add(offset);
  }
  return starts;
}

const CAPITALISED = /^\p{Lu}/u;
const CAPITALISED_INSIDE = /^\p{Ll}+\p{Lu}/u;
/** Capitalised words run together ("JavaScript", "YouTube", "GitHub"): a name even first in a sentence, with initials. */
const CAMEL_CASE = /^(?:\p{Lu}\p{Ll}+){2,}$/u;

/**
 * Names as runs of capitalised words or words capitalised inside (see QuestionFacts.entities), each with its
 * initials and the index of its last word.
 */
function namesOf(words: readonly string[], lower: readonly string[], starts: ReadonlySet<number>): Map<string, { initials: string; last: number }> {
  // "I", and "I'm", "I've": the speaker, never a name.
  const inName = (i: number) =>
    i < words.length &&
    lower[i] !== "i" &&
    ((!starts.has(i) && CAPITALISED.test(words[i])) || CAPITALISED_INSIDE.test(words[i]) || CAMEL_CASE.test(words[i]));
  const names = new Map<string, { initials: string; last: number }>();
  for (let i = 0; i < words.length; i++) {
    if (!inName(i)) continue;
    let end = i + 1;
    while (inName(end)) end++;
    const run = lower.slice(i, end);
    // Capitalised words run together have the initials of their parts: "JavaScript" is "JS" ("iOS", "IPv6" have none).
    const capitals = end - i === 1 && CAMEL_CASE.test(words[i]) ? (words[i].match(/\p{Lu}/gu) ?? []) : [];
    const initials = end - i === 1 ? capitals.join("").toLowerCase() : run.map((word) => word[0]).join("");
    names.set(run.join(""), { initials, last: end - 1 });
    i = end - 1;
  }
  return names;
}

const INITIALISM_PLURAL = /\b(\p{Lu}{2,6})s\b/gu;

/** "gluten-free" is "without gluten": it negates what it is free of ("foods that contain gluten" asks the opposite). */
const FREE_OF = /(\p{L}+)-free(?!\p{L})/giu;

/** The judge's memos keep texts up to this length: a question is short, and a long prompt is read once and not held. */
const MEMO_MAX_CHARS = 1000;

/** `read(text)`, remembered in `memo` when the text is short enough to hold (what is remembered is never changed). */
export function readRemembered<V>(memo: Lru<string, V>, text: string, read: (text: string) => V): V {
  return text.length <= MEMO_MAX_CHARS ? memo.through(text, () => read(text)) : read(text);
}

/** A lookup's question is judged against each candidate, and a stored question meets many lookups. */
const RECENT_FACTS = new Lru<string, QuestionFacts>(512);

/** Reads the facts of one question (remembered for recent questions: facts are never changed). */
export function questionFacts(written: string): QuestionFacts {
  return readRemembered(RECENT_FACTS, written, readFacts);
}

function readFacts(written: string): QuestionFacts {
  // An initialism's plural names the same thing: "PDFs" is read as "PDF", "APIs" as "API" ("AWS" stays).
  const spelled = [...SPELLINGS, ...CASED].reduce((text, [pattern, name]) => text.replace(pattern, name), written);
  const text = spelled.replace(INITIALISM_PLURAL, "$1").replace(FREE_OF, "without $1");
  const words = text.match(WORD) ?? [];
  const lower = lowerWords(text);
  const starts = sentenceStarts(text);
  const names = namesOf(words, lower, starts);
  const writtenPlural = new Set(words.flatMap((word, i) => (WRITTEN_PLURAL.test(word.replace(CLITIC, "")) ? [i] : [])));
  const pluralNames = [...names].flatMap(([name, { last }]) => (writtenPlural.has(last) ? [name] : []));
  return {
    content: new Set(lower.filter((word) => !STOPWORDS.has(word) && !NEGATIONS.has(word))),
    stems: new Set(lower.map(stem)),
    actions: new Set(lower.filter((_, i) => !tellsState(lower, starts, i) && !namesThing(lower, starts, i)).map(stem)),
    numbers: new Set((text.match(/\d+(?:[.,]\d+)*/g) ?? []).map(withoutThousands)),
    entities: new Set(names.keys()),
    nameInitials: new Map([...names].flatMap(([name, { initials }]) => (initials.length > 1 ? [[name, initials]] : []))),
    plurals: new Set([...[...writtenPlural].map((i) => lower[i]), ...pluralNames]),
    acronyms: new Set(words.filter((word) => /^\p{Lu}{2,6}$/u.test(word)).map((word) => word.toLowerCase())),
    words: lower,
    starts,
    contracted: contractedWords(words),
    negated: lower.some((_, i) => isNegation(lower, i)),
    negatedStems: negatedStemsOf(text),
    freeOf: new Set([...written.matchAll(FREE_OF)].map(([, word]) => stem(word))),
    questionWord: lower.find((word) => QUESTION_WORDS.has(word)) ?? "",
    length: words.length,
  };
}

/** |a ∩ b| / |a ∪ b|; 1 for two empty sets. */
export function jaccard(a: ReadonlySet<string>, b: ReadonlySet<string>): number {
  if (a.size === 0 && b.size === 0) return 1;
  let shared = 0;
  for (const item of a) if (b.has(item)) shared++;
  return shared / (a.size + b.size - shared);
}

/** Each side has an item the other lacks: a substitution ("Paris" for "London", "2" for "3"). */
export function conflicts(a: ReadonlySet<string>, b: ReadonlySet<string>): boolean {
  return [...a].some((item) => !b.has(item)) && [...b].some((item) => !a.has(item));
}

/** Exactly one side has items: one question adds a detail the other leaves out. */
export function oneSided(a: ReadonlySet<string>, b: ReadonlySet<string>): boolean {
  return (a.size === 0) !== (b.size === 0);
}

/** Whether `word` is `name` with an "s" added. */
function isPluralOf(word: string, name: string): boolean {
  return word.length === name.length + 1 && word.endsWith("s") && word.startsWith(name);
}

/** A name written as a name, not in capitals ("MAC address" names no Mac) nor as a common word ("react"). */
const writtenAsName = (facts: QuestionFacts, name: string) => facts.entities.has(name) && !facts.acronyms.has(name);

/** Whether word `x` of one side and word `y` of the other are two names of one thing, each written as a name ("PostgreSQL" / "Postgres"). */
export const sameNamed = (facts: QuestionFacts, x: string, other: QuestionFacts, y: string) =>
  (NAME_ALIASES.get(x)?.includes(y) ?? false) && writtenAsName(facts, x) && writtenAsName(other, y);

/**
 * Whether `other` mentions the entity of `facts`: in words, written together or apart ("Huggingface" for
 * "Hugging Face"), in the plural, as initials ("ML" for "Machine Learning", "machine learning" for "ML", "JS"
 * for "JavaScript"), or by another of its names (NAME_ALIAS_GROUPS: "Golang" for "Go").
 */
function mentions(other: QuestionFacts, entity: string, facts: QuestionFacts): boolean {
  // Another name of it, in capitals too ("UK" for "Britain", "USA" for "United States").
  if ((NAME_ALIASES.get(entity) ?? []).some((alias) => other.entities.has(alias))) return true;
  const initials = facts.nameInitials.get(entity);
  if (initials && other.acronyms.has(initials)) return true;
  const words = other.words;
  const acronym = facts.acronyms.has(entity);
  if (acronym && [...other.nameInitials.values()].includes(entity)) return true;
  for (let i = 0; i < words.length; i++) {
    let joined = "";
    for (let j = i; j < words.length; j++) {
      joined += words[j];
      // A name's plural is the name ("MacBook Pros", "Sunnis"), when written as one ("AWS" is not "AW").
      const plural = (isPluralOf(joined, entity) && other.plurals.has(words[j])) || (isPluralOf(entity, joined) && facts.plurals.has(entity));
      if (joined === entity || plural) return true;
      if (!entity.startsWith(joined)) break;
    }
    if (acronym && i + entity.length <= words.length && [...entity].every((letter, k) => words[i + k][0] === letter)) return true;
  }
  // A place and its people are looked up in a question's few names, not across a long prompt's many.
  return other.entities.size <= MAX_NAMES_COMPARED && [...other.entities].some((name) => placeAndItsPeople(entity, name));
}

/** The most names a side may have for its names to be compared in other words (a question's few, not a long prompt's many). */
const MAX_NAMES_COMPARED = 12;

/**
 * Whether two names are a place and its people's word ("Egypt" / "Egyptian", "India" / "Indians", "Germany" /
 * "Germans"): another form WordNet links one step away, one of them a region (a country, a state; not "Java" /
 * "Javanese", "Jesus" / "Christians"), the other no language but in the plural ("French" may be the language).
 */
function placeAndItsPeople(x: string, y: string): boolean {
  if (!isOtherFormOf(x, y)) return false;
  const isPlace = (name: string) => isKindOf(name, PLACE_KIND, PLACE_STEPS);
  const people = isPlace(x) ? y : isPlace(y) ? x : undefined;
  // A language is no people ("study French" / "study in France"), unless in the plural ("Germans").
  return people !== undefined && (!isKindOf(people, "language", LANGUAGE_STEPS) || people.endsWith("s"));
}

/** Whether name `x` of one side and name `y` of the other name one thing in other words: another name of it, or a place and its people. */
const otherNameOf = (x: string, y: string) => (NAME_ALIASES.get(x)?.includes(y) ?? false) || placeAndItsPeople(x, y);

/**
 * Whether two names of places trade places, one of them written in other words ("Can a US citizen work in the UK?" /
 * "Can a British citizen work in the US?", "Do Indians like Pakistan?" / "Do Pakistanis like India?"): each side
 * mentions the other's names, so only their order tells who is who. Not names written alike ("from London to Paris"
 * / "to Paris from London"), not where the order tells nothing (`ORDERLESS_WORDS`: "the UK or France", "Is the UK
 * bigger than France?" / "Is France smaller than Britain?", "How far is France from the UK?"), nor where a side names
 * one place twice ("an American in the UK ... US elections").
 */
export function namesTraded(a: QuestionFacts, b: QuestionFacts): boolean {
  // Most questions name one thing or none: nothing to trade, and no word or lexicon lookups on the hit path.
  const compared = (facts: QuestionFacts) => facts.entities.size >= 2 && facts.entities.size <= MAX_NAMES_COMPARED;
  if (!compared(a) || !compared(b)) return false;
  if ([a, b].some((facts) => facts.words.some((word) => ORDERLESS.has(word)) || namesOnePlaceTwice(facts))) return false;
  const namesB = [...b.entities];
  const partners = [...a.entities].flatMap((name) => {
    // A name written alike counts as a place's only; one written in other words is a place or its people (otherNameOf).
    const same = namesB.indexOf(name);
    if (same >= 0) return isPlaceName(name) ? [{ at: same, renamed: false }] : [];
    const other = namesB.findIndex((candidate) => otherNameOf(name, candidate));
    return other >= 0 ? [{ at: other, renamed: true }] : [];
  });
  return partners.some((first, k) => partners.slice(k + 1).some((later) => later.at < first.at && (first.renamed || later.renamed)));
}

/** A name of a place: one with other names (NAME_ALIAS_GROUPS: "UK", "USA"), or a region in WordNet ("France"). */
const isPlaceName = (name: string) => NAME_ALIASES.has(name) || isKindOf(name, PLACE_KIND, PLACE_STEPS);

/** Whether two names of one side are other names of one place ("American" and "US"). */
function namesOnePlaceTwice(facts: QuestionFacts): boolean {
  const names = [...facts.entities];
  return names.some((name, k) => names.slice(k + 1).some((later) => otherNameOf(name, later)));
}

/** Whether `a` names something (an entity) that `b` does not mention. */
export function namesUnmentioned(a: QuestionFacts, b: QuestionFacts): boolean {
  return [...a.entities].some((entity) => !mentions(b, entity, a));
}

/**
 * One question negates a word that the other, negating nothing, uses ("not good" vs "good"). "gluten free"
 * written apart is no use of "gluten" against a "gluten-free": it may be the same word without its hyphen.
 */
export function negatesWhatOtherAffirms(a: QuestionFacts, b: QuestionFacts): boolean {
  if (a.negated === b.negated) return false;
  const [negating, affirming] = a.negated ? [a, b] : [b, a];
  const writtenFree = (word: string) => negating.freeOf.has(word) && affirming.words.some((other, i) => affirming.words[i + 1] === "free" && stem(other) === word);
  // A failure told in a noun negates too ("a boot failure" is "fails to boot"), one the negating side does not also tell.
  const failures = (facts: QuestionFacts) => facts.words.filter((word) => FAILURE_NOUNS.has(word)).length;
  if (negating.words.some((_, i) => failsTo(negating.words, i)) && failures(affirming) > failures(negating)) return false;
  return [...negating.negatedStems].some((word) => affirming.stems.has(word) && !writtenFree(word));
}

/** A word that carries no content: a stopword, a negation or a "n't" ("isn't"). */
const isFunctionWord = (word: string) => STOPWORDS.has(word) || isPlainNegation(word);

/**
 * A word of time or an adverb in -ly, which a walk back to a participle's verb steps over ("Today my friend blocked
 * me"); not "daily" or "family" (NO_ADVERBS_IN_LY).
 */
const isAdverb = (word: string) => TIME_ADVERBS.has(word) || (/\p{L}{2,}ly$/u.test(word) && !NO_ADVERBS_IN_LY.has(word));

/**
 * A participle in -ed telling a noun's state: after a determiner ("a locked door", "all installed packages"), or after
 * a noun with a word before it that is no function word, taken for the verb governing it ("remove every package
 * installed with pip", "how to remove packages installed with pip", "close all tabs opened in Chrome"). Not after
 * another function word ("I installed", "was uninstalled"), nor after a verb that makes it an action (ACTION_MAKERS:
 * "got locked", "get Chrome uninstalled"), nor where the noun is its clause's subject, the clause opening before it
 * ("My friend blocked me", "Why was my app uninstalled?", "if someone blocked you"), nor first in a sentence. Word
 * order, no parts of speech, read at most STATE_REACH words back.
 */
function tellsState(words: readonly string[], starts: ReadonlySet<number>, at: number): boolean {
  if (!/\p{L}{3,}ed$/u.test(words[at]) || at === 0 || starts.has(at)) return false;
  const before = words[at - 1];
  if (isFunctionWord(before)) return DETERMINERS_OF_A_STATE.has(before);
  if (ACTION_MAKERS.has(before)) return false;
  const reach = Math.max(0, at - STATE_REACH);
  let k = at - 1;
  // The content words before the participle: the noun and its phrase ("pip packages"), a verb first among them
  // where a word a verb follows stands before ("to remove packages").
  for (; k >= reach && !isFunctionWord(words[k]); k--) if (starts.has(k)) return false;
  if (k >= reach && VERB_AFTER.has(words[k]) && k < at - 2) return !ACTION_MAKERS.has(words[k + 1]);
  // The function words before the phrase ("every", "my"), back to the verb that governs it.
  for (; k >= reach && (isFunctionWord(words[k]) || isAdverb(words[k])); k--) if (starts.has(k) || CLAUSE_OPENERS.has(words[k])) return false;
  return k >= reach && !ACTION_MAKERS.has(words[k]);
}

/** A word of the opposite list before a noun it names a kind of ("a zip file"; not "how to zip files"). */
function namesThing(words: readonly string[], starts: ReadonlySet<number>, at: number): boolean {
  const before = words[at - 1];
  if (NOUNS_AFTER.get(words[at])?.includes(words[at + 1] ?? "") !== true || before === undefined || starts.has(at)) return false;
  return !VERB_AFTER.has(before) && !isPlainNegation(before) && !isAdverb(before);
}

/**
 * One question does something and the other its opposite, neither side also having the other word in any reading
 * (install vs uninstall; not "stop programs started at boot" / "prevent programs from starting at boot").
 */
export function hasOppositeAction(a: QuestionFacts, b: QuestionFacts): boolean {
  const opposed = (p: QuestionFacts, q: QuestionFacts, x: string, y: string) => p.actions.has(x) && !p.stems.has(y) && q.actions.has(y) && !q.stems.has(x);
  return OPPOSITE_STEMS.some(([x, y]) => opposed(a, b, x, y) || opposed(a, b, y, x));
}
