/**
 * Scope, for the question alignment (alignment.ts): whether one question takes in every member or the whole of
 * something and the other picks one or a part ("close all tabs" / "close a tab", "unfollow everyone" / "unfollow
 * someone", "delete my entire history" / "delete one search"). The lists are part of ALIGNMENT_LISTS
 * (alignment-lists.ts).
 */

/**
 * Words that take in every member of the set the next words name ("all tabs", "every container"). "each" is left
 * out: "how much is each ticket" asks what "how much is a ticket" does.
 */
export const SET_UNIVERSALS: readonly string[] = ["all", "every"];
/** Sets counted only against a pick of their own noun ("both ankles" / "one ankle"; not "both of us" / "one account"). */
export const NOUN_SETS: readonly string[] = ["both"];
/** Words before "set of" that take in every member of it ("a full set of dental implants" / "a single dental implant"). */
export const FULL_SET_WORDS: readonly string[] = ["full", "complete"];
/** Words that name the set itself, against which a full set picks nothing ("a full set of golf clubs" / "a golf club set"). */
export const SET_NAMES: readonly string[] = ["set", "sets", "kit", "kits", "collection", "collections"];
/** Pronouns that take in everyone or everything, against SOME_PRONOUNS. */
export const ALL_PRONOUNS: readonly string[] = ["everyone", "everybody", "everything"];
export const SOME_PRONOUNS: readonly string[] = ["someone", "somebody", "something"];
/** Words that take in the whole of one thing ("the whole document", "my entire history"). */
export const WHOLE_WORDS: readonly string[] = ["whole", "entire"];
/** Words that pick one member or a part ("one paragraph", "some birds", "the first element"). */
export const PICK_WORDS: readonly string[] = ["one", "single", "some", "individual", "specific", "particular", "first"];
/**
 * Picks counted only on a set's own noun ("select all files" / "select multiple files", "reset all settings" / "reset only
 * my network settings"; not "Are all swans white?" / "Are swans only white?", "multiple sclerosis").
 */
export const NOUN_PICKS_ONLY: readonly string[] = ["multiple", "several", "only"];
/**
 * Picks of one that hold against a whole of another thing ("delete a single message" / "delete an entire chat",
 * "encrypt a single folder" / "encrypt my entire drive"); "one" is left out ("one language" / "the whole world").
 */
export const STRONG_PICKS: readonly string[] = ["single", "individual"];
/** Words that take several of a noun, against one of it ("comment out a line" / "comment out multiple lines"). */
export const MANY_PICKS: readonly string[] = ["multiple", "several"];
/** Words that ask for another than "the only" one ("Is there a language other than Rust with a borrow checker?"). */
export const OTHER_THAN_WORDS: readonly string[] = ["other", "besides", "else", "without", "except", "apart", "aside", "addition", "instead", "not", "isn't", "no"];
/**
 * Words that pick some of a set where they stand before its noun ("any snakes" / "all snakes", "most prime numbers" /
 * "all prime numbers"), as articles do; "any" elsewhere asks whether one exists ("is there any way"), and "the most"
 * is a superlative.
 */
export const NOUN_PICKS: readonly string[] = ["any", "most"];
/** Before "any" or "most", words that make it no pick: "the most popular", "are there any conservatives" (do some exist). */
export const BEFORE_NOT_PICKING: readonly string[] = ["the", "there"];
/** Before "any", words that make it a pick of one, whatever its noun: "whether any element is positive" (some element). */
export const BEFORE_ANY_PICKING: readonly string[] = ["whether", "if"];
/** Words that open a noun phrase: an argument of a verb ("a landlord", "my tenant"), a measure asked ("what is the price of"). */
export const DETERMINERS: readonly string[] = ["a", "an", "the", "my", "your", "his", "her", "our", "their", "its"];
/** Articles: a pick against a set ("a tab" / "all tabs"), not against a whole ("a folder" / "a whole folder"). */
export const ARTICLES: readonly string[] = ["a", "an"];
/** Words between a quantifier and its noun that the noun is read past ("all of the files", "all my changes"). */
export const BEFORE_NOUN: readonly string[] = ["the", "of", "my", "your", "our", "their", "his", "her", "its", "these", "those"];
/** "one" after these is a pronoun ("how does one", "no one", "which one"). */
export const BEFORE_PRONOUN_ONE: readonly string[] = ["no", "does", "do", "did", "can", "should", "which", "each", "every", "any", "the", "this", "that"];
/** After "all", words that make it no quantifier ("all that is required", "all you need", "an all out war", "all about money"). */
export const PRONOUNS_AFTER_ALL: readonly string[] = ["that", "it", "you", "i", "we", "they", "he", "she", "out", "about"];
/** After "every" or "all", times that make it how often ("every day" is "a day", "all night"). */
export const TIMES: readonly string[] = ["day", "night", "morning", "evening", "week", "month", "year", "time", "hour", "minute"];

