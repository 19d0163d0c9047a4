/**
 * The model or edition written after a name ("Tesla Model 3", "iPhone X", "Windows XP", "World War II"), for the
 * question alignment (alignment.ts): "Model 3" and "Model Y" are two cars, where a number on one side and a
 * letter on the other is no number mismatch. The word list is part of ALIGNMENT_LISTS (alignment-lists.ts).
 */

/** Lower-case words a capital letter after does not designate a model of ("Java or C", "from A to B"). */
export const NOT_BEFORE_A_LETTER: readonly string[] = "and or vs to from with in on of for is are than".split(" ");

/**
 * Words a numeral labels as what it follows, in any case ("type 2 diabetes", "Stage IV"); after one written as a
 * name even "I" is the numeral ("Type I diabetes", "Phase I trials"), where elsewhere it is the pronoun.
 */
export const NUMBERED_NOUNS: readonly string[] =
  "type class stage phase grade level part chapter act book volume episode season schedule category article title war".split(" ");

/** Short capitals that are words or common abbreviations, no model ("Should I", "Is Netflix OK", "HOW DO I"). */
export const NOT_A_MODEL: readonly string[] =
  "I A AI AM AN AS AT BE BY DO GO HE IF IN IS IT ME MY NO OF OK ON OR PC PM SO TO TV UK UP US WE".split(" ");

const TOKEN = /[\p{L}\p{N}]+/gu;
/** A word written as a name: capitalised ("Model") or capitalised inside ("iPhone"). */
const NAME = /^\p{Lu}|^\p{Ll}+\p{Lu}/u;
/** Between a name and its model: spaces or a hyphen ("Model 3", "Galaxy-S"), not a question's end ("GPA? B"). */
const MODEL_GAP = /^(?:\s+|-)$/;
const SENTENCE_END = /[.?!]/;
const ROMAN_DIGITS: Readonly<Record<string, number>> = { I: 1, V: 5, X: 10, L: 50, C: 100 };
const ROMAN = /^(?=.)(?:C{0,3})(?:XC|XL|L?X{0,3})(?:IX|IV|V?I{0,3})$/;
const NOT_MODELS = new Set(NOT_A_MODEL);
const NUMBERED = new Set(NUMBERED_NOUNS);
/** A Roman numeral of three letters or more ("III", "VIII", "XIV"); shorter ones are any two capitals. */
const LONG_ROMAN = /^[IVX]{3,}$/;
/** One capital letter, digits after it or not: a grade, a type or a class after a word in lower case ("class A", "type O", "vitamin D", "vitamin B12", "an A"). */
const LETTER = /^\p{Lu}\d{0,2}$/u;
/** What may follow an "I" that is a numeral: a clause's end or a list ("World War I?", "World War I and II"). */
const NUMERAL_I_ENDS = /^(?:\s*(?:[?.!,;:)]|$)|\s+(?:and|or|vs|versus)\b)/;
/** One or two capitals, which a sign may follow ("B+", "AB-"). */
const CAPITALS = /^\p{Lu}{1,2}$/u;
const NOT_BEFORE_LETTER = new Set(NOT_BEFORE_A_LETTER);
/** A plus or a minus just after a letter, ending a word ("B+", "A-"; not "B-tree", nor a dash: "a B--is that bad?"). */
const SIGN_AFTER = /^[+-](?![\p{L}\p{N}+-])/u;
/** Signs written as words after a letter ("A negative", "B minus"). */
export const SIGN_WORDS: Readonly<Record<string, string>> = { plus: "+", positive: "+", minus: "-", negative: "-" };
const signWord = (word: string) => (Object.hasOwn(SIGN_WORDS, word.toLowerCase()) ? SIGN_WORDS[word.toLowerCase()] : undefined);

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
 * What a word designates as a model, as a value: up to three digits and Roman numerals by value ("II", "2",
 * "VIII"), one or two other capitals as written ("Y", "XP"). Four digits are a year or an amount ("IPL 2016", "Rs 1000").
 */
export function designation(token: string): string | undefined {
  if (/^\d{1,3}$/.test(token)) return String(Number(token));
  if (LONG_ROMAN.test(token) && ROMAN.test(token)) return String(romanValue(token));
  if (!CAPITALS.test(token) || NOT_MODELS.has(token)) return undefined;
  return ROMAN.test(token) ? String(romanValue(token)) : token;
}

/**
 * A capital letter after a word in lower case, as a grade, a type or a class ("type O", "class A", "vitamin B12"),
 * read as a capital after a name would be ("vitamin C" as "Vitamin C"), Roman numerals by value; not after "or", "to", ...
 */
export function letterAfter(token: string, before: string): string | undefined {
  if (!LETTER.test(token) || token === "I" || !/^\p{Ll}+$/u.test(before) || NOT_BEFORE_LETTER.has(before)) return undefined;
  return ROMAN.test(token) ? String(romanValue(token)) : token;
}

