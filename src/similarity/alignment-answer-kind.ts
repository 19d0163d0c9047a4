/**
 * What kind of answer a question asks for, read from its question phrase, for the question alignment
 * (alignment.ts): "How long does it take to drive to Boston?" asks a duration, "How far is Boston?" a distance,
 * "How much does it cost?" an amount. Two questions that share every other word but ask for different kinds of
 * answer are different questions. The word lists are part of ALIGNMENT_LISTS (alignment-lists.ts).
 */

import { DETERMINERS } from "./alignment-scope.js";
import { GUARD_LISTS } from "./guard-text.js";
import { lemmasOf } from "./lexicon.js";

/**
 * The kinds of answer told apart; "" when the question phrase names none ("what", "how" for a manner, none). A
 * "method" is a way to do something ("How do I stop my dog barking?"), no reason ("Why does my dog bark?").
 */
export type AnswerKind = "time" | "place" | "person" | "reason" | "effect" | "outcome" | "duration" | "distance" | "age" | "amount" | "method" | "";

/**
 * What "how X" asks for, by X. How much and how many are one kind: rewordings trade them ("how much calories").
 * Not "fast" or "quickly": a speed or a time ("How fast can a cheetah run?", "How quickly does ibuprofen work?");
 * nor "soon", a time or a duration ("How soon can I get a passport?": when, or how long it takes).
 */
export const HOW_KINDS: Readonly<Record<string, AnswerKind>> = {
  long: "duration",
  far: "distance",
  old: "age",
  much: "amount",
  many: "amount",
};

/**
 * The word after "how X" that takes the kind away: "how long ago" asks when, "how long is the Nile" a length or
 * a duration, "how far in advance" or "how far along" no distance, "how much more", "how much further" or "how much
 * longer" a change.
 */
export const KIND_BREAKERS: Readonly<Record<string, readonly string[]>> = {
  long: ["ago", "is", "are", "was", "were"],
  far: ["in", "back", "ahead", "along", "into"],
  much: ["more", "less", "further", "farther"],
  many: ["more", "fewer"],
};

/**
 * The noun after "what" or "which" that names the kind ("what year", "at what age"), or the verb "cause" ("What
 * causes stress?" asks why). Not a place ("which country" may ask who: "Who won the World Cup?" / "Which country
 * won the World Cup?").
 */
export const KIND_NOUNS: Readonly<Record<string, AnswerKind>> = Object.fromEntries([
  ...["year", "date", "day", "time", "month", "century"].map((noun) => [noun, "time"]),
  ...["age"].map((noun) => [noun, "age"]),
  ...["reason", "reasons"].map((noun) => [noun, "reason"]),
  ...["cause", "causes", "caused"].map((verb) => [verb, "reason"]),
]);

/**
 * Measures: before "of" after "what is" they ask an amount ("What is the speed of light?" / "Who first measured the speed
 * of light?"). Not "value", as often a worth as an amount ("What is the value of education?"), nor "length", which "How
 * long can it be?" asks as a duration.
 */
export const MEASURES: readonly string[] = ["speed", "population", "price", "cost", "weight", "height", "size", "temperature", "salary", "mass", "density"];

/**
 * Nouns that name the kind when "of" follows, a few words after "what" ("What are the main causes of stress?" asks
 * why; "What are the effects of stress?" what stress brings about); a reason's nouns with "for" too ("the reasons for").
 */
export const OF_KIND_NOUNS: Readonly<Record<string, AnswerKind>> = Object.fromEntries([
  ...["cause", "causes", "reason", "reasons"].map((noun) => [noun, "reason"]),
  ...["effect", "effects", "consequence", "consequences", "impact", "impacts", "outcome", "outcomes"].map((noun) => [noun, "effect"]),
]);

/**
 * After "what", the verbs that let a measure before "of" name what is asked ("What is the price of gold?", "What will
 * the population of India be?"); after another verb "what" is its subject and asks for a thing ("What determines
 * the price of oil?" asks why), and "what's" is "what is".
 */
export const MEASURE_ASKERS: readonly string[] = ["is", "are", "was", "were", "will", "would", "should", "could", "can", "may", "might", "be"];
/** Between "what" and a measure, words that put it inside another noun's phrase ("the significance of the speed of light"). */
export const MEASURE_HOLDERS: readonly string[] = ["of", "for", "between", "with", "about"];

