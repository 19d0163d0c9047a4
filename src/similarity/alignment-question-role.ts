/**
 * Which argument of its verb a question asks for. "Who taught Aristotle?" asks for the one who taught (the
 * subject): the verb follows its question word. "Who did Aristotle teach?" asks for the one taught (the object):
 * an auxiliary follows the question word, then the named argument, then the verb. Two questions that share the
 * verb and the named argument but ask for its other role ask different things ("What do cats eat?" / "What eats
 * cats?", "What causes stress?" / "What does stress cause?").
 */
import { BOTH_WAYS_AFTER_VERB, DETERMINERS, DO_AUXILIARIES, PASSIVE_AUXILIARIES, PERFECT_AUXILIARIES, ROLE_AUXILIARIES, ROLE_QUESTION_WORDS, SYMMETRIC_RELATIONS } from "./alignment-lists.js";
import { IRREGULAR_VERB_FORMS } from "./irregular-forms.js";
import { lemmasOf } from "./lexicon.js";

/** A side's words and where its content words stand among them. */
export interface RoleWords {
  readonly words: readonly string[];
  readonly positions: readonly number[];
}

const ASKING = new Set(ROLE_QUESTION_WORDS);
const AUXILIARY = new Set(ROLE_AUXILIARIES);
const DO = new Set(DO_AUXILIARIES);
const PERFECT = new Set(PERFECT_AUXILIARIES);
const PASSIVE = new Set(PASSIVE_AUXILIARIES);
const DETERMINER = new Set(DETERMINERS);
const SYMMETRIC = new Set(SYMMETRIC_RELATIONS);
const BOTH_WAYS_AFTER = new Set(BOTH_WAYS_AFTER_VERB);

/** A modal: an auxiliary with a meaning of its own, which may take the verb right after it ("can", "will"; not "do"). */
const isModal = (word: string) => AUXILIARY.has(word) && !DO.has(word);

/** A past participle: an irregular verb form, or a word in -ed or -en that the lexicon reads as a form of another ("acquired", "taken", "bought"; not "red", "garden"). */
export const isParticiple = (word: string) => IRREGULAR_VERB_FORMS.has(word) || (/(?:ed|en)$/.test(word) && lemmasOf(word).some((lemma) => lemma !== word));

/** How many content words after the verb asking for its subject the argument may stand: "export cars to Germany". */
const ARGUMENT_REACH = 2;

/** Whether the word at `argument` follows the one at `at` with nothing but determiners and digits between ("did the 2008 crisis"). */
const follows = (words: readonly string[], at: number, argument: number) =>
  argument > at && words.slice(at + 1, argument).every((word) => DETERMINER.has(word) || /^\d/.test(word));

/** Most words of the noun after "what" or "which": "What social media apps does Facebook own?". */
const QUESTION_NOUN_WORDS = 3;

/**
 * Where a question's verb or auxiliary may stand: just after its question word, or after "what" or "which" and
 * their noun of up to QUESTION_NOUN_WORDS words ("Which company bought ...?", "What health problems can ...?"); none
 * when it opens with no such word.
 */
function afterQuestionWord(s: RoleWords): number[] {
  if (!ASKING.has(s.words[0])) return [];
  if (s.words[0] !== "what" && s.words[0] !== "which") return [1];
  let nounWords = 0;
  while (nounWords < QUESTION_NOUN_WORDS && s.positions.includes(nounWords + 1)) nounWords++;
  return Array.from({ length: nounWords + 1 }, (_, k) => k + 1);
}

/** How many words after its question word an auxiliary makes a question ask for an object ("What success metrics does ..."). */
const AUXILIARY_REACH = QUESTION_NOUN_WORDS + 1;

/**
 * The content words that may be the verb of a question asking for its subject: just after its question word
 * ("taught" in "Who taught Aristotle?", "bought" in "Which company bought Apple?", "pardoned" in "Who has pardoned Obama?"), or just after a modal there when
 * its object opens with a determiner ("kill" in "Which animals can kill a lion?"; after "do" stands the subject:
 * "What do cats eat?"); none where an auxiliary follows soon otherwise ("What discoveries did Einstein make?").
 */
function subjectVerbs(s: RoleWords): number[] {
  const places = afterQuestionWord(s);
  // A verb after a modal takes an object that opens with a determiner ("can kill a lion"); else a name may stand there ("What will President Obama do?").
  const afterModal = places.filter((at) => isModal(s.words[at]) && DETERMINER.has(s.words[at + 2])).map((at) => at + 1);
  const verbPlaces = afterModal.length > 0 ? afterModal : s.words.slice(1, 1 + AUXILIARY_REACH).some((word) => AUXILIARY.has(word)) ? [] : places;
  // "has" and a past participle: the participle is the verb ("Who has pardoned Obama?").
  return contentAt(s, verbPlaces.map((at) => (PERFECT.has(s.words[at]) && isParticiple(s.words[at + 1] ?? "") ? at + 1 : at)));
}

