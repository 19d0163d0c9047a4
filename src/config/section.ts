/**
 * One mapping of a YAML config, read with types: each failure names the key's path
 * (`storage_config.max_size must be a positive integer`), and keys nobody read are refused.
 */
import { ValidationError } from "../core/errors.js";
import { isIntegerBetween, isNonNegativeInteger, isNumberBetween, isPositiveInteger, isPositiveNumber } from "../core/validation.js";

export function isMapping(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** One mapping of the YAML document: typed reads that name the key's path on failure, and unknown-key checks. */
export class Section {
  readonly #data: Record<string, unknown>;
  readonly #seen = new Set<string>();

  constructor(
    value: unknown,
    readonly path: string,
  ) {
    if (!isMapping(value)) throw new ValidationError(`${path || "The config"} must be a mapping of keys to values.`);
    this.#data = value;
  }

  /** The value, with YAML's empty value (null) read as unset, as GPTCache's template leaves sections empty. */
  #take(key: string): unknown {
    this.#seen.add(key);
    return this.#data[key] ?? undefined;
  }

  #fail(key: string, what: string): never {
    throw new ValidationError(`${this.path ? `${this.path}.` : ""}${key} must be ${what}`);
  }

  #check<T>(key: string, ok: (value: unknown) => boolean, what: string): T | undefined {
    const value = this.#take(key);
    if (value !== undefined && !ok(value)) this.#fail(key, what);
    return value as T | undefined;
  }

  /** A string; with `allowed`, one of them (any case), returned as spelled in the list. */
  string(key: string, allowed?: readonly string[]): string | undefined {
    const value = this.#check<string>(key, (v) => typeof v === "string" && v.length > 0, "a non-empty string");
    if (value === undefined || !allowed) return value;
    return allowed.find((name) => name.toLowerCase() === value.toLowerCase()) ?? this.#fail(key, `one of: ${allowed.join(", ")}`);
  }

  positiveInteger(key: string): number | undefined {
    return this.#check(key, isPositiveInteger, "a positive integer");
  }

  nonNegativeInteger(key: string): number | undefined {
    return this.#check(key, isNonNegativeInteger, "a non-negative integer");
  }

  positiveNumber(key: string): number | undefined {
    return this.#check(key, isPositiveNumber, "a positive number");
  }

  integerIn(key: string, min: number, max: number): number | undefined {
    return this.#check(key, (v) => isIntegerBetween(v, min, max), `an integer from ${min} to ${max}`);
  }

  /** A non-empty string, or a non-negative integer returned as its digits. */
  stringOrNonNegativeInteger(key: string): string | undefined {
    const ok = (v: unknown) => (typeof v === "string" && v.length > 0) || isNonNegativeInteger(v);
    const value = this.#check<string | number>(key, ok, "a non-empty string or a non-negative integer");
    return value === undefined ? undefined : String(value);
  }

  numberIn(key: string, min: number, max: number): number | undefined {
    return this.#check(key, (v) => isNumberBetween(v, min, max), `a number in [${min}, ${max}]`);
  }

  boolean(key: string): boolean | undefined {
    return this.#check(key, (v) => typeof v === "boolean", "true or false");
  }

  stringList(key: string): string[] | undefined {
    return this.#check(key, (v) => Array.isArray(v) && v.every((item) => typeof item === "string"), "a list of strings");
  }

  stringOrList(key: string): string | string[] | undefined {
    const isList = (v: unknown) => Array.isArray(v) && v.every((item) => typeof item === "string");
    return this.#check(key, (v) => typeof v === "string" || isList(v), "a string or a list of strings");
  }

  /** A list of strings and mappings; each mapping is read as a section named `key[i]`. */
  list(key: string): Array<string | Section> | undefined {
    const items = this.#check<unknown[]>(key, (v) => Array.isArray(v) && v.every((item) => typeof item === "string" || isMapping(item)), "a list of strings or mappings");
    return items?.map((item, i) => (typeof item === "string" ? item : new Section(item, `${this.path ? `${this.path}.` : ""}${key}[${i}]`)));
  }

  section(key: string): Section | undefined {
    const value = this.#take(key);
    return value === undefined ? undefined : new Section(value, this.path ? `${this.path}.${key}` : key);
  }

  /** Every entry as is (for sections checked elsewhere); counts them all as read. */
  entries(): Record<string, unknown> {
    for (const key of Object.keys(this.#data)) this.#seen.add(key);
    return { ...this.#data };
  }

  /** The keys as written (set to a value; YAML's empty value counts as unset). */
  keys(): string[] {
    return Object.keys(this.#data).filter((key) => this.#data[key] !== null && this.#data[key] !== undefined);
  }

  /** A list of positive numbers (weights). */
  positiveNumberList(key: string): number[] | undefined {
    const ok = (v: unknown) => Array.isArray(v) && v.length > 0 && v.every(isPositiveNumber);
    return this.#check(key, ok, "a non-empty list of positive numbers");
  }

  /** A mapping kept as written (options passed on to a class named in the config); counts it as read. */
  mapping(key: string): Record<string, unknown> | undefined {
    return this.#check(key, isMapping, "a mapping of keys to values");
  }

  /** Whether a key is set (to a value; YAML's empty value counts as unset), without reading it. */
  has(key: string): boolean {
    return this.#data[key] !== null && this.#data[key] !== undefined;
  }

  /**
   * Refuses the keys set here that `what` does not take, naming those it does: the same key can be right for
   * one component and wrong for another (api_key for `openai`, not for `use`).
   */
  only(allowed: readonly string[], what: string): void {
    const misplaced = this.keys().filter((key) => !allowed.includes(key));
    if (misplaced.length === 0) return;
    const takes = allowed.length === 0 ? "it takes no settings" : `it takes ${allowed.join(", ")}`;
    throw new ValidationError(`${this.path}: ${misplaced.join(", ")} ${misplaced.length > 1 ? "do" : "does"} not apply to ${what} (${takes}).`);
  }

  /** Refuses keys nobody read: a typo must not silently fall back to a default. */
  done(): void {
    const unknown = Object.keys(this.#data).filter((key) => !this.#seen.has(key));
    if (unknown.length > 0) {
      const where = this.path ? ` in ${this.path}` : "";
      throw new ValidationError(`Unknown config key${unknown.length > 1 ? "s" : ""}${where}: ${unknown.join(", ")}`);
    }
  }
}