/**
 * Verbs after "what" that ask what will come of something, an outcome ("What happens if I drink too much water?"), after
 * one of HAPPENING_AUXILIARIES or "is going to" too ("What will happen if ...?"). Not "What happened to ...?" or "What did happen ...?",
 * which ask for an event, nor "Which happens first?".
 */
export const HAPPENING_VERBS: readonly string[] = ["happens", "happen"];
export const HAPPENING_AUXILIARIES: readonly string[] = ["will", "would", "could", "can", "might", "may", "should", "does", "do"];

/** How many words after "what" such a noun may stand: "What were the most important causes of", "the long-term consequences of". */
const OF_KIND_REACH = 6;

/** Lengths after "how many" or "how much": "how many miles" asks how far. */
export const DISTANCE_NOUNS: readonly string[] = "distance miles mile kilometers kilometres km kms meters metres feet foot yards inches".split(" ");

/**
 * Times after "how many" or "how much": "how much time" asks how long, and "how many months" may too ("How many
 * months does it take?") or count them ("How many days a week?"), so it names no kind.
 */
export const TIME_NOUNS: readonly string[] =
  "time seconds minutes hours days weeks months years decades centuries second minute hour day week month year decade century".split(" ");

/** Words after "when" or "where" that make it a question ("When did ...?", "Where to buy ...?"), not a clause ("When I run it, ..."). */
export const QUESTION_AUXILIARIES: readonly string[] =
  "is are was were do does did will would can could should shall has have had may might must to".split(" ");

/** Prepositions a question phrase may follow ("In which year ...?", "At what age ...?", "Since when ...?"). */
export const PHRASE_PREPOSITIONS: readonly string[] = ["in", "at", "on", "for", "of", "by", "from", "to", "since", "until", "till", "during"];

/**
 * Kinds one answer can serve: an age is when it happened and how long it has been ("When did you realise?" / "At
 * what age did you realise?", "How old is the universe?" / "How long has the universe existed?"); a count may be
 * in units of length ("How many feet are in a mile?" / "How much is a mile in feet?"), an effect's size its effect.
 */
export const ALIKE_KINDS: ReadonlyArray<readonly [AnswerKind, AnswerKind]> = [
  ["age", "time"],
  ["age", "duration"],
  ["amount", "distance"],
  // "How much impact does caffeine have on sleep?" asks for the effect, by its size.
  ["amount", "effect"],
  // What happens is what comes of it ("What happens if I skip a dose?" / "What are the effects of skipping a dose?"), or
  // where a thing ends up ("What happens to my 401k when I leave my job?" / "Where does my 401k go ...?").
  ["outcome", "effect"],
  ["outcome", "place"],
  // "Where can I learn Python?" / "How can I learn Python?". Not a person: "Who do I vote for?" is no way to vote.
  ["method", "place"],
];

// Maps, not the records: a word such as "constructor" must not read an object's own property.
const HOW = new Map(Object.entries(HOW_KINDS));
const NOUNS = new Map(Object.entries(KIND_NOUNS));
const OF_NOUNS = new Map(Object.entries(OF_KIND_NOUNS));
const MEASURE_ASKER = new Set(MEASURE_ASKERS);
const MEASURE_HOLDER = new Set(MEASURE_HOLDERS);
const MEASURE = new Set(MEASURES);
// After "what is" (or "what's", "what will be"), a determiner opens the measure's own phrase ("what is the price of");
// another word makes it a verb's object ("what is driving the price of").
const DETERMINER = new Set(DETERMINERS);
const BREAKERS = new Map(Object.entries(KIND_BREAKERS).map(([word, breakers]) => [word, new Set(breakers)]));
const DISTANCES = new Set(DISTANCE_NOUNS);
const TIMES = new Set(TIME_NOUNS);
const AUXILIARIES = new Set(QUESTION_AUXILIARIES);
const PREPOSITIONS = new Set(PHRASE_PREPOSITIONS);
const HAPPENING = new Set(HAPPENING_VERBS);
const HAPPENING_AUXILIARY = new Set(HAPPENING_AUXILIARIES);

