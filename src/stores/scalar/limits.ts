import { ValidationError, ValueTooLongError } from "../../core/errors.js";
import { codePointLength } from "../../core/question-length.js";
import { positiveInteger } from "../../core/validation.js";
import type { NewRecord } from "../../core/types.js";
import { DEFAULT_TABLE_LEN, type TableLenConfig } from "../../core/contracts/scalar-store.js";

const FIELDS = Object.keys(DEFAULT_TABLE_LEN) as ReadonlyArray<keyof TableLenConfig>;

/** User column lengths merged over DEFAULT_TABLE_LEN; every value a positive integer, no unknown keys. */
export function resolveTableLen(partial: Partial<TableLenConfig> = {}): Readonly<TableLenConfig> {
  if (typeof partial !== "object" || partial === null || Array.isArray(partial)) {
    throw new ValidationError("tableLenConfig must be an object");
  }
  const resolved: TableLenConfig = { ...DEFAULT_TABLE_LEN };
  for (const [key, value] of Object.entries(partial)) {
    if (!(FIELDS as readonly string[]).includes(key)) {
      throw new ValidationError(`tableLenConfig: unknown key "${key}"; known keys: ${FIELDS.join(", ")}`);
    }
    if (value === undefined) continue;
    resolved[key as keyof TableLenConfig] = positiveInteger(`tableLenConfig.${key}`, value);
  }
  return Object.freeze(resolved);
}

/** Throws ValueTooLongError when `value` has more characters than its column allows. */
export function checkLength(field: keyof TableLenConfig, value: string, limits: Readonly<TableLenConfig>): void {
  if (typeof value !== "string") throw new ValidationError(`${field} must be a string`);
  const max = limits[field];
  // UTF-16 length is an upper bound on code points, so the exact count is only needed near the limit.
  if (value.length <= max) return;
  const length = codePointLength(value);
  if (length > max) throw new ValueTooLongError(field, length, max);
}

/** Checks every value of a batch before anything is written, so a too-long value rejects the whole batch. */
export function checkRecords(records: readonly NewRecord[], limits: Readonly<TableLenConfig>): void {
  for (const record of records) {
    checkLength("question", record.question, limits);
    checkLength("answer", record.answer, limits);
    if (record.session !== undefined) checkLength("sessionId", record.session, limits);
    for (const dep of record.deps ?? []) {
      checkLength("depName", dep.name, limits);
      checkLength("depData", dep.data, limits);
    }
  }
}
