/**
 * Who does what to whom in a clause: a verb, the one who acts (its agent) and the one acted on (its patient),
 * read from the words around the verb. Two questions whose arguments trade places around the same verb ask
 * different things ("Can a landlord evict a tenant?" / "Can a tenant evict a landlord?"), and so does a passive
 * that keeps the order of an active ("Was Mozart taught by Haydn?" / "Did Mozart teach Haydn?"), while a passive
 * that turns it round asks the same ("Was Mozart taught by Haydn?" / "Did Haydn teach Mozart?").
 */
import {
  BOTH_WAYS_WORDS,
  CLAUSE_ADVERBS,
  CONTEST_VERBS,
  DETERMINERS,
  DISTANCE_WORDS,
  ORDERING_KIN_WORDS,
  QUESTION_OPENERS,
  INITIATED_RELATIONS,
  NAMED_CONTEST_VERBS,
  ONE_WAY_RELATION_NOUNS,
  PASSIVE_AUXILIARIES,
  PAST_EVENT_AUXILIARIES,
  PERSONAL_PRONOUNS,
  ROLE_AUXILIARIES,
  SYMMETRIC_BEFORE_TO,
  SYMMETRIC_RELATIONS,
  SYMMETRIC_WORDS,
  TRADING_BOTH_WAYS,
  VERB_PARTICLES,
  VERB_PREPOSITIONS,
  WINNING_VERBS,
} from "./alignment-lists.js";
import { escapeRegExp } from "../core/regexp.js";
import { isParticiple, type RoleWords } from "./alignment-question-role.js";
import type { QuestionFacts } from "./guard-text.js";
import { lemmasOf } from "./lexicon.js";

/** A side's words, its content words and where they stand, and the names and plurals it holds. */
export interface ArgumentWords extends RoleWords {
  readonly content: readonly string[];
  readonly facts: Pick<QuestionFacts, "entities" | "plurals" | "contracted">;
}

/**
 * A verb and its two arguments, as indexes of a side's content words (a name or a noun phrase of several words is
 * several) or a personal pronoun's code (PRONOUN_CODES: "I" and "me" are one argument).
 */
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

/**
 * Personal pronouns by form, each person one code; below -1, which maps a content word to nothing, so a pronoun never
 * stands for a content word's index.
 */
const PRONOUN_CODES = new Map(PERSONAL_PRONOUNS.flatMap((forms, person) => forms.map((form) => [form, -2 - person] as const)));
const SUBJECT_PRONOUN = new Set(PERSONAL_PRONOUNS.map((forms) => forms[0]));
const OBJECT_PRONOUN = new Set(PERSONAL_PRONOUNS.map((forms) => forms.at(-1) ?? ""));

const DETERMINER = new Set(DETERMINERS);
const AUXILIARY = new Set(ROLE_AUXILIARIES);
const PASSIVE = new Set(PASSIVE_AUXILIARIES);
const NAMED_CONTEST = new Set(NAMED_CONTEST_VERBS);
const WINNING = new Set(WINNING_VERBS);
const VERB_PREPOSITION = new Set(VERB_PREPOSITIONS);
const PAST_EVENT = new Set(PAST_EVENT_AUXILIARIES);
const SYMMETRIC = new Set(SYMMETRIC_WORDS);
const ONE_WAY_RELATION = new Set(ONE_WAY_RELATION_NOUNS);
const ADVERB = new Set(CLAUSE_ADVERBS);
const PARTICLE = new Set(VERB_PARTICLES);
const ARTICLE = new Set(["the", "a", "an"]);
const COPULA = new Set(["is", "was", "are", "were"]);
/** Contests and relations that hold both ways, but for the ones somebody starts ("date", "kiss"). */
const MUTUAL = new Set([...CONTEST_VERBS, ...SYMMETRIC_RELATIONS.filter((verb) => !INITIATED_RELATIONS.includes(verb))]);

/** Whether content word `k` of a side opens a noun phrase ("a landlord", "my tenant"). */
const opensPhrase = (s: ArgumentWords, k: number) => s.positions[k] > 0 && DETERMINER.has(s.words[s.positions[k] - 1]);

/** How many content words a name may run over: "Harry Potter", "Manchester United", "Martin Luther King". */
const MAX_NAME_WORDS = 3;