/**
 * The kind of answer a question phrase asks for, and the index of the word that only asks for it ("long" in "how
 * long", "time" in "how much time"; -1: none). A noun after "what" or "how many" says more than the kind ("what
 * year" / "what month", "how many feet" / "how many yards"): it is compared as any other word.
 */
export interface QuestionPhrase {
  readonly kind: AnswerKind;
  readonly word: number;
}

const NONE: QuestionPhrase = { kind: "", word: -1 };

/** "How" with one of these and then one of METHOD_ASKERS asks for a method: "how do I", "how can you", "how does one". */
export const METHOD_AUXILIARIES: readonly string[] = ["do", "does", "did", "can", "could", "should", "would", "shall", "will", "may", "might", "must"];
export const METHOD_ASKERS: readonly string[] = ["i", "you", "we", "one", "people", "someone", "u"];
/**
 * A way to learn something that another question word asks: "How do I know when my steak is done?" asks when, "How
 * can I see who viewed my profile?" who; such a question names no kind of its own.
 */
export const FINDING_VERBS: readonly string[] = ["know", "find", "see", "tell", "check", "figure", "determine", "learn", "work"];
/**
 * The question words a finding verb may ask, up to three words after it ("find out who", "tell if", "see exactly who");
 * not "how to", a method still ("How can I learn how to swim?"), unless it finds out in turn ("learn how to tell when").
 */
export const FOUND_QUESTIONS: readonly string[] = ["who", "whom", "whose", "when", "why", "where", "what", "which", "if", "whether", "how"];
/**
 * Passives after "how will" or "how would" and a subject that ask for an effect, no method: "How will I be affected by
 * Brexit?" asks what will come of it, as "What will happen to me after Brexit?" does. Only right after "be" or "been",
 * with no negation before it ("How can I avoid being affected?", "How will I never be affected?" ask for a method; "How
 * long will I be affected?" a duration); not after "can", "should", ..., which ask how to bring it about ("How can
 * people be influenced to vote?").
 */
export const EFFECT_PASSIVES: readonly string[] = ["affected", "impacted", "influenced"];
export const EFFECT_AUXILIARIES: readonly string[] = ["will", "would"];
export const PASSIVE_BE_FORMS: readonly string[] = ["be", "been"];
/** How many words after "how" such a passive may stand: "How will my small business be affected". */
const EFFECT_PASSIVE_REACH = 5;
const BE_FORMS = new Set(PASSIVE_BE_FORMS);
const EFFECT_AUXILIARY = new Set(EFFECT_AUXILIARIES);
const NEGATIONS = new Set(GUARD_LISTS.negations);
const EFFECT_PASSIVE = new Set(EFFECT_PASSIVES);
const AUXILIARIES_OF_A_METHOD = new Set(METHOD_AUXILIARIES);
const ASKERS = new Set(METHOD_ASKERS);
const FINDING = new Set(FINDING_VERBS);
const FOUND = new Set(FOUND_QUESTIONS);

/**
 * Whether a finding verb at word `k` asks another question word, up to three words after it ("know when", "find out
 * who"); "how to" asks a method, unless a finding verb after it asks another ("learn how to tell when").
 */
function findsOut(words: readonly string[], k: number): boolean {
  if (!FINDING.has(words[k] ?? "")) return false;
  const offset = words.slice(k + 1, k + 4).findIndex((word) => FOUND.has(word));
  if (offset < 0) return false;
  const asked = k + 1 + offset;
  return words[asked] === "how" && words[asked + 1] === "to" ? findsOut(words, asked + 2) : true;
}

/** Whether "how" at word `i` asks for an effect in a passive: "how will I be affected", "how would my taxes have been affected". */
function asksEffect(words: readonly string[], i: number): boolean {
  if (!EFFECT_AUXILIARY.has(words[i + 1] ?? "")) return false;
  // The subject first: "how will I be affected", not "how will be affected".
  for (let k = i + 4; k <= i + EFFECT_PASSIVE_REACH && k < words.length; k++) {
    if (EFFECT_PASSIVE.has(words[k])) return BE_FORMS.has(words[k - 1]) && !NEGATIONS.has(words[k - 2]);
  }
  return false;
}

