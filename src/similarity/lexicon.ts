import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { Lru } from "../core/lru.js";
import { IRREGULAR_FORMS } from "./irregular-forms.js";

/**
 * What the judge knows of English words, from WordNet 3.1 (src/similarity/lexicon.txt, built by
 * scripts/build-lexicon.ts): each word's common senses, the links between senses (is-a, similar-to,
 * derivation, attribute), and antonyms. Loaded on first use (~2 MB of text, ~60 ms), so a cache whose judge never
 * reads words never pays for it.
 */

/** How two words relate, from the closest relation found. */
export type WordRelation = "same" | "synonym" | "linked" | "antonym" | "unrelated" | "unknown";

interface Lexicon {
  /** Sense ids of each lemma, as written (base 36, comma-separated): parsed when asked. */
  senses: Map<string, string>;
  /** Each sense's links as written: "hypernyms;laterals" (similar-to, derivation, pertainym). */
  links: string[];
  /** Those parsed so far. */
  parsedLinks: Array<{ hypernyms: number[]; laterals: number[] } | undefined>;
  /** Each lemma's antonyms (lemmas), both ways (partners). */
  antonyms: ReadonlyMap<string, ReadonlySet<string>>;
}

let loaded: Lexicon | undefined;

/** Each word's partners in `pairs`, both ways: looked up for every pair of words compared, without building a key. */
export function partners(pairs: ReadonlyArray<readonly [string, string]>): ReadonlyMap<string, ReadonlySet<string>> {
  const map = new Map<string, Set<string>>();
  const add = (word: string, partner: string) => map.set(word, (map.get(word) ?? new Set()).add(partner));
  for (const [x, y] of pairs) {
    add(x, y);
    add(y, x);
  }
  return map;
}

function parseLexicon(text: string): Lexicon {
  const lines = text.split("\n");
  // The header: WordNet's license notice.
  let at = lines.findIndex((line) => !line.startsWith("#"));
  const count = (name: string) => {
    const [label, value] = lines[at++].split(" ");
    if (label !== name) throw new Error(`lexicon.txt: expected "${name}" at line ${at}`);
    return Number(value);
  };
  const synsets = count("synsets");
  const links = lines.slice(at, (at += synsets));
  const senses = new Map<string, string>();
  for (let i = count("lemmas"); i > 0; i--) {
    const line = lines[at++];
    const space = line.indexOf(" ");
    senses.set(line.slice(0, space), line.slice(space + 1));
  }
  // One pair a line: "a b", sorted.
  const antonymPairs = count("antonyms");
  const pairs = lines.slice(at, (at += antonymPairs)).map((line) => line.split(" ") as [string, string]);
  return { senses, links, parsedLinks: new Array<{ hypernyms: number[]; laterals: number[] } | undefined>(synsets), antonyms: partners(pairs) };
}

function lexicon(): Lexicon {
  loaded ??= parseLexicon(readFileSync(new URL("./lexicon.txt", import.meta.url), "utf8"));
  return loaded;
}

/** A digest of the lexicon and its irregular forms: what the judge's lists and models were chosen and fitted with. */
export function lexiconDigest(): string {
  return createHash("sha256")
    .update(readFileSync(new URL("./lexicon.txt", import.meta.url)))
    .update(JSON.stringify(IRREGULAR_FORMS))
    .digest("hex");
}

/** Loads the lexicon now (a cache's start calls it, so the first judged lookup does not pay for it). */
export function loadLexicon(): void {
  lexicon();
}

/** WordNet's detachment rules (morphy): suffix and replacement. */
const SUFFIXES: ReadonlyArray<readonly [string, string]> = [
  ["s", ""],
  ["ses", "s"],
  ["xes", "x"],
  ["zes", "z"],
  ["ches", "ch"],
  ["shes", "sh"],
  ["ies", "y"],
  ["es", "e"],
  ["es", ""],
  ["ed", "e"],
  ["ed", ""],
  ["ing", "e"],
  ["ing", ""],
  ["er", ""],
  ["est", ""],
  ["er", "e"],
  ["est", "e"],
  ["ier", "y"],
  ["iest", "y"],
  // Adverbs to their adjectives ("quickly" → "quick", "easily" → "easy"), which WordNet links better.
  ["ly", ""],
  ["ily", "y"],
];

const COMPARATIVE = new Set(["er", "est", "ier", "iest"]);

/** A doubled final consonant left by a suffix ("biggest" → "bigg" → "big", "stopped" → "stopp" → "stop"). */
const undouble = (stem: string) => (/([b-df-hj-np-tv-z])\1$/.test(stem) ? stem.slice(0, -1) : undefined);

/** The word's base forms found in the lexicon (the word itself first when it is one); empty when unknown. */
export function lemmasOf(word: string): readonly string[] {
  return wordSenses(word.toLowerCase()).lemmas;
}

function findLemmas(word: string): string[] {
  const { senses } = lexicon();
  const lower = word.toLowerCase();
  const found = new Set<string>();
  const irregular = Object.hasOwn(IRREGULAR_FORMS, lower) ? IRREGULAR_FORMS[lower] : undefined;
  if (irregular) found.add(irregular);
  if (senses.has(lower)) found.add(lower);
  for (const [suffix, replacement] of SUFFIXES) {
    if (!lower.endsWith(suffix) || lower.length - suffix.length < 2) continue;
    // Comparatives only for words that are not words of their own ("interviewer" is not more "interview").
    if (COMPARATIVE.has(suffix) && senses.has(lower)) continue;
    const stem = lower.slice(0, -suffix.length) + replacement;
    if (senses.has(stem)) found.add(stem);
    const single = replacement === "" ? undouble(stem) : undefined;
    if (single && senses.has(single)) found.add(single);
  }
  return [...found];
}

