/**
 * What the contract suites need from a test runner. Jest's and Vitest's `describe`, `it`, `expect`,
 * `beforeEach` and `afterEach` fit as they are, globals or imports: pass them as `runner`, or leave it out where
 * the runner sets them as globals (Jest; Vitest with `globals: true`). Nothing here loads a runner or its types.
 */
import { ValidationError } from "../core/errors.js";

type Hook = () => unknown;
/** A test's body: sync, or a promise the runner awaits (Jest's `it` takes no other shape). */
type Body = (() => void) | (() => PromiseLike<unknown>);

/** The matchers the suites use (Jest's and Vitest's have these, with these meanings). */
export interface ContractMatchers<R = void> {
  toBe(expected: unknown): R;
  toEqual(expected: unknown): R;
  toMatchObject(expected: object): R;
  toBeNull(): R;
  toBeUndefined(): R;
  toBeInstanceOf(expected: unknown): R;
  toBeCloseTo(expected: number, digits?: number): R;
  toBeGreaterThan(expected: number): R;
  toBeGreaterThanOrEqual(expected: number): R;
  toBeLessThan(expected: number): R;
  toBeLessThanOrEqual(expected: number): R;
  toHaveLength(expected: number): R;
  toContain(expected: unknown): R;
  toThrow(expected?: unknown): R;
}

export interface ContractExpectation extends ContractMatchers {
  not: ContractMatchers;
  rejects: ContractMatchers<Promise<void>>;
  resolves: ContractMatchers<Promise<void>>;
}

export interface ContractExpect {
  (actual: unknown): ContractExpectation;
  closeTo(expected: number, digits?: number): unknown;
  arrayContaining(expected: readonly unknown[]): unknown;
  stringMatching(expected: string | RegExp): unknown;
}

export interface ContractIt {
  (name: string, body: Body): void;
  /** Registers a test as skipped (shown in the runner's report). */
  skip(name: string, body: Body): void;
}

/** A test runner's functions, as the contract suites call them. */
export interface TestRunner {
  describe(name: string, body: () => void): void;
  it: ContractIt;
  expect: ContractExpect;
  beforeEach(hook: Hook): void;
  afterEach(hook: Hook): void;
}

const NAMES = ["describe", "it", "expect", "beforeEach", "afterEach"] as const;

/**
 * `runner`, else the runner's globals. Without either: a ValidationError saying what to pass (a runner that sets
 * no globals, such as Vitest by default).
 */
export function resolveRunner(runner?: TestRunner): TestRunner {
  if (runner !== undefined) {
    const missing = NAMES.filter((name) => typeof runner[name] !== "function");
    if (missing.length > 0) throw new ValidationError(`runner: ${missing.join(", ")} must be functions (the test runner's own).`);
    return runner;
  }
  const globals = globalThis as unknown as Partial<TestRunner>;
  const missing = NAMES.filter((name) => typeof globals[name] !== "function");
  if (missing.length > 0) {
    throw new ValidationError(
      `The contract suites need a test runner: no global ${missing.join(", ")}. Pass { runner: { describe, it, expect, beforeEach, afterEach } } (import them from "vitest", or your runner's module).`,
    );
  }
  return globals as TestRunner;
}
