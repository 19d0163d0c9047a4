import { ValidationError } from "../../core/errors.js";

/** Table names after the user's prefix is applied. */
export interface TableNames {
  question: string;
  session: string;
  dep: string;
  report: string;
  meta: string;
}

/** Prefixes become part of SQL text, so only identifier characters are allowed. */
export function tableNames(prefix: string): TableNames {
  if (typeof prefix !== "string" || !/^[A-Za-z_][A-Za-z0-9_]*$/.test(prefix)) {
    throw new ValidationError(`tablePrefix must be letters, digits and underscores (not starting with a digit), got "${prefix}"`);
  }
  return { question: `${prefix}question`, session: `${prefix}session`, dep: `${prefix}dep`, report: `${prefix}report`, meta: `${prefix}meta` };
}
