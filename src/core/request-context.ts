import type { EmbeddingInput } from "./contracts/embedding.js";
import type { PreEmbeddingFunc } from "./contracts/processors.js";
import type { EvaluationCandidate, EvaluationSource } from "./contracts/evaluation.js";
import type { VectorHit } from "./contracts/vector-index.js";
import { ValidationError } from "./errors.js";
import type { CacheRecord } from "./types.js";

/**
 * Per-request arguments for each stage (GPTCache's cache_context). A value is handed to that stage as its
 * extra argument; a function instead replaces the stage for this request. snake_case keys are accepted.
 */
export interface CacheContext {
  preEmbeddingFunc?: PreEmbeddingFunc | unknown;
  embeddingFunc?: ((data: EmbeddingInput, extra?: unknown) => unknown) | unknown;
  searchFunc?: ((vector: Float32Array, topK: number, extra?: unknown) => VectorHit[] | Promise<VectorHit[]>) | unknown;
  getScalarData?: ((id: number, extra?: unknown) => CacheRecord | null | Promise<CacheRecord | null>) | unknown;
  evaluationFunc?:
    | ((src: EvaluationSource, cached: EvaluationCandidate, extra?: unknown) => number | Promise<number>)
    | unknown;
  /** snake_case forms, as request bodies carry them. */
  pre_embedding_func?: unknown;
  embedding_func?: unknown;
  search_func?: unknown;
  get_scalar_data?: unknown;
  evaluation_func?: unknown;
}

interface StageOverride<F> {
  fn?: F;
  extra?: unknown;
}

const STAGE_KEYS = {
  preEmbeddingFunc: "pre_embedding_func",
  embeddingFunc: "embedding_func",
  searchFunc: "search_func",
  getScalarData: "get_scalar_data",
  evaluationFunc: "evaluation_func",
} as const;

/* eslint-disable @typescript-eslint/no-explicit-any -- user-supplied overrides are checked at call time */
export interface ResolvedContext {
  preEmbeddingFunc: StageOverride<PreEmbeddingFunc>;
  embeddingFunc: StageOverride<(data: EmbeddingInput, extra?: unknown) => any>;
  searchFunc: StageOverride<(vector: Float32Array, topK: number, extra?: unknown) => VectorHit[] | Promise<VectorHit[]>>;
  getScalarData: StageOverride<(id: number, extra?: unknown) => CacheRecord | null | Promise<CacheRecord | null>>;
  evaluationFunc: StageOverride<(src: EvaluationSource, cached: EvaluationCandidate, extra?: unknown) => any>;
}
/* eslint-enable @typescript-eslint/no-explicit-any */

const EMPTY: ResolvedContext = Object.freeze({
  preEmbeddingFunc: {},
  embeddingFunc: {},
  searchFunc: {},
  getScalarData: {},
  evaluationFunc: {},
});

export function resolveContext(context: CacheContext | undefined): ResolvedContext {
  if (context === undefined) return EMPTY;
  if (typeof context !== "object" || context === null) throw new ValidationError("cacheContext must be an object.");
  const known = new Set<string>([...Object.keys(STAGE_KEYS), ...Object.values(STAGE_KEYS)]);
  for (const key of Object.keys(context)) {
    if (!known.has(key)) throw new ValidationError(`cacheContext has an unknown stage "${key}".`);
  }
  const entries = Object.entries(STAGE_KEYS).map(([camel, snake]) => {
    const value = (context as Record<string, unknown>)[camel] ?? (context as Record<string, unknown>)[snake];
    return [camel, typeof value === "function" ? { fn: value } : { extra: value }];
  });
  return Object.fromEntries(entries) as ResolvedContext;
}
