/**
 * The version of the component contracts (stores, vector indexes, evaluations, embeddings). A component may say
 * which version it was written against; one that names a version this package does not know is refused with a
 * clear error instead of being called with methods it may not have. Components that say nothing are taken as v1.
 */
export type SpecificationVersion = "v1";

/** The contract version this package implements. */
export const SPECIFICATION_VERSION: SpecificationVersion = "v1";
