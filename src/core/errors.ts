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
  SEMCACHE_VALUE_TOO_LONG: { statusCode: 413, description: "A question, answer or session id is longer than its limit (a column length, config.maxQuestionLength, or the embedding's maxInputLength)." },
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
    /** The setting that sets the limit (a column length by default). */
    setting = `scalarParams.tableLenConfig.${field}`,
  ) {
    super(ValueTooLongError.code, `${field} is ${length} characters long; the limit is ${maxLength} (${setting}).`);
  }
}

/** Why an optional package cannot be used: not installed, installed at an unsupported version, or its native code not built. */
export type MissingDependencyReason = "missing" | "version" | "binding";

export interface MissingDependencyDetails extends SemcacheErrorOptions {
  reason?: MissingDependencyReason;
  /** The versions this package supports (OPTIONAL_PACKAGES). */
  range?: string;
  /** The version found, when the reason is "version". */
  installedVersion?: string;
}

function installLine(packageName: string, range: string | undefined): string {
  return range === undefined ? `npm install ${packageName}` : `npm install "${packageName}@${range}"`;
}

function missingDependencyMessage(packageName: string, feature: string, details: MissingDependencyDetails): string {
  switch (details.reason) {
    case "version":
      return (
        `${feature} needs "${packageName}" ${details.range}, but ${details.installedVersion} is installed: ` +
        installLine(packageName, details.range)
      );
    case "binding":
      return (
        `${feature} needs the native module of "${packageName}", which was not built at install time. ` +
        `npm 11: add "${packageName}": true to "allowScripts" in your package.json; pnpm: run \`pnpm approve-builds\`. ` +
        `Then rebuild it: npm rebuild ${packageName}`
      );
    default:
      return `${feature} needs the optional package "${packageName}": ${installLine(packageName, details.range)}`;
  }
}

export class MissingDependencyError extends SemcacheError {
  static readonly code = "SEMCACHE_MISSING_DEPENDENCY";
  readonly reason: MissingDependencyReason;
  readonly range?: string;
  readonly installedVersion?: string;

  constructor(
    readonly packageName: string,
    readonly feature: string,
    details: MissingDependencyDetails = {},
  ) {
    super(MissingDependencyError.code, missingDependencyMessage(packageName, feature, details), details);
    this.reason = details.reason ?? "missing";
    this.range = details.range;
    this.installedVersion = details.installedVersion;
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