/** The content words among `places` of a side's words. */
const contentAt = (s: RoleWords, places: readonly number[]) => places.flatMap((at) => (s.positions.includes(at) ? [s.positions.indexOf(at)] : []));

/**
 * The content words just after a modal by its question word, whatever follows them ("cause" in "What can cause
 * headaches?"). A noun may stand there too ("physics" in "What can physics students learn?", "Obama" in "What will
 * Obama do as president?"), so these count only with their argument right after them, against an object-asking
 * side whose verb follows its subject's words at once ("What can headaches cause?").
 */
const verbsAfterModal = (s: RoleWords) => contentAt(s, afterQuestionWord(s).filter((at) => isModal(s.words[at])).map((at) => at + 1));

/** How many words after a verb its "with" may stand: "compete with", "go well with", "share a border with". */
const WITH_REACH = 3;

/**
 * Whether content word `verb` of a side names a relation that holds both ways: a symmetric verb ("marry", "border")
 * or one followed within WITH_REACH words by "with" or "against" ("compete with", "share a border with").
 */
function holdsBothWays(s: RoleWords, verb: number): boolean {
  const at = s.positions[verb];
  const word = s.words[at];
  return [word, ...lemmasOf(word)].some((lemma) => SYMMETRIC.has(lemma)) || s.words.slice(at + 1, at + 1 + WITH_REACH).some((next) => BOTH_WAYS_AFTER.has(next));
}

/**
 * The content words [verb, argument] of a question asking for its verb's object: an auxiliary after the question
 * word, its subject just after, and the verb later ("Who did Aristotle teach?": teach, Aristotle). Any later content
 * word may be the verb; the other side's verb, which must stand just after its question word or a modal, tells which.
 */
function objectAsked(s: RoleWords): Array<readonly [number, number]> {
  return afterQuestionWord(s).flatMap((at) => {
    const perfect = PERFECT.has(s.words[at]);
    if (!AUXILIARY.has(s.words[at]) && !perfect) return [];
    const argument = s.positions.findIndex((position) => position > at);
    if (argument < 0 || !follows(s.words, at, s.positions[argument])) return [];
    const isVerb = (verb: number) => verb > argument && (!perfect || isParticiple(s.words[s.positions[verb]]));
    return s.positions.flatMap((_, verb) => (isVerb(verb) ? [[verb, argument] as const] : []));
  });
}

/** Most words of a subject between a modal and its verb that a modal's verb may take as its object: "What can high blood pressure cause?". */
const MODAL_SUBJECT_WORDS = 3;

/**
 * Whether the object side's subject, up to MODAL_SUBJECT_WORDS content words in a row from `argument`, stands just
 * before its verb ("What can high blood pressure cause?") and, in the same order, just after the subject side's verb
 * after its modal ("What can cause high blood pressure?"); not a later word taken for the verb ("What should women
 * eat during pregnancy?" / "What should pregnant women eat?").
 */
function objectFollowsModal(subject: RoleWords, object: RoleWords, toSubject: readonly number[], verb: number, argument: number): boolean {
  const length = verb - argument;
  if (length > MODAL_SUBJECT_WORDS || object.positions[verb] - object.positions[argument] !== length) return false;
  const subjectVerb = toSubject[verb];
  const inOrder = Array.from({ length }, (_, k) => toSubject[argument + k] === subjectVerb + 1 + k).every(Boolean);
  const first = subject.positions[subjectVerb + 1];
  return inOrder && follows(subject.words, subject.positions[subjectVerb], first) && subject.positions[subjectVerb + length] - first === length - 1;
}

/** What a passive question asks: its verb, the argument it names, and whether it asks for the one acting (the agent). */
interface PassiveAsked {
  readonly verb: number;
  readonly argument: number;
  readonly asksAgent: boolean;
}

/**
 * The passive questions of a side, as content words. "Which company was acquired by Google?" asks for the one acted
 * on, Google acting ("Which company did Google acquire?"); "Who was Lincoln assassinated by?" and "By whom was Lincoln
 * assassinated?" ask for the one acting, Lincoln acted on ("Who assassinated Lincoln?").
 */
