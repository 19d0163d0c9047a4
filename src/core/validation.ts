/**
 * The number checks every component's options go through: one meaning of "a positive integer" or "a positive
 * number" (finite, so Infinity and NaN are refused everywhere alike), and one wording of the error,
 * `<subject> must be <what>, got <value>`. The predicates are for readers that word their own errors (the
 * YAML and server config readers name the key's path).
 */
import { ValidationError } from "./errors.js";

/** A whole number of at least `min`. */
export function isIntegerAtLeast(value: unknown, min: number): value is number {
  return typeof value === "number" && Number.isInteger(value) && value >= min;
}

/** A whole number above 0. */
export function isPositiveInteger(value: unknown): value is number {
  return isIntegerAtLeast(value, 1);
}

/** A whole number of 0 or more. */
export function isNonNegativeInteger(value: unknown): value is number {
  return isIntegerAtLeast(value, 0);
}

/** A whole number from `min` to `max`. */
export function isIntegerBetween(value: unknown, min: number, max: number): value is number {
  return isIntegerAtLeast(value, min) && value <= max;
}

/** A finite number above 0. */
export function isPositiveNumber(value: unknown): value is number {
  return typeof value === "number" && Number.isFinite(value) && value > 0;
}

/** A finite number of 0 or more. */
export function isNonNegativeNumber(value: unknown): value is number {
  return typeof value === "number" && Number.isFinite(value) && value >= 0;
}

/** A finite number from `min` to `max`. */
export function isNumberBetween(value: unknown, min: number, max: number): value is number {
  return typeof value === "number" && Number.isFinite(value) && value >= min && value <= max;
}

/** How a refused value reads in a message (a string in quotes, so "5" and 5 differ). */
function shown(value: unknown): string {
  return typeof value === "string" ? JSON.stringify(value) : String(value);
}

function refuse(subject: string, what: string, value: unknown): never {
  throw new ValidationError(`${subject} must be ${what}, got ${shown(value)}`);
}

/** "a positive integer", "a non-negative integer" or "an integer of at least N". */
function integerWording(min: number): string {
  return min === 1 ? "a positive integer" : min === 0 ? "a non-negative integer" : `an integer of at least ${min}`;
}

/**
 * `value` (or `fallback` when it is undefined) if it is a whole number of at least `min`, else a ValidationError.
 * `subject` names the option in the message, with its owner: "redis: connectTimeoutMs".
 */
export function integerAtLeast(subject: string, value: unknown, min: number, fallback?: number): number {
  const result = value === undefined ? fallback : value;
  return isIntegerAtLeast(result, min) ? result : refuse(subject, integerWording(min), result);
}

/** `value` (or `fallback`) if it is a whole number above 0, else a ValidationError naming `subject`. */
export function positiveInteger(subject: string, value: unknown, fallback?: number): number {
  return integerAtLeast(subject, value, 1, fallback);
}

/** `value` (or `fallback`) if it is a whole number of 0 or more, else a ValidationError naming `subject`. */
export function nonNegativeInteger(subject: string, value: unknown, fallback?: number): number {
  return integerAtLeast(subject, value, 0, fallback);
}

/** `value` (or `fallback`) if it is a whole number from `min` to `max`, else a ValidationError naming `subject`. */
export function integerBetween(subject: string, value: unknown, min: number, max: number, fallback?: number): number {
  const result = value === undefined ? fallback : value;
  return isIntegerBetween(result, min, max) ? result : refuse(subject, `an integer from ${min} to ${max}`, result);
}

/** `value` (or `fallback`) if it is a finite number above 0, else a ValidationError naming `subject`. */
export function positiveNumber(subject: string, value: unknown, fallback?: number): number {
  const result = value === undefined ? fallback : value;
  return isPositiveNumber(result) ? result : refuse(subject, "a positive number", result);
}

/** `value` (or `fallback`) if it is a finite number from `min` to `max`, else a ValidationError naming `subject`. */
export function numberBetween(subject: string, value: unknown, min: number, max: number, fallback?: number): number {
  const result = value === undefined ? fallback : value;
  return isNumberBetween(result, min, max) ? result : refuse(subject, `a number from ${min} to ${max}`, result);
}