/**
 * After a thing, words that name no part of it: all it holds ("read an entire file" / "read file contents"), its
 * members ("my whole family" / "my family members"), the same thing again ("zip an entire project" / "zip a project
 * folder", "pay off my entire car" / "pay off my car loan"), the state it is left in ("wipe my laptop clean"), how
 * far, how or when ("system wide", "a website offline", "my life forever", "a house yourself").
 */
export const NOT_PARTS: readonly string[] = [
  ...["content", "contents", "text", "data"],
  ...["members", "users", "participants", "students", "employees", "staff", "people"],
  ...["account", "folder", "directory", "files", "system", "os", "suite", "money", "loan", "income", "amount", "balance", "savings"],
  ...["clean", "dry", "empty", "blank", "open", "shut", "closed", "free", "smooth", "straight"],
  ...["wide", "nationwide", "worldwide", "outright", "overall", "total", "online", "offline", "forever", "together", "instead", "anymore"],
  ...["today", "tonight", "tomorrow", "yesterday", "nowadays", "overnight", "again", "now", "myself", "yourself", "itself", "themselves"],
];

/**
 * Words that may follow a part right after its thing, where its phrase ends ("a car door in winter"); any other word
 * goes on with the sentence, the thing as its subject ("my whole body aches" / "my body keeps aching").
 */
export const AFTER_PART: readonly string[] = ["in", "on", "at", "for", "with", "from", "of", "by", "when", "if", "after", "before", "without", "during", "while", "using", "like", "too", "also", "or"];

/** Words between a part and the thing it is part of ("a folder on my hard drive", "the ceiling of the room"). */
export const PART_LINKS: readonly string[] = ["of", "on", "in", "inside", "from"];

/** Every list above, for the digest that versions them with the vetoes chosen. */
export const SCOPE_LISTS = {
  setUniversals: SET_UNIVERSALS,
  fullSets: FULL_SET_WORDS,
  setNames: SET_NAMES,
  nounSets: NOUN_SETS,
  nounPicksOnly: NOUN_PICKS_ONLY,
  otherThan: OTHER_THAN_WORDS,
  allPronouns: ALL_PRONOUNS,
  somePronouns: SOME_PRONOUNS,
  whole: WHOLE_WORDS,
  picks: PICK_WORDS,
  nounPicks: NOUN_PICKS,
  beforeNotPicking: BEFORE_NOT_PICKING,
  beforeAnyPicking: BEFORE_ANY_PICKING,
  articles: ARTICLES,
  beforeNoun: BEFORE_NOUN,
  beforePronounOne: BEFORE_PRONOUN_ONE,
  pronounsAfterAll: PRONOUNS_AFTER_ALL,
  times: TIMES,
  notParts: NOT_PARTS,
  afterPart: AFTER_PART,
  partLinks: PART_LINKS,
  strongPicks: STRONG_PICKS,
  manyPicks: MANY_PICKS,
};

const SET = new Set(SET_UNIVERSALS);
const NOUN_SET = new Set(NOUN_SETS);
const FULL_SET = new Set(FULL_SET_WORDS);
const SET_NAME = new Set(SET_NAMES);
const NOUN_PICK_ONLY = new Set(NOUN_PICKS_ONLY);
const OTHER_THAN = new Set(OTHER_THAN_WORDS);
const ALL = new Set(ALL_PRONOUNS);
const SOME = new Set(SOME_PRONOUNS);
const WHOLE = new Set(WHOLE_WORDS);
const PICK = new Set(PICK_WORDS);
const ARTICLE = new Set(ARTICLES);
const NOUN_PICK = new Set(NOUN_PICKS);
const NOT_PICKING = new Set(BEFORE_NOT_PICKING);
const ANY_PICKING = new Set(BEFORE_ANY_PICKING);
const SKIPPED = new Set(BEFORE_NOUN);
const PRONOUN_ONE = new Set(BEFORE_PRONOUN_ONE);
const PRONOUN_AFTER_ALL = new Set(PRONOUNS_AFTER_ALL);
const TIME = new Set(TIMES);
const NOT_PART = new Set(NOT_PARTS);
const PART_END = new Set(AFTER_PART);
const PART_LINK = new Set(PART_LINKS);
const STRONG_PICK = new Set(STRONG_PICKS);
const MANY_PICK = new Set(MANY_PICKS);

