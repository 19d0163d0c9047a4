/**
 * Units of measure and currencies, read as the unit they name for the question alignment (alignment.ts):
 * "seconds in a day" asks something else than "minutes in a day", "€50 in JPY" the same as "50 euros in yen".
 * The lists are part of ALIGNMENT_LISTS (alignment-lists.ts).
 */
import { escapeRegExp } from "../core/regexp.js";
import { cardinal } from "./alignment-numbers.js";

/** Each unit's names (the first is the unit's own), singular; plurals in -s, -es and -ies are read too. */
export const UNIT_NAMES: ReadonlyArray<readonly string[]> = [
  // Time. "second" also orders ("the second largest"): see AFTER_SECOND.
  ["second"],
  ["millisecond"],
  ["minute"],
  ["hour", "hourly"],
  ["day", "daily"],
  ["week", "weekly"],
  ["fortnight"],
  ["month", "monthly"],
  ["year", "yearly", "annual", "annually"],
  ["decade"],
  ["century"],
  // Length.
  ["millimeter", "millimetre"],
  ["centimeter", "centimetre"],
  ["meter", "metre"],
  ["kilometer", "kilometre"],
  ["inch"],
  ["foot", "feet"],
  ["yard"],
  ["mile"],
  // Mass.
  ["milligram"],
  ["gram"],
  ["kilogram", "kilo"],
  ["pound"],
  ["ounce"],
  // A short ton (2,000 lb) is not a tonne (1,000 kg).
  ["ton"],
  ["tonne"],
  // Volume.
  ["milliliter", "millilitre"],
  ["liter", "litre"],
  ["gallon"],
  ["quart"],
  ["pint"],
  ["cup"],
  ["tablespoon"],
  ["teaspoon"],
  // Temperature, data, energy, area.
  ["celsius"],
  ["fahrenheit"],
  ["kelvin"],
  ["byte"],
  ["kilobyte"],
  ["megabyte"],
  ["gigabyte"],
  ["terabyte"],
  ["calorie", "kilocalorie"],
  ["joule"],
  ["watt"],
  ["kilowatt"],
  ["acre"],
  ["hectare"],
  // Currencies ("pound" above: the unit and the currency share the name).
  ["dollar"],
  ["euro"],
  ["yen"],
  ["yuan", "renminbi"],
  ["rupee"],
  ["peso"],
  ["franc"],
  ["ruble", "rouble"],
];

/**
 * Abbreviations and codes, read only after a number or one of BEFORE_ABBREVIATION ("10 kg", "in GBP"),
 * and never as plurals: alone they are often initials ("CM", "GB", "KB", "MG", "HR").
 */
export const MEASURE_ABBREVIATIONS: Readonly<Record<string, string>> = {
  secs: "second",
  mins: "minute",
  hrs: "hour",
  yr: "year",
  yrs: "year",
  mm: "millimeter",
  cm: "centimeter",
  km: "kilometer",
  ft: "foot",
  yd: "yard",
  mg: "milligram",
  // "8 G RAM" is giga: see GIGA_AFTER.
  g: "gram",
  kg: "kilogram",
  kgs: "kilogram",
  lb: "pound",
  lbs: "pound",
  oz: "ounce",
  tbsp: "tablespoon",
  tsp: "teaspoon",
  ml: "milliliter",
  qt: "quart",
  gal: "gallon",
  kb: "kilobyte",
  mb: "megabyte",
  gb: "gigabyte",
  kcal: "calorie",
  kw: "kilowatt",
};

/** Words after which a "g" ("8 G RAM", "8G RAM", "4g network") is giga, no gram. */
export const GIGA_AFTER: readonly string[] = ["ram", "memory", "storage", "data", "network", "networks", "lte", "phone", "phones", "internet", "speed", "wifi"];
const GIGA = new Set(GIGA_AFTER);

/**
 * Whether the word at i is a "g" of no gram: giga, "g" or a number with it ("8g") before one of GIGA_AFTER, or a
 * mobile network's generation ("4G", "5G"; "5g of sugar" is grams).
 */
const readsGiga = (words: readonly string[], i: number) =>
  (/^[2-6]g$/.test(words[i]) && words[i + 1] !== "of") || ((words[i] === "g" || gluedLetters(words[i]) === "g") && GIGA.has(words[i + 1]));

/** Currency codes, read as the abbreviations above ("in GBP"). */
export const CURRENCY_CODES: Readonly<Record<string, string>> = {
  usd: "dollar",
  eur: "euro",
  gbp: "pound",
  jpy: "yen",
  cny: "yuan",
  inr: "rupee",
  mxn: "peso",
  chf: "franc",
};

export const UNIT_ABBREVIATIONS: Readonly<Record<string, string>> = { ...MEASURE_ABBREVIATIONS, ...CURRENCY_CODES };

