/** A column of the scalar store that eviction may order by. */
export type EvictionColumn = "lastAccessedAtMs" | "hitCount" | "createdAtMs" | "id";

/**
 * An eviction policy is the order in which a store gives up records when it is over its size: the first
 * records in this order go first. Stores evaluate it on their own columns (SQL ORDER BY, a sort in memory),
 * so every replica of a shared store agrees on what to evict.
 */
export interface EvictionPolicy {
  readonly name: string;
  readonly order: ReadonlyArray<{ column: EvictionColumn; direction: "asc" | "desc" }>;
}
