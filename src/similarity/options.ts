import { ValidationError } from "../core/errors.js";

/**
 * An integer option of an evaluation or processor (a cache size, a count, a length): `value`, or `fallback`
 * when not given, checked to be an integer of at least `min`.
 */
export function integerOption(owner: string, name: string, value: number | undefined, fallback: number, min: number): number {
  const result = value ?? fallback;
  if (!Number.isInteger(result) || result < min) {
    throw new ValidationError(`${owner}: \`${name}\` must be an integer of at least ${min}.`);
  }
  return result;
}