/** A side as the scope reads it: its lower-cased words and which of them are content words. */
export interface ScopeSide {
  words: readonly string[];
  content: ReadonlySet<string>;
}

/** The content words among the `count` a quantifier at `i` bears on, read past "the", "of", "my", ... */
function nounsAfter(side: ScopeSide, i: number, count: number): string[] {
  return side.words
    .slice(i + 1)
    .filter((word) => !SKIPPED.has(word))
    .slice(0, count)
    .filter((word) => side.content.has(word));
}

/** Whether "both" at `i` joins two things ("both an introvert and an extrovert", "both Python and Java"): no set of its own. */
const joinsTwo = (words: readonly string[], i: number) => words[i] === "both" && words.slice(i + 2, i + 5).includes("and");

/** Where words of `set` quantify: not "at all", "all you need", "every day", "both X and Y". */
function setUniversalsAt(words: readonly string[], set: ReadonlySet<string> = SET): number[] {
  const quantifies = (word: string, i: number) =>
    set.has(word) &&
    words[i - 1] !== "at" &&
    !TIME.has(words.slice(i + 1).find((next) => !SKIPPED.has(next)) ?? "") &&
    !(word === "all" && PRONOUN_AFTER_ALL.has(words[i + 1])) &&
    !joinsTwo(words, i);
  return words.flatMap((word, i) => (quantifies(word, i) ? [i] : []));
}

/** Where a full set stands ("a full set of dental implants": "set"); it bears on the noun after "of" as "all" would. */
const fullSetsAt = (words: readonly string[]) => words.flatMap((word, i) => (word === "set" && FULL_SET.has(words[i - 1]) && words[i + 1] === "of" ? [i] : []));

/** Whether the word at `i` is the pronoun "one" ("how does one", "no one", "which one"). */
export const isPronounOne = (words: readonly string[], i: number) => words[i] === "one" && PRONOUN_ONE.has(words[i - 1]);

/** Picks where they pick: "one" is not "how does one" or "no one". */
function picksAt(words: readonly string[], picks: ReadonlySet<string> = PICK): number[] {
  return words.flatMap((word, i) => (picks.has(word) && !isPronounOne(words, i) ? [i] : []));
}

/** Where "a", "an", "any" and "most" pick: a pick only on the noun a set bears on ("a tab" / "all tabs"). */
const articlesAt = (words: readonly string[]) => words.flatMap((word, i) => (ARTICLE.has(word) || picksSomeOf(words, i) ? [i] : []));

/**
 * Whether "any" or "most" at `i` picks some of a set: not after "the" or "there", and "any" only before a plural or
 * "of" ("any snakes", "any of my benefits"), or after "whether" or "if", or further on from a "there" that asks
 * whether one exists ("Is there life on any planet?"); before a singular it means every one ("Can any dog be trained?").
 */
function picksSomeOf(words: readonly string[], i: number): boolean {
  if (!NOUN_PICK.has(words[i]) || NOT_PICKING.has(words[i - 1])) return false;
  return (
    words[i] !== "any" ||
    ANY_PICKING.has(words[i - 1]) ||
    words.slice(0, i).includes("there") ||
    words[i + 1] === "of" ||
    words.slice(i + 1, i + 3).some((next) => /[^s]s$/.test(next))
  );
}

/** Where "the only" stands ("Is Spanish the only official language?"): one member, and no other, against "an official language". */
const onlyOnesAt = (words: readonly string[]) => words.flatMap((word, i) => (word === "only" && words[i - 1] === "the" ? [i] : []));

/** Where "a" or "an" stands. */
const indefiniteAt = (words: readonly string[]) => words.flatMap((word, i) => (ARTICLE.has(word) ? [i] : []));

const takesInAll = (words: readonly string[]) =>
  setUniversalsAt(words).length > 0 ||
  fullSetsAt(words).length > 0 ||
  setUniversalsAt(words, NOUN_SET).length > 0 ||
  words.some((word) => ALL.has(word) || WHOLE.has(word));

