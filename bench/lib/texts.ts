/**
 * Question and answer texts of realistic length (~60 and ~200 characters), each a pure function of its
 * index: a scenario regenerates them instead of holding them, so stores that keep strings are measured alone.
 * Texts are built with join(), which gives flat strings like those parsed from a request body (`+=` would
 * leave a rope of small string nodes, about 1 KB of extra heap per stored answer).
 */
import { seededRandom } from "./random.js";

const WORDS = (
  "cache model answer question vector index query latency request token stream batch server client " +
  "memory storage python node typescript config option error retry timeout embedding similar exact " +
  "search result user session history prompt template chat message system assistant price limit " +
  "deploy docker build test data file table column row schema update delete insert select join"
).split(" ");

const OPENERS = ["How do I", "Why does", "What is the best way to", "Can I", "When should I", "Where does"];

/** Words drawn at random, separated by spaces, until they make at least `minLength` characters. */
function words(random: () => number, minLength: number): string[] {
  const picked: string[] = [];
  for (let length = -1; length < minLength; length += picked[picked.length - 1].length + 1) {
    picked.push(WORDS[Math.floor(random() * WORDS.length)]);
  }
  return picked;
}

/** The stored question of entry `i` (unique: it ends with the index). */
export function questionText(i: number): string {
  const random = seededRandom(0x9e3779b9 ^ i);
  return [OPENERS[i % OPENERS.length], ...words(random, 42), `(${i})`].join(" ");
}

/** The stored answer of entry `i` (unique). */
export function answerText(i: number): string {
  const random = seededRandom(0x85ebca6b ^ i);
  return [`Answer ${i}:`, ...words(random, 185)].join(" ");
}

/** The text of near-duplicate query `j` made from entry `source`: a different key, so it never matches exactly. */
export function queryText(j: number, source: number): string {
  return [`Reworded ${j}:`, questionText(source)].join(" ");
}