/** How many content words in a row a noun phrase may run over after its determiner: "the parent process", "my new puppy". */
const MAX_PHRASE_WORDS = 3;

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
 * - a noun phrase, a name or a personal pronoun, its verb (no word of a name: "Google, Apple, Microsoft" is a list)
 *   next or up to two small words on ("an extrovert to become", "a landlord have to give"; an adverb: "Brazil ever
 *   beaten"), and the other noun phrase, name or pronoun just after the verb or its particle ("a landlord evict a
 *   tenant", "Harry Potter kill Voldemort", "I email my boss", "Ali knock out Frazier"); not across clauses ("my
 *   fridge is not working but my freezer"), and no possessive ("England's capital London");
 * - a bare clause after an auxiliary ("Do cats eat mice?");
 * - a passive: a noun phrase or a name, a form of "be" before it or before the verb, a past participle, "by" and
 *   the one who acts ("Was Mozart taught by Haydn?", "Is the mouse chased by the cat?");
 * - a one-way relation's noun between two arguments ("Is Darth Vader the father of Luke?").
 */
export function clausesOf(s: ArgumentWords, names: readonly (readonly number[])[]): Clause[] {
  // The name each content word belongs to, if any.
  const nameOf: Array<readonly number[] | undefined> = s.content.map(() => undefined);
  for (const name of names) for (const k of name) nameOf[k] = name;
  const nameEndingAt = (k: number) => (nameOf[k]?.at(-1) === k ? nameOf[k] : undefined);
  const nameStartingAt = (k: number) => (nameOf[k]?.[0] === k ? nameOf[k] : undefined);
  const inName = (k: number) => nameOf[k] !== undefined;
  const inRow = (from: number, to: number) => s.positions[to] - s.positions[from] === to - from;
  // A noun phrase: a determiner and up to MAX_PHRASE_WORDS content words in a row, none of a name ("the parent process").
  const phraseEndingAt = (k: number) => {
    for (let first = k; first >= 0 && first > k - MAX_PHRASE_WORDS && !inName(first) && inRow(first, k); first--) {
      if (opensPhrase(s, first)) return Array.from({ length: k - first + 1 }, (_, n) => first + n);
    }
    return undefined;
  };
  const phraseStartingAt = (k: number) => {
    if (!opensPhrase(s, k) || inName(k)) return undefined;
    let last = k;
    while (last + 1 < s.content.length && last + 1 < k + MAX_PHRASE_WORDS && !inName(last + 1) && inRow(k, last + 1)) last++;
    return Array.from({ length: last - k + 1 }, (_, n) => k + n);
  };
  // A possessive is no argument: "England's capital London" names London, not a clause of England's.
  const possessive = (argument: readonly number[] | undefined) => argument !== undefined && s.facts.contracted.has(s.positions[argument.at(-1) ?? 0]);
  const unlessPossessive = (argument: readonly number[] | undefined) => (possessive(argument) ? undefined : argument);
  const before = (k: number) => unlessPossessive(phraseEndingAt(k) ?? nameEndingAt(k));
  const after = (k: number) => unlessPossessive(phraseStartingAt(k) ?? nameStartingAt(k));
  // A pronoun, but a determiner before a content word ("her car").
  const pronounAt = (at: number, forms: ReadonlySet<string>) => {
    const code = PRONOUN_CODES.get(s.words[at]);
    const determiner = DETERMINER.has(s.words[at]) && s.positions.includes(at + 1);
    return code !== undefined && forms.has(s.words[at]) && !determiner ? [code] : undefined;
  };
  // Where the phrase starting at content word `k` opens: its determiner, or its first word.
  const opensAt = (k: number) => s.positions[k] - (opensPhrase(s, k) ? 1 : 0);
  const clauses: Clause[] = [];
  const add = (agent: readonly number[], verb: number, patient: readonly number[]) => {
    const firstAt = Math.min(...[agent[0], patient[0]].map((k) => (k >= 0 ? opensAt(k) : s.positions[verb])));
    const past = PAST_EVENT.has(s.words[firstAt - 1]) || s.content[verb].endsWith("ed");
    clauses.push({ agent, verb, patient, betweenNames: [...agent, ...patient].every((k) => k >= 0 && inName(k)), past });
  };
  for (let verb = 0; verb < s.content.length; verb++) {
    if (inName(verb) || ADVERB.has(s.content[verb]) || PARTICLE.has(s.content[verb])) continue;
    if (verb > 0 && verb + 1 < s.content.length && isBareClause(s, verb - 1, inName)) add([verb - 1], verb, [verb + 1]);
    const at = s.positions[verb];
    const secondAt = opensAt(verb + 1);
    const first = before(verb - 1);
    const second = after(verb + 1);
    // An adverb may stand before the verb ("Brazil ever beaten") and a particle after it ("knock out Frazier").
    const adverb = verb >= 1 && ADVERB.has(s.content[verb - 1]) && s.positions[verb - 1] === at - 1;
    const firstEnd = adverb ? verb - 2 : verb - 1;
    const particle = PARTICLE.has(s.content[verb + 1]) && s.positions[verb + 1] === at + 1;
    const [objectStart, verbEnd] = particle ? [verb + 2, at + 1] : [verb + 1, at];
    // The second phrase just after the verb, or after one preposition that keeps who acts ("work for Lucius Fox"); not
    // after a participle, which qualifies the first ("the database used for Quora").
    const participle = isParticiple(s.words[at]);
    const objectAt = (from: number) => from === verbEnd + 1 || (from === verbEnd + 2 && VERB_PREPOSITION.has(s.words[verbEnd + 1]) && !participle);
    // Beside a pronoun, "to" too ("I apologize to my sister", "my sister apologize to me"); between two nouns "to" is
    // read as a direction instead (see crosses in alignment.ts).
    const toAt = (from: number) => objectAt(from) || (from === verbEnd + 2 && s.words[verbEnd + 1] === "to");
    const agent = (at - s.positions[firstEnd] <= 3 ? before(firstEnd) : undefined) ?? pronounAt(ADVERB.has(s.words[at - 1]) ? at - 2 : at - 1, SUBJECT_PRONOUN);
    const phraseAt = agent && agent[0] < 0 ? toAt : objectAt;
    const object =
      (phraseAt(opensAt(objectStart)) ? after(objectStart) : undefined) ??
      [verbEnd + 1, verbEnd + 2].filter(toAt).map((from) => pronounAt(from, OBJECT_PRONOUN)).find(Boolean);
    if (agent && object) add(agent, verb, object);
    if (verb > 0 && participle && s.words[at + 1] === "by" && secondAt === at + 2) {
      // A passive's arguments may be bare nouns too ("Are sharks eaten by orcas?"): "be" and "by" mark them.
      const patient = first ?? [verb - 1];
      const patientEnd = s.positions[verb - 1];
      const firstAt = opensAt(patient[0]);
      // "be" before the verb ("Mozart was taught by", "has Mozart been taught by") or, in a question, before its subject ("Was Mozart taught by").
      const be = (PASSIVE.has(s.words[at - 1]) && at === patientEnd + 2) || (at === patientEnd + 1 && PASSIVE.has(s.words[firstAt - 1]));
      if (be) add(second ?? [verb + 1], verb, patient);
    }
    // A one-way relation's noun after "the" or "a" and before "of", between two arguments: "Is Darth Vader the father of
    // Luke?", "Darth Vader is the father of Luke".
    const oneWay = () => [s.content[verb], ...lemmasOf(s.content[verb])].some((lemma) => ONE_WAY_RELATION.has(lemma));
    if (ARTICLE.has(s.words[at - 1]) && s.words[at + 1] === "of" && first && second && secondAt === at + 2 && oneWay()) {
      const holderEnd = at - 2 - (COPULA.has(s.words[at - 2]) ? 1 : 0);
      if (s.positions[verb - 1] === holderEnd) add(first, verb, second);
    }
  }
  return clauses;
}

/** A verb whose two arguments can trade places and ask the same ("Can a pit bull beat a wolf?", "Can a Hindu marry a Muslim?", "How is the brain different from the mind?"). */
const isMutual = (word: string) => SYMMETRIC.has(word) || [word, ...lemmasOf(word)].some((lemma) => MUTUAL.has(lemma));

const TRADES_BOTH_WAYS = new Set([...BOTH_WAYS_WORDS, ...TRADING_BOTH_WAYS, ...SYMMETRIC_BEFORE_TO, ...NAMED_CONTEST_VERBS]);
const DISTANCE = new Set(DISTANCE_WORDS);
const ARTICLE_A = new Set(["a", "an"]);
const ORDERING_KIN = new Set(ORDERING_KIN_WORDS);
const QUESTION_WORD = new Set(QUESTION_OPENERS);

/** Whether `word` is followed by a comma in `text`: an item of a list. */
const listed = (word: string, text: string) =>
  new RegExp(`(?<![\\p{L}\\p{N}])${escapeRegExp(word)}\\s*,`, "iu").test(text);

/** The most words a side may have for its phrases' trades to be looked for: a question's, not a prompt's. */
const MAX_TRADING_WORDS = 25;
/** How far a trade may reach into the words both sides share at its ends ("www to non-www" / "non-www to www"). */
const TRADE_OVERLAP = 2;

/** Where two phrases trade places: the phrases' words on the first side, and the words between the two. */
interface Trade {
  readonly first: readonly string[];
  readonly between: readonly string[];
  readonly second: readonly string[];
}

const sameOrArticle = (x: string, y: string) => x === y || (ARTICLE_A.has(x) && ARTICLE_A.has(y));

/** Two single words trade places, perhaps in another form ("cups" ... "a quart" / "quarts" ... "a cup"). */
function wordsTraded(a: readonly string[], b: readonly string[], sameWord: (x: string, y: string) => boolean): Trade | undefined {
  const differing = a.flatMap((word, i) => (sameOrArticle(word, b[i]) ? [] : [i]));
  if (differing.length !== 2) return undefined;
  const [i, j] = differing;
  // Words that only changed their form in place traded nothing ("sight" / "sights").
  const traded = sameWord(a[i], b[j]) && sameWord(a[j], b[i]) && !sameWord(a[i], b[i]);
  return traded ? { first: [a[i]], between: a.slice(i + 1, j), second: [a[j]] } : undefined;
}

/**
 * Two phrases of the very same words, three or more in all, trade places around the same words ("New York ... London"
 * / "London ... New York", "a client ... an independent contractor" / "an independent contractor ... a client"): the
 * first side reads P X M Y S where the second reads P Y M X S. Trading keeps every word, so sides whose words differ
 * are passed at once; the phrases start where the sides part or up to TRADE_OVERLAP words before, and end likewise.
 */
function phrasesTraded(a: readonly string[], b: readonly string[]): Trade | undefined {
  const n = a.length;
  const key = (word: string) => (ARTICLE_A.has(word) ? "a" : word);
  if (n > MAX_TRADING_WORDS || a.map(key).sort().join(" ") !== b.map(key).sort().join(" ")) return undefined;
  let prefix = 0;
  while (prefix < n && sameOrArticle(a[prefix], b[prefix])) prefix++;
  if (prefix === n) return undefined;
  let suffix = 0;
  while (suffix < n - prefix && sameOrArticle(a[n - 1 - suffix], b[n - 1 - suffix])) suffix++;
  const agree = (from: number, to: number, length: number) => {
    for (let k = 0; k < length; k++) if (!sameOrArticle(a[from + k], b[to + k])) return false;
    return true;
  };
  // X from `start`, Y up to `end`, M between; three words or more in X and Y (two single words are wordsTraded's).
  for (let start = Math.max(0, prefix - TRADE_OVERLAP); start <= prefix; start++) {
    for (let end = n - suffix; end <= Math.min(n, n - suffix + TRADE_OVERLAP); end++) {
      for (let x = 1; start + x + 2 <= end; x++) {
        for (let y = Math.max(1, 3 - x); start + x + y < end; y++) {
          const middle = end - start - x - y;
          if (agree(end - y, start, y) && agree(start + x, start + y, middle) && agree(start, start + y + middle, x)) {
            return { first: a.slice(start, start + x), between: a.slice(start + x, end - y), second: a.slice(end - y, end) };
          }
        }
      }
    }
  }
  return undefined;
}

/**
 * Whether two words or phrases trade places, every other word the same and in the same order: "Are cats afraid of
 * tigers?" / "Are tigers afraid of cats?", "What time is it in Sydney when it's noon in London?" / "... in London when
 * it's noon in Sydney?", "Why does my dishwasher drain but not fill?" / "... fill but not drain?", "Is New York ahead
 * of London?" / "Is London ahead of New York?". Not side by side ("Python 3" / "3 Python" says nothing), nor in a list
 * ("Google, Apple, Microsoft"), nor around a word that lets them trade places ("tea or coffee", "Python vs Java", "Is
 * Paris close to London?", "Can a pit bull beat a wolf?", "Brazil play Germany", "7 times 8") or a relation's noun that
 * holds both ways ("Is Mario the brother of Luigi?", "a good friend of"; "the father of" and "the older brother of"
 * are one way), nor where a question word moved ("How old is Tom Cruise?" / "Tom Cruise is how old?"), nor in a text
 * that asks a distance ("How far is Paris from London?", "How many miles ..."). Two single words may trade places in another form
 * ("How many cups are in a quart?" / "How many quarts are in a cup?"; `sameWord` tells), and "a" and "an" are one
 * word. `a` and `b` are the sides' words, `textA` the first side's text.
 */
export function placesTraded(a: readonly string[], b: readonly string[], textA: string, sameWord: (x: string, y: string) => boolean): boolean {
  if (a.length !== b.length) return false;
  const trade = wordsTraded(a, b, sameWord) ?? phrasesTraded(a, b);
  if (trade === undefined) return false;
  const { first, between, second } = trade;
  if (between.length === 0 || listed(first[first.length - 1], textA) || a.some((word) => DISTANCE.has(word))) return false;
  // A question word that moved asks the same ("How old is Tom Cruise?" / "Tom Cruise is how old?").
  if ([...first, ...second].some((word) => QUESTION_WORD.has(word))) return false;
  // A relation's noun after "the" or "a", or after one word more ("a good friend of"), unless it orders ("the older brother of").
  const relation = (k: number) =>
    between[k + 1] === "of" &&
    (ARTICLE.has(between[k - 1]) || (ARTICLE.has(between[k - 2]) && !ORDERING_KIN.has(between[k - 1]))) &&
    ![between[k], ...lemmasOf(between[k])].some((lemma) => ONE_WAY_RELATION.has(lemma));
  return !between.some((word, k) => TRADES_BOTH_WAYS.has(word) || isMutual(word) || relation(k));
}

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

/** Whether two arguments of one side are the same words (or the same pronoun). */
const sameArgument = (s: ClauseSide, x: readonly number[], y: readonly number[]) =>
  x.length === y.length && x.every((k, n) => (k < 0 ? k === y[n] : y[n] >= 0 && s.content[k] === s.content[y[n]]));

/**
 * Whether a word of `argument` lands, through `toOther`, in `opposite` (the other side's argument in the other role) and
 * not in `same` (its argument in the same role): a word that moved from one role to the other. A pronoun lands as itself.
 */
const moves = (toOther: readonly number[], argument: readonly number[], opposite: readonly number[], same: readonly number[]) =>
  argument.some((k) => {
    const landed = k >= 0 ? toOther[k] : k;
    return landed !== -1 && opposite.includes(landed) && !same.includes(landed);
  });

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
  // A word of each argument moves to the other role, read from either side ("Harry" and "Harry Potter" name one
  // person); words both arguments share ("the parent process" / "the child process") or that keep their role stay.
  const traded = (x: Clause, y: Clause) =>
    (moves(toB, x.agent, y.patient, y.agent) && moves(toB, x.patient, y.agent, y.patient)) ||
    (moves(toA, y.agent, x.patient, x.agent) && moves(toA, y.patient, x.agent, x.patient));
  // A clause its own side also turns round is asked both ways ("Should I text him or should he text me?").
  const bothWays = (s: ClauseSide, x: Clause) =>
    s.clauses.some((z) => z !== x && sameWord(s.content[z.verb], s.content[x.verb]) && sameArgument(s, z.agent, x.patient) && sameArgument(s, z.patient, x.agent));
  return a.clauses.some((x) =>
    !bothWays(a, x) &&
    b.clauses.some(
      (y) =>
        toB[x.verb] === y.verb &&
        sameWord(a.content[x.verb], b.content[y.verb]) &&
        !readsBothWays(a, x) &&
        !readsBothWays(b, y) &&
        !bothWays(b, y) &&
        traded(x, y),
    ),
  );
}