/**
 * Whether one side takes in all of what the other picks one of, given the sides' lower-cased words and how the
 * alignment matches two words. A set against a pick of the same noun ("all tabs" / "a tab", "all processes" / "a
 * process of a user"); everyone against someone; a whole against an explicit pick of it ("my entire search history" /
 * "one search"); "multiple", "several" or "only" against a set, and "both" against a pick, on the set's own noun ("all
 * files" / "multiple files", "both ankles" / "one ankle"); "the only" against "a" ("the only official language" / "an
 * official language"). A rewording that drops "all" ("send all HTTP traffic to HTTPS" / "redirect HTTP to HTTPS") or that
 * says "a whole folder" for "a folder" or "an entire dataset" for "all elements" is no conflict.
 */
export function scopeDiffers(a: ScopeSide, b: ScopeSide, sameWord: (x: string, y: string) => boolean): boolean {
  const differs = (x: ScopeSide, y: ScopeSide) => {
    const sets = setUniversalsAt(x.words);
    // A full set only against a pick of its own noun, and not against that noun's set ("a golf club set", "a drum kit").
    const fullSets = y.words.some((word) => SET_NAME.has(word)) ? [] : fullSetsAt(x.words);
    const nounSets = setUniversalsAt(x.words, NOUN_SET);
    const wholes = x.words.flatMap((word, i) => (WHOLE.has(word) ? [i] : []));
    const allOfThem = x.words.some((word) => ALL.has(word));
    const onlyOnes = onlyOnesAt(x.words);
    // Every reading below starts from a set, a whole, everyone or "the only" on `x`'s side: most questions have none.
    if (sets.length + fullSets.length + nounSets.length + wholes.length + onlyOnes.length === 0 && !allOfThem) return false;
    if (takesInAll(y.words)) return false;
    // A pick's next word against the next two of a set or a whole: "a tab" / "all open tabs", "one search" /
    // "my entire search history"; not "an egg" / "every day", "one language" / "the whole world".
    const onSameNoun = (at: number[], pickers: number[]) =>
      at.some((i) => {
        const nouns = nounsAfter(x, i, 2);
        return pickers.some((j) => nounsAfter(y, j, 1).some((noun) => nouns.some((other) => sameWord(noun, other))));
      });
    const pronoun = allOfThem && y.words.some((word) => SOME.has(word));
    // A pick both sides make is no difference between them ("allow only one bag").
    const explicit = picksAt(y.words).filter((j) => !x.words.includes(y.words[j]));
    const nounPicks = picksAt(y.words, NOUN_PICK_ONLY).filter((j) => !x.words.includes(y.words[j]));
    // The set's noun among the pick's next two: "all files" / "multiple files", "both ankles" / "one swollen ankle",
    // "reset all settings" / "reset only my network settings"; after "only", a word before it not on the set's side
    // ("Are all the ingredients organic?" / "Does it use only organic ingredients?" ask the same).
    const pickOfSetNoun = (at: number[], pickers: number[]) =>
      at.some((i) => {
        const [noun] = nounsAfter(x, i, 1);
        return (
          noun !== undefined &&
          pickers.some((j) => {
            const picked = nounsAfter(y, j, 2);
            const nounAt = picked.findIndex((other) => sameWord(noun, other));
            if (nounAt < 0) return false;
            return y.words[j] !== "only" || picked.slice(0, nounAt).every((before) => !x.words.some((word) => sameWord(word, before)));
          })
        );
      });
    // "the only official language" / "an official language"; not "a language other than English", "apart from".
    const asksOther = y.words.some((word) => OTHER_THAN.has(word) && !x.words.includes(word));
    const onlyOne = !asksOther && onSameNoun(onlyOnes, indefiniteAt(y.words));
    // An explicit pick anywhere against a set ("all tabs" / "one tab", "all birds" / "some birds"); an article only on the set's noun.
    return (
      (sets.length > 0 && explicit.length > 0) ||
      onSameNoun(sets, articlesAt(y.words)) ||
      onSameNoun(fullSets, [...articlesAt(y.words), ...explicit]) ||
      onSameNoun(wholes, explicit) ||
      pronoun ||
      pickOfSetNoun(sets, nounPicks) ||
      pickOfSetNoun(nounSets, [...explicit, ...nounPicks]) ||
      onlyOne
    );
  };
  return differs(a, b) || differs(b, a);
}