/** Whether "how" at word `i` asks for a method: "how do I ...", not "how do I know when ...". */
function asksMethod(words: readonly string[], i: number): boolean {
  return AUXILIARIES_OF_A_METHOD.has(words[i + 1] ?? "") && ASKERS.has(words[i + 2] ?? "") && !findsOut(words, i + 3);
}

/**
 * A comparative after "how much" ("how much longer", "how much bigger", "how much easier", "how much better"): a word
 * in -er whose base is a word ("long", "big", "easy", "good"), so that "how much water" or "how much sugar" asks an
 * amount. Crude: a noun whose stem is a word reads as one too ("paper", "butter", "number", "printer"), and asks no kind.
 */
function isComparative(word: string): boolean {
  if (word.length <= 4 || !word.endsWith("er")) return false;
  const stem = word.slice(0, -2);
  const bases = [stem, `${stem}e`, stem.endsWith("i") ? `${stem.slice(0, -1)}y` : "", /([b-df-hj-np-tv-z])\1$/.test(stem) ? stem.slice(0, -1) : ""];
  // An irregular one the lexicon knows the base of: "better" (good).
  return bases.some((base) => base.length > 1 && lemmasOf(base).length > 0) || lemmasOf(word).some((lemma) => lemma !== word);
}

/** The question phrase of "how" at word `i` ("how long", "how many miles", "how much time"). */
function howPhrase(words: readonly string[], i: number): QuestionPhrase {
  const next = words[i + 1] ?? "";
  const after = words[i + 2] ?? "";
  const kind = HOW.get(next);
  if (asksEffect(words, i)) return { kind: "effect", word: -1 };
  if (asksMethod(words, i)) return { kind: "method", word: -1 };
  if (kind === undefined || BREAKERS.get(next)?.has(after)) return next === "long" && after === "ago" ? { kind: "time", word: -1 } : NONE;
  if (kind !== "amount") return { kind, word: i + 1 };
  if (DISTANCES.has(after)) return { kind: "distance", word: -1 };
  if (TIMES.has(after)) return next === "much" && after === "time" ? { kind: "duration", word: i + 2 } : NONE;
  return isComparative(after) ? NONE : { kind: "amount", word: -1 };
}

/**
 * Whether "what" at word `i` asks what happens: "what happens", "what will happen", "what would happen", "what is going
 * to happen" ("what's going to happen", its "is" lost with the apostrophe).
 */
function happens(words: readonly string[], i: number): boolean {
  if (words[i] !== "what") return false;
  let k = i + 1;
  if (words[k] === "is" || words[k] === "are") k++;
  if (words[k] === "going" && words[k + 1] === "to") k += 2;
  else if (k === i + 1 && HAPPENING_AUXILIARY.has(words[k] ?? "")) k++;
  return HAPPENING.has(words[k] ?? "");
}

/**
 * Whether a measure at word `k` names what "what" at word `i` asks: "what is" (or "what's", `contracted`, or "what will
 * ... be") and a determiner before it (not "what is driving the price of"), nothing between that puts it in another
 * noun's phrase, and no other kind's noun ("What are the effects of the size of a class?" asks an effect).
 */
function measureAsked(words: readonly string[], i: number, k: number, contracted: boolean): boolean {
  if (words[i] !== "what" || !(contracted || MEASURE_ASKER.has(words[i + 1] ?? ""))) return false;
  const opens = contracted ? i + 1 : i + 2;
  if (!DETERMINER.has(words[words[opens] === "be" ? opens + 1 : opens] ?? "")) return false;
  return words.slice(i + 1, k).every((word) => !MEASURE_HOLDER.has(word) && !OF_NOUNS.has(word));
}

/**
 * The kind a noun before "of" (or a reason's before "for") names, up to OF_KIND_REACH words after "what" at word `i`
 * ("the effects of"), or "": none, or both kinds asked ("the causes and effects of", a noun before "and" counting; a
 * measure only before "of", where it names what is asked: measureAsked).
 */
function ofKind(words: readonly string[], i: number, contracted: boolean): AnswerKind {
  const asked = new Set<AnswerKind>();
  for (let k = i + 1; k <= i + OF_KIND_REACH && k < words.length; k++) {
    const next = words[k + 1];
    const kind = OF_NOUNS.get(words[k]);
    if (kind !== undefined && (next === "of" || next === "and" || (kind === "reason" && next === "for"))) asked.add(kind);
    else if (MEASURE.has(words[k]) && next === "of" && measureAsked(words, i, k, contracted)) asked.add("amount");
  }
  return asked.size === 1 ? [...asked][0] : "";
}

