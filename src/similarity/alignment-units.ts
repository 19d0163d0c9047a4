/**
 * Units of measure and currencies, read as the unit they name for the question alignment (alignment.ts):
 * "seconds in a day" asks something else than "minutes in a day", "€50 in JPY" the same as "50 euros in yen".
 * The lists are part of ALIGNMENT_LISTS (alignment-lists.ts).
 */

/** Each unit's names (the first is the unit's own), singular; plurals in -s, -es and -ies are read too. */
export const UNIT_NAMES: ReadonlyArray<readonly string[]> = [
  // Time. "second" also orders ("the second largest"): see AFTER_SECOND.
  ["second", "secs"],
  ["millisecond"],
  ["minute", "mins"],
  ["hour", "hrs", "hourly"],
  ["day", "daily"],
  ["week", "weekly"],
  ["fortnight"],
  ["month", "monthly"],
  ["year", "yr", "yearly", "annual", "annually"],
  ["decade"],
  ["century", "centuries"],
  // Length.
  ["millimeter", "millimetre", "mm"],
  ["centimeter", "centimetre", "cm"],
  ["meter", "metre"],
  ["kilometer", "kilometre", "km"],
  ["inch"],
  ["foot", "feet", "ft"],
  ["yard", "yd"],
  ["mile"],
  // Mass.
  ["milligram", "mg"],
  ["gram"],
  ["kilogram", "kilo", "kg"],
  ["pound", "lb", "lbs", "gbp", "£"],
  ["ounce", "oz"],
  ["ton", "tonne"],
  // Volume.
  ["milliliter", "millilitre"],
  ["liter", "litre"],
  ["gallon"],
  ["quart"],
  ["pint"],
  ["cup"],
  ["tablespoon", "tbsp"],
  ["teaspoon", "tsp"],
  // Temperature, data, energy, area.
  ["celsius", "°c"],
  ["fahrenheit", "°f"],
  ["kelvin"],
  ["byte"],
  ["kilobyte", "kb"],
  ["megabyte", "mb"],
  ["gigabyte", "gb"],
  ["terabyte"],
  ["calorie", "kcal", "kilocalorie"],
  ["joule"],
  ["watt"],
  ["kilowatt", "kw"],
  ["acre"],
  ["hectare"],
  // Currencies ("pound" above: the unit and the currency share the name).
  ["dollar", "usd", "$"],
  ["euro", "eur", "€"],
  ["yen", "jpy", "¥"],
  ["yuan", "cny", "renminbi"],
  ["rupee", "inr"],
  ["peso", "mxn"],
  ["franc", "chf"],
  ["ruble", "rouble"],
];

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
export const AFTER_SECOND: readonly string[] = ["per", "one", "each", "every"];

const UNIT = new Map<string, string>(UNIT_NAMES.flatMap((names) => names.map((name) => [name, names[0]] as const)));
const COMPOUND = new RegExp(`(?:^|[^\\p{L}/])(${Object.keys(UNIT_COMPOUNDS).map((key) => key.replace("/", "\\s*/\\s*")).join("|")})(?![\\p{L}/])`, "giu");
const SYMBOL = /[£$€¥]|°\s*[cf]\b/giu;

/** The unit a word names, singular or plural, or undefined. */
function unitOf(word: string): string | undefined {
  const singular = [word, word.replace(/s$/, ""), word.replace(/es$/, ""), word.replace(/ies$/, "y")];
  for (const form of singular) {
    const unit = UNIT.get(form);
    if (unit !== undefined) return unit;
  }
  return undefined;
}

/**
 * The units a question names, from its lower-cased words and its text (symbols and fractions): "How fast is
 * light in m/s?" names meter and second. Abbreviations that are also common initials ("ml", "hr", "sec", "tb")
 * are left out.
 */
export function unitsOf(text: string, words: readonly string[]): Set<string> {
  const units = new Set<string>();
  for (const [, compound] of text.matchAll(COMPOUND)) UNIT_COMPOUNDS[compound.toLowerCase().replace(/\s+/g, "")].forEach((unit) => units.add(unit));
  for (const [symbol] of text.matchAll(SYMBOL)) units.add(UNIT.get(symbol.toLowerCase().replace(/\s+/g, ""))!);
  words.forEach((word, i) => {
    const unit = unitOf(word);
    if (unit === undefined) return;
    if (word === "second" && !(AFTER_SECOND.includes(words[i - 1]) || /^\d/.test(words[i - 1] ?? ""))) return;
    units.add(unit);
  });
  return units;
}
