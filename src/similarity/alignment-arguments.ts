/**
 * Who does what to whom in a clause: a verb, the one who acts (its agent) and the one acted on (its patient),
 * read from the words around the verb. Two questions whose arguments trade places around the same verb ask
 * different things ("Can a landlord evict a tenant?" / "Can a tenant evict a landlord?"), and so does a passive
 * that keeps the order of an active ("Was Mozart taught by Haydn?" / "Did Mozart teach Haydn?"), while a passive
 * that turns it round asks the same ("Was Mozart taught by Haydn?" / "Did Haydn teach Mozart?").
 */
import {
  CONTEST_VERBS,
  DETERMINERS,
  INITIATED_RELATIONS,
  NAMED_CONTEST_VERBS,
  PASSIVE_AUXILIARIES,
  PAST_EVENT_AUXILIARIES,
  ROLE_AUXILIARIES,
  SYMMETRIC_RELATIONS,
  SYMMETRIC_WORDS,
  VERB_PREPOSITIONS,
  WINNING_VERBS,
} from "./alignment-lists.js";
import { isParticiple, type RoleWords } from "./alignment-question-role.js";
import type { QuestionFacts } from "./guard-text.js";
import { lemmasOf } from "./lexicon.js";

/** A side's words, its content words and where they stand, and the names and plurals it holds. */
export interface ArgumentWords extends RoleWords {
  readonly content: readonly string[];
  readonly facts: Pick<QuestionFacts, "entities" | "plurals">;
}

/** A verb and its two arguments, as indexes of a side's content words (a name of several words is several). */
export interface Clause {
  readonly agent: readonly number[];
  readonly verb: number;
  readonly patient: readonly number[];
  /** Whether both arguments are names ("Brazil play Germany"). */
  readonly betweenNames: boolean;
  /**
   * Whether it tells a past event: "did", "was" or "were" before its first argument ("Did Ali defeat Foreman?", "Was
   * Foreman defeated by Ali?"), or its verb in -ed ("Ali defeated Foreman"); a past in another form ("beaten") is not read.
   */
  readonly past: boolean;
}

const DETERMINER = new Set(DETERMINERS);
const AUXILIARY = new Set(ROLE_AUXILIARIES);
const PASSIVE = new Set(PASSIVE_AUXILIARIES);
const NAMED_CONTEST = new Set(NAMED_CONTEST_VERBS);
const WINNING = new Set(WINNING_VERBS);
const VERB_PREPOSITION = new Set(VERB_PREPOSITIONS);
const PAST_EVENT = new Set(PAST_EVENT_AUXILIARIES);
const SYMMETRIC = new Set(SYMMETRIC_WORDS);
/** Contests and relations that hold both ways, but for the ones somebody starts ("date", "kiss"). */
const MUTUAL = new Set([...CONTEST_VERBS, ...SYMMETRIC_RELATIONS.filter((verb) => !INITIATED_RELATIONS.includes(verb))]);

/** Whether content word `k` of a side opens a noun phrase ("a landlord", "my tenant"). */
const opensPhrase = (s: ArgumentWords, k: number) => s.positions[k] > 0 && DETERMINER.has(s.words[s.positions[k] - 1]);

/** How many content words a name may run over: "Harry Potter", "Manchester United", "Martin Luther King". */
const MAX_NAME_WORDS = 3;

/**
 * The names a side writes, each as the run of its content words, in a row, that spell one of its names ("Harry
 * Potter", "Germany"); the longest where runs overlap.
 */
export function namesOf(s: ArgumentWords): number[][] {
  const names: number[][] = [];
  const entities = [...s.facts.entities];
  for (let k = 0; k < s.content.length; k++) {
    if (!entities.some((entity) => entity.startsWith(s.content[k]))) continue;
    for (let length = Math.min(MAX_NAME_WORDS, s.content.length - k); length >= 1; length--) {
      const run = Array.from({ length }, (_, n) => k + n);
      const inRow = run.every((m, n) => n === 0 || s.positions[m] === s.positions[m - 1] + 1);
      if (inRow && s.facts.entities.has(run.map((m) => s.content[m]).join(""))) {
        names.push(run);
        k += length - 1;
        break;
      }
    }
  }
  return names;
}