const ids = (field: string | undefined) => (field ? field.split(",").map((id) => parseInt(id, 36)) : []);

function linksOf(sense: number): { hypernyms: number[]; laterals: number[] } {
  const { links, parsedLinks } = lexicon();
  return (parsedLinks[sense] ??= (([hypernyms, laterals]) => ({ hypernyms: ids(hypernyms), laterals: ids(laterals) }))(links[sense]?.split(";") ?? []));
}

/** The senses themselves and what they are a kind of, up to `steps` is-a steps. */
function kindsOf(start: Iterable<number>, steps: number): Set<number> {
  const seen = new Set(start);
  let frontier = [...seen];
  for (let step = 0; step < steps; step++) {
    frontier = frontier.flatMap((sense) => linksOf(sense).hypernyms).filter((target) => !seen.has(target));
    frontier.forEach((target) => seen.add(target));
  }
  return seen;
}

/** The senses themselves, what they are a kind of (two is-a steps), and each of those's other forms (one step). */
function reach(start: readonly number[]): Set<number> {
  const seen = kindsOf(start, 2);
  for (const sense of [...seen]) for (const target of linksOf(sense).laterals) seen.add(target);
  return seen;
}

const sensesOf = (lemmas: readonly string[]) => lemmas.flatMap((lemma) => ids(lexicon().senses.get(lemma)));

interface WordSenses {
  readonly lemmas: readonly string[];
  readonly senses: ReadonlySet<number>;
  readonly reach: ReadonlySet<number>;
}

/** What was read of recent words: questions repeat their words, and a common verb reaches hundreds of senses. */
const RECENT_WORDS = 5000;
const recent = new Lru<string, WordSenses>(RECENT_WORDS);

function wordSenses(word: string): WordSenses {
  return recent.through(word, () => {
    const lemmas = findLemmas(word);
    const senses = sensesOf(lemmas);
    return { lemmas, senses: new Set(senses), reach: reach(senses) };
  });
}

/** Whether a sense of `senses` is among `among`. */
function shares(senses: ReadonlySet<number>, among: ReadonlySet<number>): boolean {
  for (const sense of senses) if (among.has(sense)) return true;
  return false;
}

/**
 * Whether a sense of one word is another form of a sense of the other, one lateral step apart (derivation,
 * pertainym, similar-to: "France" / "French", "delete" / "deletion"); not a kind of it ("American" / "Canadian",
 * both North Americans, are not).
 */
export function isOtherFormOf(a: string, b: string): boolean {
  const wordA = wordSenses(a.toLowerCase());
  const wordB = wordSenses(b.toLowerCase());
  const laterals = (senses: ReadonlySet<number>) => new Set([...senses].flatMap((sense) => linksOf(sense).laterals));
  return shares(wordB.senses, laterals(wordA.senses)) || shares(wordA.senses, laterals(wordB.senses));
}

/** Whether a sense of `word` is a kind of a sense of `kind`, within `steps` is-a steps ("France" / "country": two). */
export function isKindOf(word: string, kind: string, steps = 2): boolean {
  return shares(wordSenses(kind.toLowerCase()).senses, kindsOf(wordSenses(word.toLowerCase()).senses, steps));
}

/** What the two words' base forms alone tell: the same, unknown, antonyms, or undefined (the senses must tell). */
function relationOfLemmas(a: string, b: string): "same" | "unknown" | "antonym" | undefined {
  if (a.toLowerCase() === b.toLowerCase()) return "same";
  const lemmasA = wordSenses(a.toLowerCase()).lemmas;
  const lemmasB = wordSenses(b.toLowerCase()).lemmas;
  if (lemmasA.length === 0 || lemmasB.length === 0) return "unknown";
  if (lemmasA.some((lemma) => lemmasB.includes(lemma))) return "same";
  const { antonyms } = lexicon();
  return lemmasA.some((x) => lemmasB.some((y) => antonyms.get(x)?.has(y))) ? "antonym" : undefined;
}

/** Whether wordRelation(a, b) is "antonym", without reading how the two words' senses link. */
export const areAntonyms = (a: string, b: string): boolean => relationOfLemmas(a, b) === "antonym";

/**
 * How two words relate: the same base form; synonyms (a shared sense); linked (one is a kind of the other, or
 * the same idea as another part of speech: "car"/"vehicle", "delete"/"deletion"); antonyms;
 * unrelated (siblings such as "dog"/"cat" are unrelated here: neither is a kind of the other); or unknown
 * (a word WordNet lacks, such as most product names).
 */
export function wordRelation(a: string, b: string): WordRelation {
  const lemmaRelation = relationOfLemmas(a, b);
  if (lemmaRelation !== undefined) return lemmaRelation;
  const wordA = wordSenses(a.toLowerCase());
  const wordB = wordSenses(b.toLowerCase());
  if (shares(wordA.senses, wordB.senses)) return "synonym";
  if (shares(wordB.senses, wordA.reach) || shares(wordA.senses, wordB.reach)) return "linked";
  return "unrelated";
}
