import { UnknownKindError, ValidationError } from "./errors.js";
import type { CacheRecord } from "./types.js";
import { isNonNegativeInteger, isPositiveInteger } from "./validation.js";
import type { EvictionColumn, EvictionPolicy } from "./contracts/eviction.js";

function policy(name: string, order: EvictionPolicy["order"]): EvictionPolicy {
  return Object.freeze({ name, order: Object.freeze(order.map((step) => Object.freeze({ ...step }))) });
}

/** Least recently used goes first (oldest last access). */
export const LRU: EvictionPolicy = policy("LRU", [
  { column: "lastAccessedAtMs", direction: "asc" },
  { column: "id", direction: "asc" },
]);

/** Least frequently used goes first; among equals, the least recently used. */
export const LFU: EvictionPolicy = policy("LFU", [
  { column: "hitCount", direction: "asc" },
  { column: "lastAccessedAtMs", direction: "asc" },
  { column: "id", direction: "asc" },
]);

/** Oldest entry goes first, however often it is hit. */
export const FIFO: EvictionPolicy = policy("FIFO", [
  { column: "createdAtMs", direction: "asc" },
  { column: "id", direction: "asc" },
]);

const BUILT_IN: Readonly<Record<string, EvictionPolicy>> = { LRU, LFU, FIFO };
const COLUMNS: readonly EvictionColumn[] = ["lastAccessedAtMs", "hitCount", "createdAtMs", "id"];

/**
 * Resolves "LRU" / "LFU" / "FIFO" (any case) to the built-in policy, or checks and passes a custom policy
 * through. Custom orders are checked here because SQL stores turn them into ORDER BY clauses.
 */
export function evictionPolicy(nameOrPolicy: string | EvictionPolicy): EvictionPolicy {
  if (typeof nameOrPolicy === "string") {
    const found = BUILT_IN[nameOrPolicy.toUpperCase()];
    if (!found) throw new UnknownKindError("eviction", nameOrPolicy, Object.keys(BUILT_IN));
    return found;
  }
  const candidate = nameOrPolicy as Partial<EvictionPolicy> | null;
  if (typeof candidate !== "object" || candidate === null || typeof candidate.name !== "string") {
    throw new ValidationError("eviction: a policy is a name (LRU, LFU, FIFO) or an object with a name and an order");
  }
  if (!Array.isArray(candidate.order) || candidate.order.length === 0) {
    throw new ValidationError(`eviction policy "${candidate.name}": order must be a non-empty list`);
  }
  for (const step of candidate.order) {
    if (!COLUMNS.includes(step?.column) || (step.direction !== "asc" && step.direction !== "desc")) {
      throw new ValidationError(
        `eviction policy "${candidate.name}": each order step needs a column (${COLUMNS.join(", ")}) and a direction (asc, desc)`,
      );
    }
  }
  return nameOrPolicy;
}

/**
 * The order a store actually applies: the policy's, ending with `id asc` when the policy leaves ties open,
 * so every replica evicts the same records.
 */
export function effectiveOrder(policy: EvictionPolicy): EvictionPolicy["order"] {
  return policy.order.some((step) => step.column === "id") ? policy.order : [...policy.order, { column: "id", direction: "asc" }];
}

/** A sort comparator for in-memory stores: records that go first sort first. */
export function evictionComparator(
  policy: EvictionPolicy,
): (a: Pick<CacheRecord, EvictionColumn>, b: Pick<CacheRecord, EvictionColumn>) => number {
  const order = effectiveOrder(policy);
  return (a, b) => {
    for (const { column, direction } of order) {
      const diff = a[column] - b[column];
      if (diff !== 0) return direction === "asc" ? diff : -diff;
    }
    return 0;
  };
}

/** Checks `evict` arguments once for every store. */
export function checkEvictSizes(maxSize: number, cleanSize: number): void {
  if (!isNonNegativeInteger(maxSize)) throw new ValidationError("eviction: maxSize must be a non-negative integer");
  if (!isPositiveInteger(cleanSize)) throw new ValidationError("eviction: cleanSize must be a positive integer");
}