/** What a side names after its names, and every model-like word it has anywhere (for the other side to find). */
export interface Models {
  /** Each name word, lower-cased, to the models right after it ("Tesla Model Y": model → {"Y"}). */
  readonly byName: ReadonlyMap<string, ReadonlySet<string>>;
  /** Every word that could designate a model, as its value ("Python 3 or 2": {"3", "2"}). */
  readonly all: ReadonlySet<string>;
}

/** A capital, a hyphen and digits: one model written apart ("B-12" is "B12", "W-2" is "W2"); not "I". */
const HYPHENATED_MODEL = /\b([A-HJ-Z])-(\d{1,3})\b/g;

/** Reads a text's models. A capital that opens a sentence is no name ("Is A ..."). */
export function modelsOf(written: string): Models {
  const text = written.replace(HYPHENATED_MODEL, "$1$2");
  const tokens = [...text.matchAll(TOKEN)];
  const byName = new Map<string, Set<string>>();
  const all = new Set<string>();
  const addModel = (name: string, model: string) => byName.set(name, (byName.get(name) ?? new Set<string>()).add(model));
  // A grade's sign is part of it ("a B+" / "a B-", "type A negative").
  const signWrittenAt = (i: number) => SIGN_AFTER.exec(text.slice(tokens[i].index + tokens[i][0].length))?.[0];
  const signAt = (i: number) => signWrittenAt(i) ?? signWord(tokens[i + 1]?.[0] ?? "") ?? "";
  /** Whether token `i` opens a sentence (a capital there is no name). */
  const opensSentence = (i: number) => i === 0 || SENTENCE_END.test(text.slice(tokens[i - 1].index + tokens[i - 1][0].length, tokens[i].index));
  tokens.forEach(([token], i) => {
    const [name] = tokens[i - 1] ?? [""];
    const letter = letterAfter(token, name);
    if (letter !== undefined) {
      const sign = signAt(i);
      all.add(letter + sign);
      // "an A" and "a B" are grades alike.
      addModel(name === "an" ? "a" : name, letter + sign);
      return;
    }
    /** Whether the token before stands just before this one, a space or a hyphen between. */
    const spaced = () => i > 0 && MODEL_GAP.test(text.slice(tokens[i - 1].index + name.length, tokens[i].index));
    const afterName = () => NAME.test(name) && spaced() && !opensSentence(i - 1);
    const labelled = () => NUMBERED.has(name.toLowerCase()) && spaced();
    // "I" after a name ending a clause or a list, or after a label written as a name (opening a sentence too), is a
    // numeral ("causes of World War I?", "World War I and II", "Type I diabetes"); elsewhere the pronoun ("Should I",
    // "the iPhone I bought", "Python I/O", "Which type I should buy?").
    const numeralI = () => (labelled() && NAME.test(name)) || (afterName() && NUMERAL_I_ENDS.test(text.slice(tokens[i].index + 1)));
    const value = designation(token) ?? (token === "I" && numeralI() ? "1" : undefined);
    if (value === undefined) {
      // A short word in capitals with a sign written after it is a letter all the same ("Is A+ blood rare?").
      const sign = CAPITALS.test(token) ? signWrittenAt(i) : undefined;
      if (sign !== undefined) all.add(token + sign);
      return;
    }
    all.add(value);
    // A letter or two with a sign anywhere, for the other side to find ("O positive and O negative" / "O- and O+", "AB+").
    if (CAPITALS.test(token)) all.add(value + signAt(i));
    if (afterName() || labelled()) addModel(name.toLowerCase(), value);
  });
  return { byName, all };
}

/**
 * Whether a name is followed by other models on the two sides, neither side naming the other's anywhere
 * ("Model 3" / "Model Y"; "iPhone X" and "iPhone 10" agree, and "Python 3 or Python 2" / "Python 3 or 2" name
 * the same two).
 */
export function modelsDiffer(a: Models, b: Models): boolean {
  const differAfter = [...a.byName].some(([name, models]) => {
    const other = b.byName.get(name);
    return other !== undefined && ![...models].some((model) => b.all.has(model)) && ![...other].some((model) => a.all.has(model));
  });
  return differAfter || signTurned(a, b) || signTurned(b, a);
}

/** Whether `a` signs a letter one way that `b` signs only the other way, wherever they stand ("AB+" / "AB-", "O positive" / "O-"). */
function signTurned(a: Models, b: Models): boolean {
  return [...a.all].some((model) => {
    const sign = model.at(-1);
    if (sign !== "+" && sign !== "-") return false;
    const turned = model.slice(0, -1) + (sign === "+" ? "-" : "+");
    return b.all.has(turned) && !b.all.has(model) && !a.all.has(turned);
  });
}
