import { readFileSync } from "node:fs";
import { ValidationError } from "../core/errors.js";

/** Two questions and whether they ask the same thing (1) or not (0): what `semcache tune` learns from. */
export interface LabelledPair {
  /** The stored question (QQP's text_a, or `question`). */
  stored: string;
  /** The incoming question (QQP's text_b, or `candidate`). */
  query: string;
  label: 0 | 1;
}

const SHAPE = "{ text_a, text_b, label } or { question, candidate, label } with two non-empty strings and a label 0 or 1";
const MIN_PAIRS = 10;

/**
 * Reads labelled pairs from a JSON array or JSON Lines file, throwing a ValidationError that names the file
 * and the faulty entry for anything unusable (fewer than 10 pairs, or a single label, cannot give a curve).
 */
export function readLabelledPairs(file: string): LabelledPair[] {
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch (error) {
    throw new ValidationError(`Cannot read ${file}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}.`);
  }
  const entries = parseEntries(file, text);
  const pairs = entries.map((entry, i) => toPair(file, entry, i));
  if (pairs.length < MIN_PAIRS) throw new ValidationError(`${file} has ${pairs.length} pairs; tuning needs at least ${MIN_PAIRS}.`);
  const same = pairs.filter((pair) => pair.label === 1).length;
  if (same === 0 || same === pairs.length) {
    throw new ValidationError(`${file} has only label ${pairs[0].label} pairs; tuning needs both same-question (1) and different-question (0) pairs.`);
  }
  return pairs;
}

/** A JSON array, or else one JSON value per non-blank line. */
function parseEntries(file: string, text: string): unknown[] {
  const trimmed = text.trim();
  if (trimmed.startsWith("[")) {
    try {
      return JSON.parse(trimmed) as unknown[];
    } catch (error) {
      throw new ValidationError(`${file} is not valid JSON: ${(error as Error).message}.`);
    }
  }
  return text.split("\n").flatMap((line, i) => {
    if (line.trim() === "") return [];
    try {
      return [JSON.parse(line) as unknown];
    } catch {
      throw new ValidationError(`${file} is neither a JSON array nor JSON Lines: line ${i + 1} is not valid JSON.`);
    }
  });
}

function toPair(file: string, entry: unknown, index: number): LabelledPair {
  const record = (typeof entry === "object" && entry !== null ? entry : {}) as Record<string, unknown>;
  const stored = record.text_a ?? record.question;
  const query = record.text_b ?? record.candidate;
  const label = record.label === true ? 1 : record.label === false ? 0 : record.label;
  const usable = (value: unknown): value is string => typeof value === "string" && value.trim() !== "";
  if (!usable(stored) || !usable(query) || (label !== 0 && label !== 1)) {
    throw new ValidationError(`${file}: pair ${index + 1} is not ${SHAPE}: ${JSON.stringify(entry)?.slice(0, 120)}.`);
  }
  return { stored, query, label };
}