/**
 * The question phrase at word `i`, or undefined when word `i` opens none. `contracted`: the word was written with
 * "'s" or "'re" ("Where's the station?"), which the words have lost.
 */
function phraseAt(words: readonly string[], i: number, contracted: boolean): QuestionPhrase | undefined {
  const next = words[i + 1] ?? "";
  switch (words[i]) {
    case "when":
      return contracted || AUXILIARIES.has(next) ? { kind: "time", word: -1 } : undefined;
    case "where":
      return contracted || AUXILIARIES.has(next) ? { kind: "place", word: -1 } : undefined;
    case "who":
    case "whom":
      return { kind: "person", word: -1 };
    case "why":
      return { kind: "reason", word: -1 };
    case "what":
    case "which":
      return { kind: NOUNS.get(next) ?? (happens(words, i) ? "outcome" : ofKind(words, i, contracted)), word: -1 };
    case "how":
      return howPhrase(words, i);
    default:
      return undefined;
  }
}

/** Words after which a question word opens a second question ("Why does it rotate, and what happens if it stops?"). */
export const QUESTION_JOINERS: readonly string[] = ["and", "or", "but"];
const JOINERS = new Set(QUESTION_JOINERS);

/**
 * Every question phrase, in order, and the kind of answer each asks for ("Why is he popular? What will happen if he
 * wins?": a reason and an outcome): one that starts a sentence or follows a preposition ("In which year"), or, after
 * another, follows "and", "or" or "but" ("Why does it rotate, and what happens if it stops?"); a question word inside a
 * clause ("I know how long it is", "people who ...") opens none. The first is never a joined one. `contracted` holds the
 * indexes of words written with "'s" or "'re".
 */
export function questionPhrasesOf(words: readonly string[], sentenceStarts: ReadonlySet<number>, contracted: ReadonlySet<number>): QuestionPhrase[] {
  const phrases: QuestionPhrase[] = [];
  for (let i = 0; i < words.length; i++) {
    // A joined phrase only after one read: in "If you made a film of your life, who would play you and why?" the "who"
    // opens no sentence, and the "why" is not read alone.
    const joined = JOINERS.has(words[i - 1]) && phrases.length > 0;
    if (!sentenceStarts.has(i) && !PREPOSITIONS.has(words[i - 1]) && !joined) continue;
    const phrase = phraseAt(words, i, contracted.has(i));
    if (phrase !== undefined) phrases.push(phrase);
  }
  return phrases;
}

/** The first of `phrases` (questionPhrasesOf), or one that names no kind and no word. */
export const firstPhrase = (phrases: readonly QuestionPhrase[]): QuestionPhrase => phrases[0] ?? NONE;

/** Whether two kinds of answer differ, each named, so that one answer cannot serve both. */
function kindsDiffer(a: AnswerKind, b: AnswerKind): boolean {
  if (a === "" || b === "" || a === b) return false;
  return !ALIKE_KINDS.some(([x, y]) => (a === x && b === y) || (a === y && b === x));
}

/**
 * Whether the two questions ask for different kinds of answer (questionPhrasesOf each, phrases that name none left out):
 * each side names one, and one side asks a kind that no kind of the other's is or is alike with, so that one answer
 * cannot serve both ("Who won the 2018 World Cup and where was it held?" / "Where was the 2018 World Cup held?": the
 * second's answer tells no winner, and the first's tells more than was asked).
 */
export function answerKindsDiffer(a: readonly QuestionPhrase[], b: readonly QuestionPhrase[]): boolean {
  const named = (phrases: readonly QuestionPhrase[]) => phrases.map(({ kind }) => kind).filter((kind) => kind !== "");
  const [x, y] = [named(a), named(b)];
  const unmet = (asked: AnswerKind[], other: AnswerKind[]) => asked.some((p) => other.every((q) => kindsDiffer(p, q)));
  return x.length > 0 && y.length > 0 && (unmet(x, y) || unmet(y, x));
}
