/**
 * Typed errors. Every error has a stable `code` and an HTTP `statusCode` (the server maps them to 4xx/5xx
 * bodies). `isInstance` works across two installed copies of this package (common with LangChain's peer
 * dependencies), because it checks a global symbol instead of the class identity.
 */
const MARKER = Symbol.for("langchain-semcache.error");

/** Every error code, its HTTP status, and what it means. docs/errors.md lists the same table (tested). */
export const ERROR_CODES = {
  SEMCACHE_NOT_INIT: { statusCode: 500, description: "The cache was used before `init()` finished." },
  SEMCACHE_VALIDATION: { statusCode: 400, description: "An argument or option has a wrong type or value." },
  SEMCACHE_UNKNOWN_KIND: { statusCode: 400, description: "A factory string or config names a component kind that does not exist." },
  SEMCACHE_DIMENSION_MISMATCH: { statusCode: 400, description: "A vector's length differs from the index's dimension." },
  SEMCACHE_VALUE_TOO_LONG: { statusCode: 413, description: "A question, answer or session id is longer than its column." },
  SEMCACHE_MISSING_DEPENDENCY: { statusCode: 500, description: "An optional package needed by the chosen component is not installed." },
  SEMCACHE_STORE: { statusCode: 503, description: "A scalar, vector or object store failed or is unreachable." },
  SEMCACHE_EMBEDDING: { statusCode: 502, description: "The embedding function failed or returned something that is not an embedding." },
  SEMCACHE_EVALUATION: { statusCode: 502, description: "A similarity evaluation's model or API failed or answered something unusable." },
  SEMCACHE_HTTP: { statusCode: 502, description: "A semcache server could not be reached, timed out, or answered an error code this package does not know." },
} as const;

export type SemcacheErrorCode = keyof typeof ERROR_CODES;

export interface SemcacheErrorOptions {
  cause?: unknown;
}

/** Base class of every error this package throws on purpose. */
export class SemcacheError extends Error {
  readonly [MARKER] = true;
  readonly code: SemcacheErrorCode;
  readonly statusCode: number;

  constructor(code: SemcacheErrorCode, message: string, options: SemcacheErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = new.target.name;
    this.code = code;
    this.statusCode = ERROR_CODES[code].statusCode;
  }

  /** True for an error of this class (by code), even one thrown by another copy of the package. */
  static isInstance<T extends abstract new (...args: never[]) => SemcacheError>(
    this: T & { readonly code?: SemcacheErrorCode },
    error: unknown,
  ): error is InstanceType<T> {
    if (typeof error !== "object" || error === null || (error as Record<symbol, unknown>)[MARKER] !== true) {
      return false;
    }
    return this.code === undefined || (error as SemcacheError).code === this.code;
  }
}

export class NotInitError extends SemcacheError {
  static readonly code = "SEMCACHE_NOT_INIT";
  constructor(message = "The cache is not initialised: call `await cache.init(...)` first.") {
    super(NotInitError.code, message);
  }
}

export class ValidationError extends SemcacheError {
  static readonly code = "SEMCACHE_VALIDATION";
  constructor(message: string, options?: SemcacheErrorOptions) {
    super(ValidationError.code, message, options);
  }
}

export class UnknownKindError extends SemcacheError {
  static readonly code = "SEMCACHE_UNKNOWN_KIND";
  constructor(
    readonly category: string,
    readonly kind: string,
    readonly known: readonly string[],
  ) {
    super(UnknownKindError.code, `Unknown ${category} kind "${kind}". Known kinds: ${known.join(", ")}.`);
  }
}

export class DimensionMismatchError extends SemcacheError {
  static readonly code = "SEMCACHE_DIMENSION_MISMATCH";
  constructor(
    readonly expected: number,
    readonly actual: number,
    where = "vector index",
  ) {
    super(DimensionMismatchError.code, `The ${where} holds ${expected}-d vectors, got a ${actual}-d vector.`);
  }
}

export class ValueTooLongError extends SemcacheError {
  static readonly code = "SEMCACHE_VALUE_TOO_LONG";
  constructor(
    readonly field: string,
    readonly length: number,
    readonly maxLength: number,
  ) {
    super(
      ValueTooLongError.code,
      `${field} is ${length} characters long; the limit is ${maxLength} (scalarParams.tableLenConfig.${field}).`,
    );
  }
}

export class MissingDependencyError extends SemcacheError {
  static readonly code = "SEMCACHE_MISSING_DEPENDENCY";
  constructor(
    readonly packageName: string,
    readonly feature: string,
    options?: SemcacheErrorOptions,
  ) {
    super(
      MissingDependencyError.code,
      `${feature} needs the optional package "${packageName}": npm install ${packageName}`,
      options,
    );
  }
}

export class StoreError extends SemcacheError {
  static readonly code = "SEMCACHE_STORE";
  constructor(
    readonly store: string,
    message: string,
    options?: SemcacheErrorOptions,
  ) {
    super(StoreError.code, `${store}: ${message}`, options);
  }
}

export class EmbeddingError extends SemcacheError {
  static readonly code = "SEMCACHE_EMBEDDING";
  constructor(message: string, options?: SemcacheErrorOptions) {
    super(EmbeddingError.code, message, options);
  }
}

export class EvaluationError extends SemcacheError {
  static readonly code = "SEMCACHE_EVALUATION";
  constructor(message: string, options?: SemcacheErrorOptions) {
    super(EvaluationError.code, message, options);
  }
}

export class HttpError extends SemcacheError {
  static readonly code = "SEMCACHE_HTTP";
  constructor(
    message: string,
    /** The HTTP status answered, when there was an answer. */
    readonly status?: number,
    /** The `error.code` of the answer's body, when it had one. */
    readonly remoteCode?: string,
    options?: SemcacheErrorOptions,
  ) {
    super(HttpError.code, message, options);
  }
}

/** The package a module specifier belongs to ("@scope/name/sub" -> "@scope/name"). */
function packageOf(specifier: string): string {
  const parts = specifier.split("/");
  return specifier.startsWith("@") ? parts.slice(0, 2).join("/") : parts[0];
}

/**
 * Loads an optional dependency, turning "not installed" into a MissingDependencyError that names the package
 * really missing: the one asked for, or a package it imports in turn (an integration's native library).
 */
export async function importOptional<T>(specifier: string, feature: string): Promise<T> {
  try {
    return (await import(specifier)) as T;
  } catch (error) {
    const code = (error as { code?: string }).code;
    if (code !== "ERR_MODULE_NOT_FOUND" && code !== "MODULE_NOT_FOUND") throw error;
    const missing = /Cannot find (?:package|module) '([^']+)'/.exec(String((error as Error).message))?.[1];
    const isPackageName = missing !== undefined && !/^(?:[./]|file:|[A-Za-z]:\\)/.test(missing);
    throw new MissingDependencyError(packageOf(isPackageName ? missing : specifier), feature, { cause: error });
  }
}