function passiveAsked(s: RoleWords): PassiveAsked[] {
  const content = (at: number) => s.positions.indexOf(at);
  const firstAfter = (at: number) => s.positions.findIndex((position) => position > at && follows(s.words, at, position));
  const byWhom = s.words[0] === "by" && ASKING.has(s.words[1]);
  return [...afterQuestionWord(s), ...(byWhom ? [2] : [])].flatMap((at): PassiveAsked[] => {
    if (!PASSIVE.has(s.words[at])) return [];
    // The verb just after "be", "by" and the one acting after it: "was acquired by Google".
    const argument = firstAfter(at + 2);
    if (!byWhom && content(at + 1) >= 0 && isParticiple(s.words[at + 1]) && s.words[at + 2] === "by" && argument >= 0) {
      return [{ verb: content(at + 1), argument, asksAgent: false }];
    }
    // The one acted on just after "be", then the verb, and "by" with no one after it: "was Lincoln assassinated by?".
    const actedOn = firstAfter(at);
    // "by" with no one after it ("Who was Mozart taught by as a child?"): not "Who was the first person killed by a shark?".
    const byNoOne = (position: number) => s.words[position + 1] === "by" && !s.positions.includes(position + 2) && !DETERMINER.has(s.words[position + 2] ?? "");
    const verb = s.positions.findIndex((position, k) => k > actedOn && isParticiple(s.words[position]) && (byWhom || byNoOne(position)));
    return actedOn >= 0 && verb >= 0 ? [{ verb, argument: actedOn, asksAgent: true }] : [];
  });
}

/**
 * Whether a passive question of `x` asks for the other role than `y` of the same verb and argument: "Who was Lincoln
 * assassinated by?" / "Who did Lincoln assassinate?", "Which company was acquired by Facebook?" / "Which company
 * acquired Facebook?", "Who was Lincoln assassinated by?" / "Who was assassinated by Lincoln?". `toY` maps content words of `x` to `y`'s.
 */
function passiveAsksOther(x: RoleWords, y: RoleWords, toY: readonly number[]): boolean {
  const asked = passiveAsked(x);
  if (asked.length === 0) return false;
  // What y asks, read once: its verbs asking for the one acting, the one acted on, and its own passives.
  const [yAgentVerbs, yPatientAsked, yPassives] = [subjectVerbs(y), objectAsked(y), passiveAsked(y)];
  return asked.some(({ verb, argument, asksAgent }) => {
    const yVerb = toY[verb];
    const yArgument = toY[argument];
    if (yVerb < 0 || yArgument < 0 || holdsBothWays(x, verb) || holdsBothWays(y, yVerb)) return false;
    // y asks for the one acting, the one acted on after its verb: "Who assassinated Lincoln?".
    const asksAgentActive = yAgentVerbs.includes(yVerb) && yArgument > yVerb && yArgument - yVerb <= ARGUMENT_REACH;
    // y asks for the one acted on, the one acting named: "Who did Lincoln assassinate?".
    const asksPatientActive = yPatientAsked.some(([v, named]) => v === yVerb && named === yArgument);
    const otherPassive = yPassives.some((other) => other.verb === yVerb && other.argument === yArgument && other.asksAgent !== asksAgent);
    return (asksAgent ? asksPatientActive : asksAgentActive) || otherPassive;
  });
}

/**
 * Whether one side asks for its verb's subject where the other asks for the object, around the same verb, the
 * object side's subject standing just after the verb on the subject side, up to ARGUMENT_REACH content words on
 * ("Who did Aristotle teach?" / "Who taught Aristotle?", "Which countries does Germany export cars to?" / "Which
 * countries export cars to Germany?").
 * `toB` maps content words of `a` to `b`'s.
 */
export function asksOtherRole(a: RoleWords, b: RoleWords, toB: readonly number[]): boolean {
  const toA = b.positions.map((_, j) => toB.indexOf(j));
  const asksOther = (subject: RoleWords, object: RoleWords, toSubject: readonly number[]) => {
    const verbs = subjectVerbs(subject);
    const modalVerbs = verbsAfterModal(subject);
    return objectAsked(object).some(([verb, argument]) => {
      const after = toSubject[argument] - toSubject[verb];
      const asksSubject = verbs.includes(toSubject[verb]) || (modalVerbs.includes(toSubject[verb]) && objectFollowsModal(subject, object, toSubject, verb, argument));
      return asksSubject && after > 0 && after <= ARGUMENT_REACH && !holdsBothWays(object, verb) && !holdsBothWays(subject, toSubject[verb]);
    });
  };
  return asksOther(b, a, toB) || asksOther(a, b, toA) || passiveAsksOther(a, b, toB) || passiveAsksOther(b, a, toA);
}
