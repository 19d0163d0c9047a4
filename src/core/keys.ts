import * as crypto from "node:crypto";
import { ValidationError } from "./errors.js";

/**
 * A digest in one call. Every request hashes its key: the one-shot `crypto.hash` (Node 20.12+) skips the Hash
 * object `createHash` builds, a third of the cost; older Node 20 releases use `createHash`.
 */
export const digest: (algorithm: string, data: string | Uint8Array, encoding: "base64url" | "hex") => string =
  typeof crypto.hash === "function"
    ? (algorithm, data, encoding) => crypto.hash(algorithm, data, encoding)
    : (algorithm, data, encoding) => crypto.createHash(algorithm).update(data).digest(encoding);

/**
 * The partition of a request: the values of the partition keys it sets (model, sampling settings), hashed.
 * Requests that differ in any of them never share an answer. "" when the request sets none.
 */
export function partitionOf(request: Readonly<Record<string, unknown>>, keys: readonly string[]): string {
  let canonical = "";
  for (const key of keys) {
    const value = request[key];
    if (value === undefined || value === null) continue;
    canonical += `${key}=${stableStringify(value)};`;
  }
  return canonical === "" ? "" : digest("sha1", canonical, "base64url").slice(0, 16);
}

/** What `partitionOf` makes, as a JSON-schema pattern: 16 base64url characters. */
export const PARTITION_PATTERN = "^[A-Za-z0-9_-]{16}$";
const PARTITION = new RegExp(PARTITION_PATTERN);

/** A partition hash as `partitionOf` makes it (and `semcache export` writes it); "" is the default partition. */
export function isPartition(value: unknown): value is string {
  return value === "" || (typeof value === "string" && PARTITION.test(value));
}

/** The text form of a key: the string itself, or a content hash for bytes. */
export function keyText(key: string | Uint8Array): string {
  return typeof key === "string" ? key : `sha256:${digest("sha256", key, "hex")}`;
}

/**
 * Digests of recent short keys: a cache sees the same prompts again and again, and a map lookup is far
 * cheaper than a digest (which took 3% of a loaded server's time). Emptied when full (a plain Map: keeping
 * recency would cost two more map operations a lookup). Longer keys are hashed each time, so the memo stays
 * under ~2 MB.
 */
const recentKeyHashes = new Map<string, string>();
const MEMO_KEYS = 4096;
const MEMO_KEY_CHARS = 256;

/**
 * The exact-match lookup key: partition and key text hashed together (fixed length, index friendly). Hashing
 * the joined string gives the same digest as feeding the parts in turn, so stored keys stay valid.
 */
export function keyHash(partition: string, text: string): string {
  const joined = `${partition}\u0000${text}`;
  if (joined.length > MEMO_KEY_CHARS) return digest("sha1", checkWellFormed(joined), "base64url");
  let hash = recentKeyHashes.get(joined);
  if (hash === undefined) {
    hash = digest("sha1", checkWellFormed(joined), "base64url");
    if (recentKeyHashes.size >= MEMO_KEYS) recentKeyHashes.clear();
    recentKeyHashes.set(joined, hash);
  }
  return hash;
}

/** A code unit of a surrogate pair standing alone (with the `u` flag a whole pair is one code point, never matched). */
const LONE_SURROGATE = /[\ud800-\udfff]/u;

/**
 * Refuses text with a lone surrogate: UTF-8 has no encoding for one, so the digest would see U+FFFD in its
 * place, and "a\ud800", "a\udc00" and "a\ufffd" would share one key.
 */
function checkWellFormed(text: string): string {
  if (LONE_SURROGATE.test(text)) throw new ValidationError("The key holds a lone surrogate (a UTF-16 code unit with no pair), which is not Unicode text.");
  return text;
}

/** Deepest nesting `stableStringify` accepts: far beyond any real setting, well short of the call stack's limit. */
export const MAX_STABLE_DEPTH = 128;

/** JSON with object keys sorted, so equal settings give equal partitions whatever their key order. */
export function stableStringify(value: unknown): string {
  return stable(value, 0);
}

function stable(value: unknown, depth: number): string {
  if (value === null || typeof value !== "object") return JSON.stringify(value) ?? "null";
  // Recursion would overflow the stack on a value nested thousands deep (a crafted request body).
  if (depth >= MAX_STABLE_DEPTH) throw new ValidationError(`A value nests deeper than ${MAX_STABLE_DEPTH} levels.`);
  if (Array.isArray(value)) return `[${value.map((item) => stable(item, depth + 1)).join(",")}]`;
  const entries = Object.entries(value as Record<string, unknown>)
    .filter(([, v]) => v !== undefined)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${stable(v, depth + 1)}`).join(",")}}`;
}
