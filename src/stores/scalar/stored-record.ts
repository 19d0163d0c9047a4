import type { CacheRecord, NewRecord } from "../../core/types.js";

/**
 * The record an in-memory store keeps for a new one: its id, never accessed since it was created, no hits, and
 * its own copies of deps and embedding (the caller may reuse its objects).
 */
export function storedRecord(id: number, r: NewRecord): CacheRecord {
  return {
    id,
    question: r.question,
    answer: r.answer,
    answerType: r.answerType,
    keyHash: r.keyHash,
    partition: r.partition,
    deps: r.deps && r.deps.length > 0 ? r.deps.map((dep) => ({ ...dep })) : undefined,
    embedding: r.embedding ? new Float32Array(r.embedding) : undefined,
    createdAtMs: r.createdAtMs,
    lastAccessedAtMs: r.createdAtMs,
    hitCount: 0,
  };
}
