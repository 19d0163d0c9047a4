/** Small helpers the parts of the scalar store suite share (not exported from the package). */
import type { ReportRow } from "../../core/types.js";

export function vector(seed: number): Float32Array {
  return Float32Array.from({ length: 8 }, (_, i) => Math.sin(seed * 31 + i) / (i + 1));
}

export function bytes(v: Float32Array | undefined): Buffer | undefined {
  return v && Buffer.from(v.buffer, v.byteOffset, v.byteLength);
}

export async function collect<T>(items: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const item of items) out.push(item);
  return out;
}

export const sortIds = (ids: readonly number[]) => [...ids].sort((a, b) => a - b);

export const bySessionThenId = (a: { id: number; session: string }, b: { id: number; session: string }) =>
  a.session < b.session ? -1 : a.session > b.session ? 1 : a.id - b.id;

export function report(overrides: Partial<ReportRow> = {}): ReportRow {
  return {
    userQuestion: "what?",
    cacheQuestionId: 1,
    cacheQuestion: "what",
    cacheAnswer: "that",
    similarity: 0.93,
    lookupMs: 1.5,
    hitAtMs: 1_700_000_000_000,
    ...overrides,
  };
}