/**
 * Whether content words `k`, `k + 1`, `k + 2` are three in a row after an auxiliary ("Do cats eat mice?", "How do
 * plants benefit fungi?"): a subject, its verb in its base form and its object. Elsewhere such a row is a compound or
 * a list ("Latin-speaking countries", "Do Indians, Pakistanis, Bangladeshis share ...?").
 */
function isBareClause(s: ArgumentWords, k: number, inName: (k: number) => boolean): boolean {
  const verb = s.content[k + 1];
  const inRow = AUXILIARY.has(s.words[s.positions[k] - 1] ?? "") && s.positions[k + 1] === s.positions[k] + 1 && s.positions[k + 2] === s.positions[k] + 2;
  return inRow && lemmasOf(verb).includes(verb) && !inName(k + 1) && !s.facts.plurals.has(verb);
}

/**
 * The clauses of a side:
 * - a noun phrase or a name, its verb (no word of a name: "Google, Apple, Microsoft" is a list) next or up to two
 *   small words on ("an extrovert to become", "a landlord have to give"), and the other noun phrase or name just
 *   after the verb ("a landlord evict a tenant", "Harry Potter kill Voldemort"); not across clauses ("my fridge is
 *   not working but my freezer");
 * - a bare clause after an auxiliary ("Do cats eat mice?");
 * - a passive: a noun phrase or a name, a form of "be" before it or before the verb, a past participle, "by" and
 *   the one who acts ("Was Mozart taught by Haydn?", "Is the mouse chased by the cat?").
 */
export function clausesOf(s: ArgumentWords, names: readonly (readonly number[])[]): Clause[] {
  // The name each content word belongs to, if any.
  const nameOf: Array<readonly number[] | undefined> = s.content.map(() => undefined);
  for (const name of names) for (const k of name) nameOf[k] = name;
  const nameEndingAt = (k: number) => (nameOf[k]?.at(-1) === k ? nameOf[k] : undefined);
  const nameStartingAt = (k: number) => (nameOf[k]?.[0] === k ? nameOf[k] : undefined);
  const inName = (k: number) => nameOf[k] !== undefined;
  const before = (k: number) => (opensPhrase(s, k) ? [k] : nameEndingAt(k));
  const after = (k: number) => (opensPhrase(s, k) ? [k] : nameStartingAt(k));
  const clauses: Clause[] = [];
  const add = (agent: readonly number[], verb: number, patient: readonly number[]) => {
    const first = Math.min(agent[0], patient[0]);
    const opensAt = s.positions[first] - (opensPhrase(s, first) ? 1 : 0);
    const past = PAST_EVENT.has(s.words[opensAt - 1]) || s.content[verb].endsWith("ed");
    clauses.push({ agent, verb, patient, betweenNames: [...agent, ...patient].every(inName), past });
  };
  for (let verb = 1; verb + 1 < s.content.length; verb++) {
    if (inName(verb)) continue;
    if (isBareClause(s, verb - 1, inName)) add([verb - 1], verb, [verb + 1]);
    const at = s.positions[verb];
    // Where the phrase after the verb opens: its determiner, or its first word.
    const secondAt = s.positions[verb + 1] - (opensPhrase(s, verb + 1) ? 1 : 0);
    const first = before(verb - 1);
    const second = after(verb + 1);
    // The second phrase just after the verb, or after one preposition that keeps who acts ("work for Lucius Fox"); not
    // after a participle, which qualifies the first ("the database used for Quora").
    const participle = isParticiple(s.words[at]);
    const objectAt = secondAt === at + 1 || (secondAt === at + 2 && VERB_PREPOSITION.has(s.words[at + 1]) && !participle);
    if (first && second && at - s.positions[verb - 1] <= 3 && objectAt) add(first, verb, second);
    if (participle && s.words[at + 1] === "by" && secondAt === at + 2) {
      // A passive's arguments may be bare nouns too ("Are sharks eaten by orcas?"): "be" and "by" mark them.
      const patient = first ?? [verb - 1];
      const patientEnd = s.positions[verb - 1];
      const firstAt = s.positions[patient[0]] - (opensPhrase(s, patient[0]) ? 1 : 0);
      // "be" before the verb ("Mozart was taught by", "has Mozart been taught by") or, in a question, before its subject ("Was Mozart taught by").
      const be = (PASSIVE.has(s.words[at - 1]) && at === patientEnd + 2) || (at === patientEnd + 1 && PASSIVE.has(s.words[firstAt - 1]));
      if (be) add(second ?? [verb + 1], verb, patient);
    }
  }
  return clauses;
}

