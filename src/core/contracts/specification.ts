/**
 * The version of the component contracts (stores, vector indexes, evaluations, embeddings). A component may say
 * which version it was written against; one that names a version this package does not know is refused with a
 * clear error instead of being called with methods it may not have. Components that say nothing are taken as v1.
 */
import { ValidationError } from "../errors.js";

export type SpecificationVersion = "v1";

/** The contract version this package implements. */
export const SPECIFICATION_VERSION: SpecificationVersion = "v1";

/** Refuses a component (a store, an index, an evaluation, an embedding) written against a contract version this package does not know. */
export function checkSpecificationVersion(component: { readonly kind?: string; readonly specificationVersion?: string }, what: string): void {
  const version = component.specificationVersion;
  if (version === undefined || version === SPECIFICATION_VERSION) return;
  const name = component.kind ?? component.constructor?.name ?? "custom";
  throw new ValidationError(
    `The "${name}" ${what} implements contract ${String(version)}; this version of langchain-semcache implements ${SPECIFICATION_VERSION}.`,
  );
}