/** Currency and temperature signs, read only against a number ("$5", "€50", "30 °C"); "¥" is yen and yuan both, so neither. */
export const UNIT_SIGNS: Readonly<Record<string, string>> = { $: "dollar", "€": "euro", "£": "pound", "°c": "celsius", "°f": "fahrenheit" };

/** Speeds written as one word or a fraction: each names two units. */
export const UNIT_COMPOUNDS: Readonly<Record<string, readonly [string, string]>> = {
  mph: ["mile", "hour"],
  kph: ["kilometer", "hour"],
  kmh: ["kilometer", "hour"],
  "km/h": ["kilometer", "hour"],
  "m/s": ["meter", "second"],
  "km/s": ["kilometer", "second"],
  "ft/s": ["foot", "second"],
};

/**
 * "second" is the unit only after these words or a number ("per second", "1 second"): "the second largest" and
 * "a second opinion" order. "seconds" is always the unit.
 */
export const AFTER_SECOND: readonly string[] = ["per", "one", "each"];
/** Words after which an abbreviation is read as a unit ("in GBP", "per km", "how many GB"). */
export const BEFORE_ABBREVIATION: readonly string[] = ["in", "to", "into", "per", "many"];

const UNIT = new Map<string, string>(UNIT_NAMES.flatMap((names) => names.map((name) => [name, names[0]] as const)));
const COMPOUND = new RegExp(`(?:^|[^\\p{L}/])(${Object.keys(UNIT_COMPOUNDS).map((key) => key.replace("/", "\\s*/\\s*")).join("|")})(?![\\p{L}/])`, "giu");
// A sign against a number, on either side: "$5", "5 $", "€50", "30 °C", "30°F" (a degree sign only after it).
const SIGNS = Object.keys(UNIT_SIGNS);
// As an alternation, not a class: a sign of more than one character stays whole.
const CURRENCY_SIGNS = `(?:${SIGNS.filter((sign) => !sign.startsWith("°")).map(escapeRegExp).join("|")})`;
const DEGREE_SIGNS = `°\\s?(?:${SIGNS.filter((sign) => sign.startsWith("°")).map((sign) => escapeRegExp(sign.slice(1))).join("|")})\\b`;
const SIGN = new RegExp(`(?<=\\d\\s?)(?:${DEGREE_SIGNS}|${CURRENCY_SIGNS})|${CURRENCY_SIGNS}(?=\\s?\\d)`, "giu");
const isNumber = (word: string | undefined) => word !== undefined && /^\d/.test(word);

/** The unit a word names, singular or plural (-s; -es after ch, sh, s, x, z: "inches", not "tones"; -ies), or undefined. */
function unitOf(word: string): string | undefined {
  // Read for every pair of words a lookup compares: no plural to undo unless the word ends in "s".
  const unit = UNIT.get(word);
  if (unit !== undefined || !word.endsWith("s")) return unit;
  return (
    UNIT.get(word.slice(0, -1)) ??
    (/(?:ch|sh|s|x|z)es$/.test(word) ? UNIT.get(word.slice(0, -2)) : undefined) ??
    (word.endsWith("ies") ? UNIT.get(`${word.slice(0, -3)}y`) : undefined)
  );
}

/** A record's own entry: a word such as "constructor" is no abbreviation. */
const own = <V>(record: Readonly<Record<string, V>>, key: string): V | undefined => (Object.hasOwn(record, key) ? record[key] : undefined);

/** The unit a word names, abbreviated or in full. */
const unitIn = (word: string) => own(UNIT_ABBREVIATIONS, word) ?? unitOf(word);

/** Units a measure's abbreviation names: a currency code with one of their names ("GBP", "lb": "pound") names no unit alone. */
const MEASURE_UNITS = new Set(Object.values(MEASURE_ABBREVIATIONS));

/** The unit one word names, in full or abbreviated ("ounces", "oz": ounce; "usd": dollar), or undefined. */
export function unitNamed(word: string): string | undefined {
  const code = own(CURRENCY_CODES, word);
  return unitOf(word) ?? own(MEASURE_ABBREVIATIONS, word) ?? (code === undefined || MEASURE_UNITS.has(code) ? undefined : code);
}

/** The letters written onto a number ("kg" of "10kg", "g" of "8g"), or undefined. */
function gluedLetters(word: string): string | undefined {
  return /^\d+(?:[.,]\d+)?([a-z]+)$/.exec(word)?.[1];
}

/** The unit of a number and a unit written as one word ("10kg", "5km", "50mg", "8GB"), or undefined. */
function gluedUnit(word: string): string | undefined {
  const letters = gluedLetters(word);
  return letters === undefined ? undefined : unitIn(letters);
}

/** The units of the signs written against a number ("€50", "30 °C"). */
const signUnits = (text: string) => new Set([...text.matchAll(SIGN)].map(([sign]) => UNIT_SIGNS[sign.toLowerCase().replace(/\s+/g, "")]));

/** A number in digits or a cardinal in words ("30", "thirty"; not "second"). */
const isCount = (word: string | undefined) => isNumber(word) || (word !== undefined && cardinal(word) === word);

