import { createHash } from "node:crypto";
import { alignQuestions, ALIGNMENT_LISTS, ALIGNMENT_VETOES, type AlignmentVeto } from "./alignment.js";
import { lexiconDigest } from "./lexicon.js";
import chosen from "./lexical-vetoes.json" with { type: "json" };

/**
 * The alignment's vetoes the judge applies: those scripts/fit-vetoes.ts kept on the tune splits
 * (lexical-vetoes.json), for the word lists and the lexicon they were chosen with.
 */
export const LEXICAL_VETOES: readonly AlignmentVeto[] = chosen.vetoes.filter((name): name is AlignmentVeto => (ALIGNMENT_VETOES as readonly string[]).includes(name));

/** A digest of the hand-written lists and the lexicon (its irregular forms too): what the vetoes were chosen on. */
export function lexicalListsDigest(): string {
  return createHash("sha256").update(JSON.stringify(ALIGNMENT_LISTS)).update(lexiconDigest()).digest("hex");
}

/** The first chosen veto the pair trips ("swapped", "substitution", ...), or undefined. */
export function lexicalVeto(question: string, cachedQuestion: string): AlignmentVeto | undefined {
  const alignment = alignQuestions(question, cachedQuestion);
  return LEXICAL_VETOES.find((name) => alignment[name]);
}
