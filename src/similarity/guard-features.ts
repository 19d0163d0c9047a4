import { conflicts, hasOppositeAction, jaccard, namesTraded, namesUnmentioned, negatesWhatOtherAffirms, oneSided, questionFacts, type QuestionFacts } from "./guard-text.js";

/** The features the precision guard's model weighs, by name; the fitted model lists the ones it uses. */
export const GUARD_FEATURES = {
  /** Cosine similarity of the two embeddings. */
  cosine: (c: number) => c,
  /** Its square: lets the model bend the cosine's curve (the top of the range matters most). */
  cosine2: (c: number) => c * c,
  /** Jaccard overlap of content words. */
  overlap: (_c: number, a: QuestionFacts, b: QuestionFacts) => jaccard(a.content, b.content),
  numberConflict: (_c: number, a: QuestionFacts, b: QuestionFacts) => Number(conflicts(a.numbers, b.numbers)),
  numberOneSided: (_c: number, a: QuestionFacts, b: QuestionFacts) => Number(oneSided(a.numbers, b.numbers)),
  /**
   * Each side names something the other does not mention (a substitution: "Paris" for "London"), or names written
   * in other words trade places ("a US citizen in the UK" / "a British citizen in the US").
   */
  entityConflict: (_c: number, a: QuestionFacts, b: QuestionFacts) => Number((namesUnmentioned(a, b) && namesUnmentioned(b, a)) || namesTraded(a, b)),
  /** Exactly one side names something the other does not mention. */
  entityOneSided: (_c: number, a: QuestionFacts, b: QuestionFacts) => Number(namesUnmentioned(a, b) !== namesUnmentioned(b, a)),
  negationMismatch: (_c: number, a: QuestionFacts, b: QuestionFacts) => Number(negatesWhatOtherAffirms(a, b)),
  oppositeAction: (_c: number, a: QuestionFacts, b: QuestionFacts) => Number(hasOppositeAction(a, b)),
  /** Shorter over longer word count (1 for equal lengths). */
  lengthRatio: (_c: number, a: QuestionFacts, b: QuestionFacts) => Math.min(a.length, b.length) / Math.max(a.length, b.length, 1),
  questionWordMismatch: (_c: number, a: QuestionFacts, b: QuestionFacts) =>
    Number(a.questionWord !== "" && b.questionWord !== "" && a.questionWord !== b.questionWord),
} as const satisfies Record<string, (cosine: number, a: QuestionFacts, b: QuestionFacts) => number>;

export type GuardFeatureName = keyof typeof GUARD_FEATURES;

/** The named features' values for one pair, in the order given. */
export function guardFeatures(names: readonly GuardFeatureName[], cosine: number, question: string, cachedQuestion: string): number[] {
  const a = questionFacts(question);
  const b = questionFacts(cachedQuestion);
  return names.map((name) => GUARD_FEATURES[name](cosine, a, b));
}
