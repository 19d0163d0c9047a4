/**
 * A request's stages, resolved once from the cache's components and the request's cacheContext: a function there
 * replaces the component for this request, a value is handed to it as its extra argument. Every step of the flow
 * (and an evaluation's own search) goes through this one object, so an override applies everywhere alike.
 */
import type { CacheKernel } from "../cache.js";
import type { EmbeddingFunction, EmbeddingInput, EmbeddingOutput } from "../contracts/embedding.js";
import type { EvaluationCandidate, EvaluationContext, EvaluationSource, LookupObserver } from "../contracts/evaluation.js";
import type { PreEmbeddingResult } from "../contracts/processors.js";
import type { VectorHit } from "../contracts/vector-index.js";
import type { ResolvedContext } from "../request-context.js";
import { normalizeScore } from "../score.js";
import { cosineDistance } from "../vector-math.js";
import type { CacheRecord, CacheRequest } from "../types.js";

/** What a judgement knows besides the two sides it compares. */
export interface JudgeContext {
  /** The other candidates this lookup judges. */
  neighbours: readonly EvaluationCandidate[];
  /** Present when a miss will call the model and store its answer. */
  lookup?: LookupObserver;
}

export interface Stages {
  /** Request -> key (the pre-embedding function). */
  preEmbed(request: CacheRequest): Promise<PreEmbeddingResult>;
  /** Key -> vector, or the key string for exact-match embeddings. */
  embed(key: EmbeddingInput): Promise<EmbeddingOutput>;
  /** Vector -> nearest entries; undefined when there is nothing to search (no vector index, no override). */
  search?: (vector: Float32Array, topK: number) => Promise<VectorHit[]>;
  /** Entry id -> its live record, or null. */
  fetch(id: number): Promise<CacheRecord | null>;
  /** The distance a candidate is judged on: the search's, or the exact one when the index rounds distances. */
  distance(query: Float32Array, hit: VectorHit, record: CacheRecord): number;
  /** A candidate's score, normalised to [0, 1] by the cache's evaluation's range. */
  evaluate(source: EvaluationSource, candidate: EvaluationCandidate, context: JudgeContext): Promise<number>;
  /**
   * A normalised score `evaluate` never exceeds, cheaper to reach (the evaluation's `scoreBound`); undefined when the
   * evaluation has none or a per-request evaluation function replaces it.
   */
  bound?: (source: EvaluationSource, candidate: EvaluationCandidate, context: JudgeContext) => Promise<number>;
  /**
   * The cache's embedding function when this request embeds with it: an evaluation may then reuse the stored
   * vectors, and its input limit applies to the key. Undefined under a per-request embedding function.
   */
  embeddingFunc?: EmbeddingFunction;
}

export function resolveStages(cache: CacheKernel, overrides: ResolvedContext): Stages {
  const { preEmbeddingFunc, embeddingFunc, searchFunc, getScalarData, evaluationFunc } = overrides;
  const manager = cache.dataManager;
  const evaluation = cache.similarityEvaluation;
  const embedWith = embeddingFunc.fn ?? ((data: EmbeddingInput, extra?: unknown) => cache.embed(data, extra));
  const customSearch = searchFunc.fn;
  const search = customSearch
    ? async (vector: Float32Array, topK: number) => customSearch(vector, topK, searchFunc.extra)
    : manager.vector
      ? (vector: Float32Array, topK: number) => manager.search(vector, topK)
      : undefined;
  // Only the cache's own index: a searchFunc's distances are the user's to define.
  const exact = !customSearch && manager.vector?.capabilities.roundedDistances === true;
  // An evaluation that searches itself (k-reciprocal) compares those distances with a candidate's: exact, both.
  const evaluationSearch = search === undefined ? async () => [] : exact ? exactSearch(search, (id) => stages.fetch(id)) : search;
  const contextOf = ({ neighbours, lookup }: JudgeContext): EvaluationContext => ({
    extra: evaluationFunc.extra,
    // The same search the candidates came from: a per-request searchFunc answers the evaluation too.
    search: evaluationSearch,
    embeddingFunc: stages.embeddingFunc,
    now: manager.clock.now(),
    neighbours,
    lookup,
  });
  const stages: Stages = {
    preEmbed: async (request) => (preEmbeddingFunc.fn ?? cache.preEmbeddingFunc)(request, { config: cache.config, extra: preEmbeddingFunc.extra }),
    embed: async (key) => {
      const output = await embedWith(key, embeddingFunc.extra);
      return Array.isArray(output) ? Float32Array.from(output) : output;
    },
    search,
    fetch: async (id) => (getScalarData.fn ? getScalarData.fn(id, getScalarData.extra) : manager.getScalarData(id)),
    distance: exact ? exactDistance : (_query, hit) => hit.distance,
    evaluate: async (source, candidate, judgement) => {
      const raw = evaluationFunc.fn ? await evaluationFunc.fn(source, candidate, evaluationFunc.extra) : await evaluation.evaluation(source, candidate, contextOf(judgement));
      return normalizeScore(evaluation, raw);
    },
    bound:
      evaluationFunc.fn || !evaluation.scoreBound
        ? undefined
        : async (source, candidate, judgement) => normalizeScore(evaluation, await evaluation.scoreBound!(source, candidate, contextOf(judgement))),
    embeddingFunc: embeddingFunc.fn ? undefined : cache.embeddingFunc,
  };
  return stages;
}

/** A search whose hits carry exact distances, from their records' stored vectors, nearest first. */
function exactSearch(
  search: (vector: Float32Array, topK: number) => Promise<VectorHit[]>,
  fetch: (id: number) => Promise<CacheRecord | null>,
): (vector: Float32Array, topK: number) => Promise<VectorHit[]> {
  return async (vector, topK) => {
    const hits = await search(vector, topK);
    const records = await Promise.all(hits.map((hit) => fetch(hit.id)));
    return hits
      .map((hit, i) => ({ id: hit.id, distance: records[i] ? exactDistance(vector, hit, records[i]) : hit.distance }))
      .sort((a, b) => a.distance - b.distance);
  };
}

/** The cosine distance between the query and the record's stored vector; the search's when the record has none. */
function exactDistance(query: Float32Array, hit: VectorHit, record: CacheRecord): number {
  const stored = record.embedding;
  return stored !== undefined && stored.length === query.length ? cosineDistance(query, stored) : hit.distance;
}
