import { createHash } from "node:crypto";

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
  return canonical === "" ? "" : createHash("sha1").update(canonical).digest("base64url").slice(0, 16);
}

/** The text form of a key: the string itself, or a content hash for bytes. */
export function keyText(key: string | Uint8Array): string {
  return typeof key === "string" ? key : `sha256:${createHash("sha256").update(key).digest("hex")}`;
}

/** The exact-match lookup key: partition and key text hashed together (fixed length, index friendly). */
export function keyHash(partition: string, text: string): string {
  return createHash("sha1").update(partition).update("\u0000").update(text).digest("base64url");
}

/** JSON with object keys sorted, so equal settings give equal partitions whatever their key order. */
export function stableStringify(value: unknown): string {
  if (value === null || typeof value !== "object") return JSON.stringify(value) ?? "null";
  if (Array.isArray(value)) return `[${value.map(stableStringify).join(",")}]`;
  const entries = Object.entries(value as Record<string, unknown>)
    .filter(([, v]) => v !== undefined)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${stableStringify(v)}`).join(",")}}`;
}