/** A side as the part-of-whole reading needs it: also the content words the alignment left unmatched, which words own ("room's"), and its names. */
export interface PartSide extends ScopeSide {
  left: readonly string[];
  contracted: ReadonlySet<number>;
  entities: ReadonlySet<string>;
}

/**
 * Whether `x` takes in the whole of a thing and `y` only a part of it: `x` leaves nothing but its "whole" or "entire"
 * unmatched, and `y`, taking in nothing whole, leaves one word besides a pick, right after the thing naming a part of
 * it (namesPart: "paint an entire room" / "paint a room's ceiling", "repaint a whole car" / "repaint a car door", "boil
 * a whole lobster" / "boil lobster tails"), or standing up to four words before it with a PART_LINKS word between
 * ("back up my entire hard drive" / "back up a single folder on my hard drive"). A rewording that drops the "whole"
 * adds no part ("delete my whole account" / "permanently delete my account").
 */
export function partOfWhole(x: PartSide, y: PartSide, sameWord: (x: string, y: string) => boolean): boolean {
  // One part, picked or not ("a single folder"); two words are as often the whole in parts ("the floor and walls").
  const parts = y.left.filter((word) => !PICK.has(word));
  if (x.left.length !== 1 || !WHOLE.has(x.left[0]) || parts.length !== 1 || takesInAll(y.words)) return false;
  const [noun] = nounsAfter(x, x.words.indexOf(x.left[0]), 1);
  const at = noun === undefined ? -1 : y.words.findIndex((word) => sameWord(word, noun));
  if (at < 0) return false;
  const p = y.words.indexOf(parts[0]);
  return (p === at + 1 && namesPart(y, p)) || (p < at && at - p <= 4 && y.words.slice(p + 1, at).some((word) => PART_LINK.has(word)));
}

/**
 * Whether word `p` of a side, right after a thing, names a part of it: owned by it ("a room's ceiling") or ending the
 * phrase ("a car door", "lobster tails in butter"); no adverb in -ly ("my account permanently"), name ("rewire a house
 * UK") or number, nor NOT_PARTS.
 */
function namesPart(side: PartSide, p: number): boolean {
  const word = side.words[p];
  if (word.endsWith("ly") || NOT_PART.has(word) || side.entities.has(word) || /\d/.test(word)) return false;
  return side.contracted.has(p - 1) || p === side.words.length - 1 || PART_END.has(side.words[p + 1]);
}

/**
 * Whether `x` takes a whole or several where `y` picks one, neither side having the other's word: a whole against a
 * single or an individual one of another thing, both things left unmatched ("delete an entire chat" / "delete a single
 * message"; not "read an entire novel" / "read a novel in a single day"), or several of a noun against one of it, the
 * noun right after "multiple" or "several" ("comment out multiple lines" / "comment out a line"; not "a multiple choice
 * question" / "a question", nor "more than one account", nor where the side with several picks one of it too:
 * "combine multiple images into a single image" / "combine images into one image").
 */
export function pickedApart(x: PartSide, y: PartSide, sameWord: (x: string, y: string) => boolean): boolean {
  // Both readings start from a whole or several on `x`'s side: most questions have neither.
  if (!x.words.some((word) => WHOLE.has(word) || MANY_PICK.has(word)) || takesInAll(y.words)) return false;
  const nounAfter = (side: ScopeSide, i: number): string | undefined => nounsAfter(side, i, 1)[0];
  const leftNounAfter = (side: PartSide, i: number) => side.left.includes(nounAfter(side, i) ?? "");
  const wholes = x.words.flatMap((word, i) => (WHOLE.has(word) && !y.words.includes(word) ? [i] : []));
  const strongPicks = picksAt(y.words, STRONG_PICK).filter((j) => !x.words.includes(y.words[j]));
  if (wholes.some((i) => leftNounAfter(x, i)) && strongPicks.some((j) => leftNounAfter(y, j))) return true;
  if (y.words.some((word) => MANY_PICK.has(word))) return false;
  const picksOne = (side: ScopeSide, noun: string) =>
    [...articlesAt(side.words), ...picksAt(side.words)].some((j) => {
      const picked = nounAfter(side, j);
      return side.words[j - 1] !== "than" && picked !== undefined && sameWord(picked, noun);
    });
  return x.words.some((word, i) => {
    const noun = MANY_PICK.has(word) ? nounAfter(x, i) : undefined;
    return noun !== undefined && picksOne(y, noun) && !picksOne(x, noun);
  });
}
