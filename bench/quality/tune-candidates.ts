/** The candidates a cache would judge for QQP tune pairs, as scripts/fit-guard.ts and scripts/tune-preset.ts simulate them. */
import { answerableCount, isRight, type QqpPair } from "./data.js";
import type { EmbeddingCache } from "./embedding-cache.js";
import { topK } from "./neighbours.js";
import type { GuardExample } from "../../src/similarity/guard-fit.js";

/** Candidates per query, as the preset's topK. */
export const TOP_K = 5;

/** Per query (text_b), its nearest stored text_a among its block of `block` pairs, labelled, with both embeddings. */
export function candidates(pairs: readonly QqpPair[], vectors: EmbeddingCache, block: number): GuardExample[][] {
  const groups: GuardExample[][] = [];
  for (let start = 0; start < pairs.length; start += block) {
    const segment = pairs.slice(start, start + block);
    const stored = segment.map((p) => vectors.require(p.text_a));
    const queries = segment.map((p) => vectors.require(p.text_b));
    for (const [q, neighbours] of topK(stored, queries, TOP_K).entries()) {
      groups.push(
        neighbours.map(({ row, cosine }) => ({
          query: segment[q].text_b,
          stored: segment[row].text_a,
          cosine,
          label: isRight(segment[q], segment[row].text_a) ? 1 : 0,
          queryEmbedding: queries[q],
          storedEmbedding: stored[row],
        })),
      );
    }
  }
  return groups;
}

/** Queries with a right answer in their own block. */
export function answerableInBlocks(pairs: readonly QqpPair[], block: number): number {
  let count = 0;
  for (let start = 0; start < pairs.length; start += block) count += answerableCount(pairs.slice(start, start + block));
  return count;
}
