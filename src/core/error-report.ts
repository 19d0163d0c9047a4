/**
 * Errors sent between threads: structured cloning keeps neither an error's class nor its fields, so a thread
 * sends a report and its owner throws the same typed error again.
 */
import {
  DimensionMismatchError, EmbeddingError, EvaluationError, HttpError, MissingDependencyError, NotInitError, StoreError, UnknownKindError,
  ValidationError, ValueTooLongError, type SemcacheError,
} from "./errors.js";

/** errors.ts's marker (a registered symbol: the same in every copy of the package), set on a rebuilt error. */
const MARKER = Symbol.for("langchain-semcache.error");
/** Causes reported at most: a cause chain can loop. */
const MAX_CAUSES = 4;

/** An error as it crosses to another thread. */
export interface ErrorReport {
  name: string;
  message: string;
  stack?: string;
  /** Its own data fields (code, store, expected...): primitives only. */
  fields: Record<string, string | number | boolean>;
  cause?: ErrorReport;
}

/**
 * The classes a report is read back into, by code (a bundler may rename a class, never its code); any other error
 * comes back as a plain Error with its name.
 */
const REPORTED_CLASSES = new Map<string, abstract new (...args: never[]) => SemcacheError>(
  [NotInitError, ValidationError, UnknownKindError, DimensionMismatchError, ValueTooLongError, MissingDependencyError, StoreError, EmbeddingError, EvaluationError, HttpError].map(
    (known) => [known.code, known],
  ),
);

/** What another thread needs to throw `error` again as the same class, with the same message and fields. */
export function reportError(error: unknown, causes = MAX_CAUSES): ErrorReport {
  if (!(error instanceof Error)) return { name: "Error", message: String(error), fields: {} };
  const fields: ErrorReport["fields"] = {};
  for (const [key, value] of Object.entries(error)) {
    if (["string", "number", "boolean"].includes(typeof value)) fields[key] = value as string | number | boolean;
  }
  const report: ErrorReport = { name: error.name, message: error.message, stack: error.stack, fields };
  if (error.cause !== undefined && causes > 0) report.cause = reportError(error.cause, causes - 1);
  return report;
}

/** The error a report describes: an instance of its class (made without running its constructor), or a plain Error. */
export function errorFromReport(report: ErrorReport): Error {
  const known = typeof report.fields.code === "string" ? REPORTED_CLASSES.get(report.fields.code) : undefined;
  const options = report.cause === undefined ? undefined : { cause: errorFromReport(report.cause) };
  const error = Reflect.construct(Error, [report.message, options], known ?? Error) as Error;
  Object.assign(error, report.fields);
  if (known !== undefined) Object.assign(error, { [MARKER]: true, name: known.name });
  else error.name = report.name;
  if (report.stack !== undefined) error.stack = report.stack;
  return error;
}
