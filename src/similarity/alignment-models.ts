/**
 * The model or edition written after a name ("Tesla Model 3", "iPhone X", "Windows XP", "World War II"), for the
 * question alignment (alignment.ts): "Model 3" and "Model Y" are two cars, where a number on one side and a
 * letter on the other is no number mismatch.
 */

const TOKEN = /[\p{L}\p{N}]+/gu;
/** A word written as a name: capitalised ("Model") or capitalised inside ("iPhone"). */
const NAME = /^\p{Lu}|^\p{Ll}+\p{Lu}/u;
const ROMAN_DIGITS: Readonly<Record<string, number>> = { I: 1, V: 5, X: 10, L: 50, C: 100 };
const ROMAN = /^(?:C{0,3})(?:XC|XL|L?X{0,3})(?:IX|IV|V?I{0,3})$/;
/** The text before a sentence's first word. */
const SENTENCE_START = /(?:^|[.?!]\s*)[^\p{L}\p{N}]*$/u;
/** Capitals that are words of their own after a capitalised word ("Should I", "Is A ..."). */
const NOT_A_MODEL = new Set(["I", "A"]);

/** A Roman numeral's value ("XIV": 14). */
function romanValue(numeral: string): number {
  let total = 0;
  for (let i = 0; i < numeral.length; i++) {
    const value = ROMAN_DIGITS[numeral[i]];
    total += value < (ROMAN_DIGITS[numeral[i + 1]] ?? 0) ? -value : value;
  }
  return total;
}

/**
 * What a word after a name designates, as a value: up to three digits and Roman numerals by value ("II", "2"),
 * one or two other capitals as written ("Y", "XP"). Four digits are a year or an amount ("IPL 2016", "Rs 1000").
 */
function designation(token: string): string | undefined {
  if (/^\d{1,3}$/.test(token)) return String(Number(token));
  if (!/^\p{Lu}{1,2}$/u.test(token) || NOT_A_MODEL.has(token)) return undefined;
  return ROMAN.test(token) ? String(romanValue(token)) : token;
}

/**
 * Each name word followed by a model, lower-cased, to the models it is followed by ("Tesla Model Y": model →
 * {"Y"}; "Rs 500 and Rs 200": rs → {"500", "200"}). A capital that opens a sentence is no name ("Is A ...").
 */
export function modelsOf(text: string): ReadonlyMap<string, ReadonlySet<string>> {
  const tokens = [...text.matchAll(TOKEN)];
  const models = new Map<string, Set<string>>();
  for (let i = 1; i < tokens.length; i++) {
    const [name] = tokens[i - 1];
    if (!NAME.test(name) || SENTENCE_START.test(text.slice(0, tokens[i - 1].index))) continue;
    const value = designation(tokens[i][0]);
    if (value === undefined) continue;
    const key = name.toLowerCase();
    models.set(key, (models.get(key) ?? new Set<string>()).add(value));
  }
  return models;
}

/** Whether a name is followed by other models on each side ("Model 3" / "Model Y"; "iPhone X" and "iPhone 10" agree). */
export function modelsDiffer(a: ReadonlyMap<string, ReadonlySet<string>>, b: ReadonlyMap<string, ReadonlySet<string>>): boolean {
  return [...a].some(([name, models]) => {
    const other = b.get(name);
    return other !== undefined && ![...models].some((model) => other.has(model));
  });
}