/** A verb whose two arguments can trade places and ask the same ("Can a pit bull beat a wolf?", "Can a Hindu marry a Muslim?", "How is the brain different from the mind?"). */
const isMutual = (word: string) => SYMMETRIC.has(word) || [word, ...lemmasOf(word)].some((lemma) => MUTUAL.has(lemma));

/**
 * Whether a clause reads the same with its arguments turned round: a mutual verb, or a contest between two names
 * ("Brazil play Germany"); not a win between names told in the past ("Did Ali defeat Foreman?": one event, one winner).
 */
function readsBothWays(s: ArgumentWords, clause: Clause): boolean {
  const verb = s.content[clause.verb];
  const lemmas = [verb, ...lemmasOf(verb)];
  if (clause.betweenNames && clause.past && lemmas.some((lemma) => WINNING.has(lemma))) return false;
  return isMutual(verb) || (clause.betweenNames && lemmas.some((lemma) => NAMED_CONTEST.has(lemma)));
}

/** A side's words with its clauses, read once with the side. */
export interface ClauseSide extends ArgumentWords {
  readonly clauses: readonly Clause[];
}

/** Whether every content word of `argument` lands, through `toOther`, in `otherArgument`. */
const landsIn = (toOther: readonly number[], argument: readonly number[], otherArgument: readonly number[]) => argument.every((k) => otherArgument.includes(toOther[k]));

/**
 * Whether the two sides' verbs' arguments trade places: the same verb ("evict", "taught" / "teach"), the one
 * acting on one side the one acted on on the other, and the other way round ("Can a landlord evict a tenant?" /
 * "Can a tenant evict a landlord?", "Was Mozart taught by Haydn?" / "Did Mozart teach Haydn?"). Only arguments
 * next to their verb: a rewording turns a compound round ("video editing software" / "software to edit videos")
 * or moves a phrase to the front, with no such swap. `toB` maps content words of `a` to `b`'s; `sameWord` tells
 * the verb's forms apart from other words.
 */
export function swapsArguments(a: ClauseSide, b: ClauseSide, toB: readonly number[], sameWord: (x: string, y: string) => boolean): boolean {
  if (a.clauses.length === 0 || b.clauses.length === 0) return false;
  const toA = b.content.map((_, j) => toB.indexOf(j));
  // Each argument's words land in the other's, read from either side: "Harry" and "Harry Potter" name one person.
  const traded = (x: Clause, y: Clause) =>
    (landsIn(toB, x.agent, y.patient) && landsIn(toB, x.patient, y.agent)) || (landsIn(toA, y.agent, x.patient) && landsIn(toA, y.patient, x.agent));
  return a.clauses.some((x) =>
    b.clauses.some(
      (y) =>
        toB[x.verb] === y.verb && sameWord(a.content[x.verb], b.content[y.verb]) && !readsBothWays(a, x) && !readsBothWays(b, y) && traded(x, y),
    ),
  );
}
