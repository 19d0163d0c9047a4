/**
 * The values a question puts on each side of a direction word ("from Windows 7 to Windows 10", "type O to type
 * AB", "2 to the power of 10"), for the question alignment (alignment.ts): numbers and models are no content
 * words, so the words around them read the same both ways round, and only their values tell the route's ends.
 */
import { BOTH_WAYS_WORDS, DIRECTION_WORDS, TOWARD_WORDS } from "./alignment-lists.js";
import { designation, letterAfter } from "./alignment-models.js";
import { numberRun, withoutThousands } from "./alignment-numbers.js";

/** A number (decimals kept whole: "1.5"), a letter or two with a sign ("AB+", "B-"; not "B-tree") or a word. */
const TOKEN = /\d+(?:[.,]\d+)*|\p{Lu}{1,2}[+-](?![\p{L}\p{N}+-])|[\p{L}\p{N}]+/gu;
/** A letter or two and its sign. */
const SIGNED = /^(\p{Lu}{1,2})([+-])$/u;
/** "vs" compares both ways round: "Python 2 vs 3" asks "Python 3 vs 2". */
const ONE_WAY = new Set(DIRECTION_WORDS.filter((word) => word !== "vs" && word !== "versus"));
const TOWARD = new Set(TOWARD_WORDS);
const BOTH_WAYS = new Set(BOTH_WAYS_WORDS);

/** How far from its direction word a value may stand: "2 to the power of 10", "type O blood donate to type AB". */
const REACH = 4;

/** One direction word and the values nearest it on each side, within REACH tokens and no other direction word between ("7 to 10"). */
export interface RouteStep {
  readonly from: string;
  readonly word: string;
  readonly to: string;
}

/** A number in digits as a value ("1,000" 1000, "3.0" 3), a version as written ("1.2.3"). */
function digitsValue(token: string): string {
  const digits = withoutThousands(token);
  return Number.isNaN(Number(digits)) ? digits : String(Number(digits));
}

/**
 * Each token's value, or undefined: a number in digits or words ("10", "ten", "twenty one", each word of a run
 * its value), a letter after a lower-case word ("type O"), with its sign ("AB+"), a model ("XP").
 */
function valuesOf(tokens: readonly string[]): (string | undefined)[] {
  const lower = tokens.map((token) => token.toLowerCase());
  const values: (string | undefined)[] = [];
  while (values.length < tokens.length) {
    const i = values.length;
    const run = numberRun(lower, i);
    if (run) values.push(...Array<string>(run.end - i).fill(String(run.value)));
    else if (/^\d/.test(tokens[i])) values.push(digitsValue(tokens[i]));
    else values.push(letterValue(tokens[i], tokens[i - 1] ?? ""));
  }
  return values;
}

/** A letter after a lower-case word or a model, or a letter or two with a sign ("AB+", "A-"), or undefined. */
function letterValue(token: string, before: string): string | undefined {
  const signed = SIGNED.exec(token);
  if (signed) return (letterAfter(signed[1], before) ?? designation(signed[1]) ?? signed[1]) + signed[2];
  return letterAfter(token, before) ?? designation(token);
}

/** Whether words read a text's values both ways round (BOTH_WAYS_WORDS: "different from", "compare", "or"), in any case. */
export const readsBothWays = (words: readonly string[]) => words.some((word) => BOTH_WAYS.has(word.toLowerCase()));

/**
 * The steps of a text's route: each direction word with a value on both sides of it. None where the text reads its
 * values both ways (BOTH_WAYS_WORDS), and a step whose reverse the text also takes is none ("from 90 to 70 and
 * from 70 to 90").
 */
export function routeOf(text: string): RouteStep[] {
  const tokens = [...text.matchAll(TOKEN)].map(([token]) => token);
  if (readsBothWays(tokens)) return [];
  const values = valuesOf(tokens);
  const isDirection = (i: number) => ONE_WAY.has(tokens[i].toLowerCase());
  const steps: RouteStep[] = [];
  /** The value nearest direction word `at` going by `step`, within REACH tokens and before another direction word. */
  const nearest = (at: number, step: 1 | -1) => {
    for (let i = at + step; Math.abs(i - at) <= REACH && i >= 0 && i < tokens.length && !isDirection(i); i += step) {
      if (values[i] !== undefined) return values[i];
    }
    return undefined;
  };
  tokens.forEach((token, at) => {
    if (!isDirection(at)) return;
    const from = nearest(at, -1);
    const to = nearest(at, 1);
    if (from !== undefined && to !== undefined && from !== to) steps.push({ from, word: token.toLowerCase(), to });
  });
  const taken = new Set(steps.map(keyOf));
  return steps.filter((step) => !turnedKeys(step).some((key) => taken.has(key)));
}

const keyOf = ({ from, word, to }: RouteStep) => `${from}\u0000${word}\u0000${to}`;

/** The keys of the steps that run `step` the other way round: "10 to 7" and "7 from 10" for "7 to 10". */
function turnedKeys({ from, word, to }: RouteStep): string[] {
  const facingWords = word === "from" ? [...TOWARD] : TOWARD.has(word) ? ["from"] : [];
  return [keyOf({ from: to, word, to: from }), ...facingWords.map((other) => keyOf({ from, word: other, to }))];
}

/**
 * Whether two routes run between the same values the other way round: "from 7 to 10" / "from 10 to 7", "2 to the
 * power of 10" / "10 to the power of 2", "to 7 from 10" / "from 7 to 10".
 */
export function routesTurned(a: readonly RouteStep[], b: readonly RouteStep[]): boolean {
  const keys = new Set(b.map(keyOf));
  return a.some((step) => turnedKeys(step).some((key) => keys.has(key)));
}