/** Words between a count and its unit: "30 degrees Celsius", "one US dollar", "10 Canadian dollars". */
export const UNIT_QUALIFIERS: readonly string[] = ["degree", "degrees", "us", "canadian", "australian", "singapore"];
const UNIT_QUALIFIER = new Set(UNIT_QUALIFIERS);

const LENGTH_UNITS = ["millimeter", "centimeter", "meter", "kilometer", "inch", "foot", "yard", "mile"];

/**
 * Words that make another unit of the units after them: "10 nautical miles" are not "10 miles", "square feet" not
 * "feet" ("sq ft" is "square feet"). The unit read is "<kind> <unit>" ("square foot"); before another word the kind
 * word is no unit's ("Times Square daily visitors", "fluid daily", "Orlando FL hourly").
 */
export const UNIT_KINDS: Readonly<Record<string, { kind: string; of: readonly string[] }>> = {
  nautical: { kind: "nautical", of: ["mile"] },
  square: { kind: "square", of: LENGTH_UNITS },
  sq: { kind: "square", of: LENGTH_UNITS },
  cubic: { kind: "cubic", of: LENGTH_UNITS },
  fluid: { kind: "fluid", of: ["ounce"] },
  fl: { kind: "fluid", of: ["ounce"] },
};

/** Kinds written after a length: "meters squared" are square meters, "feet cubed" cubic feet. */
export const UNIT_KINDS_AFTER: Readonly<Record<string, string>> = { squared: "square", cubed: "cubic" };

/** The kind the word before the unit word at i makes of it ("square" before "feet"), or undefined. */
function kindBefore(words: readonly string[], i: number): string | undefined {
  const kind = i > 0 ? own(UNIT_KINDS, words[i - 1]) : undefined;
  const unit = kind === undefined ? undefined : unitIn(words[i]);
  return unit !== undefined && kind!.of.includes(unit) ? kind!.kind : undefined;
}

/** The kind of the unit word at i, written before it or after it ("meters squared"), or undefined. */
function kindAt(words: readonly string[], i: number): string | undefined {
  const after = i + 1 < words.length ? own(UNIT_KINDS_AFTER, words[i + 1]) : undefined;
  const unit = after === undefined ? undefined : unitIn(words[i]);
  return kindBefore(words, i) ?? (unit !== undefined && LENGTH_UNITS.includes(unit) ? after : undefined);
}

/** The unit word at i names, made its kind's by the word before it ("square" foot), or the unit itself. */
function ofKind(unit: string, words: readonly string[], i: number): string {
  const kind = kindAt(words, i);
  return kind === undefined ? unit : `${kind} ${unit}`;
}

/** Where the words before a unit word start: before its kind ("10 square feet": the "10"), else just before it. */
const beforeUnit = (words: readonly string[], i: number) => (kindBefore(words, i) === undefined ? i - 1 : i - 2);

/**
 * The units a question counts: a sign against a number ("$100"), a unit just after a number, in digits or words,
 * or written as one word with it ("10kg"), or after its "degrees" or a currency's country ("1 inch in cm": inch; "30 degrees Celsius": celsius; "one US
 * dollar": dollar).
 */
export function countedUnitsOf(text: string, words: readonly string[]): Set<string> {
  const counted = signUnits(text);
  words.forEach((word, i) => {
    if (readsGiga(words, i)) return;
    const before = beforeUnit(words, i);
    const counts = isCount(words[before]) || (UNIT_QUALIFIER.has(words[before]) && isCount(words[before - 1]));
    const named = counts ? unitIn(word) : undefined;
    const unit = named === undefined ? gluedUnit(word) : ofKind(named, words, i);
    if (unit !== undefined) counted.add(unit);
  });
  return counted;
}

/**
 * The units a question names, from its lower-cased words and its text (signs and fractions): "How fast is light
 * in m/s?" names meter and second, "€50 in JPY" euro and yen.
 */
export function unitsOf(text: string, words: readonly string[]): Set<string> {
  const units = new Set<string>();
  for (const [, compound] of text.matchAll(COMPOUND)) UNIT_COMPOUNDS[compound.toLowerCase().replace(/\s+/g, "")].forEach((unit) => units.add(unit));
  for (const unit of signUnits(text)) units.add(unit);
  words.forEach((word, i) => {
    if (readsGiga(words, i)) return;
    const glued = gluedUnit(word);
    if (glued !== undefined) units.add(glued);
    const abbreviation = own(UNIT_ABBREVIATIONS, word);
    const before = words[beforeUnit(words, i)];
    if (abbreviation !== undefined && (isNumber(before) || BEFORE_ABBREVIATION.includes(before))) units.add(ofKind(abbreviation, words, i));
    const unit = unitOf(word);
    if (unit === undefined || (word === "second" && !AFTER_SECOND.includes(words[i - 1]) && !isNumber(words[i - 1]))) return;
    units.add(ofKind(unit, words, i));
  });
  return units;
}
