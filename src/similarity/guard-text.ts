/**
 * Word-level facts about a question that a sentence embedding blurs: the precision guard compares them
 * between a request and a cached question. Pure functions, English only.
 */

const STOPWORDS = new Set(
  ("a an the is are was were be been being am do does did doing have has had having i me my we our you your he she it its " +
    "they them their this that these those of to in on at by for with from as into about over after before between " +
    "and or but if so than then there here what which who whom whose when where why how can could should would will " +
    "shall may might must any some all each every most more much many very just also only own same such too").split(" "),
);

const NEGATIONS = new Set(["not", "no", "non", "never", "without", "none", "nobody", "nothing", "neither", "nor", "cannot"]);

/** Pairs of words whose swap reverses what is asked (matched on a crude stem, so "installing" is "install"). */
const OPPOSITES: ReadonlyArray<readonly [string, string]> = [
  ["install", "uninstall"],
  ["enable", "disable"],
  ["add", "remove"],
  ["buy", "sell"],
  ["increase", "decrease"],
  ["start", "stop"],
  ["open", "close"],
  ["lock", "unlock"],
  ["encrypt", "decrypt"],
  ["connect", "disconnect"],
  ["upload", "download"],
  ["import", "export"],
  ["subscribe", "unsubscribe"],
  ["follow", "unfollow"],
  ["block", "unblock"],
  ["mute", "unmute"],
  ["hide", "show"],
  ["create", "delete"],
  ["gain", "lose"],
  ["win", "lose"],
  ["push", "pull"],
  ["login", "logout"],
  ["zip", "unzip"],
  ["compress", "decompress"],
  ["upgrade", "downgrade"],
  ["activate", "deactivate"],
  ["before", "after"],
  ["maximum", "minimum"],
  ["max", "min"],
  ["best", "worst"],
  ["cheapest", "expensive"],
  ["advantage", "disadvantage"],
  ["pro", "con"],
  ["male", "female"],
  ["men", "women"],
  ["boy", "girl"],
  ["good", "bad"],
  ["rich", "poor"],
  ["hot", "cold"],
  ["long", "short"],
  ["fast", "slow"],
];

const IRREGULAR: Record<string, string> = { bought: "buy", sold: "sell", lost: "lose", won: "win", shown: "show", cons: "con", pros: "pro" };

const QUESTION_WORDS = new Set(["what", "why", "how", "when", "who", "where", "which"]);

/** A crude stem: enough to match inflections of the opposite-word list, not a linguistic stemmer. */
export function stem(word: string): string {
  const lower = word.toLowerCase();
  if (IRREGULAR[lower]) return IRREGULAR[lower];
  const bare = lower.length > 5 ? lower.replace(/(ing|ed|es|s)$/, "") : lower.replace(/s$/, "");
  return bare.length > 3 ? bare.replace(/e$/, "") : bare;
}

const OPPOSITE_STEMS = OPPOSITES.map(([a, b]) => [stem(a), stem(b)] as const);

/** What the guard reads from one question. */
export interface QuestionFacts {
  /** Lower-case words without stopwords. */
  content: Set<string>;
  /** Stems of every word. */
  stems: Set<string>;
  /** Numbers as written ("2", "3.5", "2019"). */
  numbers: Set<string>;
  /** Capitalised words not at a sentence start (names, products, places), lower-cased. */
  entities: Set<string>;
  /** Whether it negates (not, no, never, n't, without, ...). */
  negated: boolean;
  /** The first question word (what, why, how, ...), or "". */
  questionWord: string;
  /** Number of words. */
  length: number;
}

/** Reads the facts of one question. */
export function questionFacts(text: string): QuestionFacts {
  const words = text.match(/[\p{L}\p{N}]+(?:['’][\p{L}]+)?/gu) ?? [];
  // Clitics carry no meaning of their own here ("what's" asks what); "n't" stays: it is a negation.
  const lower = words.map((word) => word.toLowerCase().replace(/['’](?:s|re|ll|ve|d|m)$/, ""));
  const sentenceStarts = new Set<number>([0]);
  const starts = text.split(/(?<=[.?!])\s+/);
  let offset = 0;
  for (const sentence of starts.slice(0, -1)) {
    offset += (sentence.match(/[\p{L}\p{N}]+(?:['’][\p{L}]+)?/gu) ?? []).length;
    sentenceStarts.add(offset);
  }
  const entities = new Set<string>();
  words.forEach((word, i) => {
    if (!sentenceStarts.has(i) && /^\p{Lu}/u.test(word) && word !== "I" && !/^\p{N}/u.test(word)) entities.add(lower[i]);
  });
  return {
    content: new Set(lower.filter((word) => !STOPWORDS.has(word) && !NEGATIONS.has(word))),
    stems: new Set(lower.map(stem)),
    numbers: new Set(text.match(/\d+(?:[.,]\d+)*/g) ?? []),
    entities,
    negated: lower.some((word) => NEGATIONS.has(word) || /n['’]t$/.test(word)),
    questionWord: lower.find((word) => QUESTION_WORDS.has(word)) ?? "",
    length: words.length,
  };
}

/** |a ∩ b| / |a ∪ b|; 1 for two empty sets. */
export function jaccard(a: ReadonlySet<string>, b: ReadonlySet<string>): number {
  if (a.size === 0 && b.size === 0) return 1;
  let shared = 0;
  for (const item of a) if (b.has(item)) shared++;
  return shared / (a.size + b.size - shared);
}

/** Each side has an item the other lacks: a substitution ("Paris" for "London", "2" for "3"). */
export function conflicts(a: ReadonlySet<string>, b: ReadonlySet<string>): boolean {
  return [...a].some((item) => !b.has(item)) && [...b].some((item) => !a.has(item));
}

/** Exactly one side has items: one question adds a detail the other leaves out. */
export function oneSided(a: ReadonlySet<string>, b: ReadonlySet<string>): boolean {
  return (a.size === 0) !== (b.size === 0);
}

/** One question has a word and the other its opposite, without also having the first (install vs uninstall). */
export function hasOppositeAction(a: QuestionFacts, b: QuestionFacts): boolean {
  return OPPOSITE_STEMS.some(
    ([x, y]) => (a.stems.has(x) && !a.stems.has(y) && b.stems.has(y) && !b.stems.has(x)) || (a.stems.has(y) && !a.stems.has(x) && b.stems.has(x) && !b.stems.has(y)),
  );
}
