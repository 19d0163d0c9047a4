/**
 * langchain-semcache: a semantic cache for LLM calls. The root entry holds what a cache is composed of: the
 * Cache, its presets, components (embeddings, evaluations, processors, data managers), errors and types. The
 * surfaces live in subpaths: `/langchain`, `/openai`, `/server`, `/stores`, `/testing`.
 */
export { cacheAll, type ShouldUseCache, type CacheInitOptions, type ImportOptions } from "./core/cache.js";
export { Cache, cache } from "./presets/cache.js";
export { CacheKernel, type CacheDefaults } from "./core/cache.js";
export { Config, DEFAULT_PARTITION_KEYS, type ConfigOptions } from "./core/config.js";
export * from "./core/errors.js";
export { put, get, importData, flush, type ApiOptions } from "./core/api.js";
export type { CacheHit, CacheOutcome, CacheStatus, RequestOptions, StoredAnswer } from "./core/pipeline.js";
export type { CacheContext } from "./core/request-context.js";
export { Session, type SessionCheck, type SessionOptions } from "./core/session.js";
export { Report, STAGES, type Stage, type StageTiming, type ReportSection } from "./core/report.js";
export type * from "./core/types.js";
export { cached, type CachedOptions } from "./adapters/function.js";
// The HTTP client (no server code loads with it); the server itself is `langchain-semcache/server`.
export { CacheClient, type CacheClientOptions } from "./server/client.js";
export type { DashboardData, WindowName } from "./server/dashboard/dashboard-view.js";

// Presets
export { initSimilarCache, DEFAULT_SIMILAR_THRESHOLD, type SimilarCacheOptions } from "./presets/similar-cache.js";
export { loadGptCacheConfig, similarCacheOptionsFromConfig, initSimilarCacheFromConfig, type GptCacheConfig } from "./config/gptcache-config.js";
export { presetEvaluation, DEFAULT_PRESET_THRESHOLD, type PresetEvaluationOptions } from "./similarity/preset.js";

// Processors
export * from "./processors/pre.js";
export * from "./processors/post.js";
export { concatAllQueries } from "./processors/context/concat.js";
export * from "./processors/context/summarize.js";
export * from "./processors/context/selective.js";
export type * from "./core/contracts/processors.js";

// Embeddings
export { StringEmbedding } from "./embeddings/string.js";
export * from "./core/embedding-source.js";
export type * from "./core/contracts/embedding.js";
export { OnnxEmbeddings, type OnnxEmbeddingsParams, type OnnxModelFiles, type OnnxPooling } from "./embeddings/onnx.js";
export { TimmImageEmbeddings, type TimmImageEmbeddingsParams } from "./embeddings/timm.js";
export type { TimmDataConfig, TimmInterpolation } from "./embeddings/timm-transform.js";
export { TransformersEmbeddings, type TransformersEmbeddingsParams, type TransformersModelOptions, type TransformersPooling } from "./embeddings/transformers.js";
export {
  TransformersImageEmbeddings,
  type TransformersImageEmbeddingsParams,
  type ImageInput,
  type ImagePreprocess,
  type RawImageLike,
} from "./embeddings/transformers-image.js";
export { UniversalSentenceEncoderEmbeddings, type UniversalSentenceEncoderParams, type UseStats } from "./embeddings/use.js";
export { WinkEmbeddings, loadWordVectors, type WinkEmbeddingsParams, type WordVectors } from "./embeddings/wink.js";

// Similarity evaluations
export { ExactMatchEvaluation } from "./similarity/exact-match.js";
export { DistanceEvaluation, type DistanceEvaluationOptions } from "./similarity/distance.js";
export type { PairEmbeddingOptions } from "./similarity/pair-embeddings.js";
export { TimeEvaluation } from "./similarity/time.js";
export { SequenceMatchEvaluation } from "./similarity/sequence-match.js";
export { KReciprocalEvaluation } from "./similarity/k-reciprocal.js";
export { BaseSimilarityEvaluation, type EvaluationInput, type EvaluationPair, type EvaluationQuestions } from "./similarity/base.js";
export * from "./similarity/embedding-distance.js";
export { LLMJudgeEvaluation, DEFAULT_JUDGE_PROMPT, type JudgeModel, type LLMJudgeOptions } from "./similarity/llm-judge.js";
export { OnnxModelEvaluation, type OnnxModelEvaluationOptions } from "./similarity/onnx.js";
export { CrossEncoderEvaluation, type CrossEncoderOptions } from "./similarity/cross-encoder.js";
export { RerankEvaluation, COHERE_BASE_URL, type RerankEvaluationOptions } from "./similarity/rerank.js";
export {
  PrecisionGuardEvaluation,
  DEFAULT_GUARD_MODEL,
  DEFAULT_GUARD_THRESHOLD,
  type GuardModel,
  type PrecisionGuardOptions,
} from "./similarity/precision-guard.js";
export { UnambiguousEvaluation, DEFAULT_AMBIGUITY_TEMPERATURE, type UnambiguousEvaluationOptions } from "./similarity/unambiguous.js";
export { GreyBandEvaluation, type GreyBandOptions, type GreyBandStats } from "./similarity/grey-band.js";
export { ErrorBudgetEvaluation, type ErrorBudgetEvaluationOptions, type ErrorBudgetStats } from "./similarity/error-budget-evaluation.js";
export {
  ErrorBudget,
  fitSigmoid,
  wilsonInterval,
  type ErrorBudgetOptions,
  type BudgetDecision,
  type RateEstimate,
  type SigmoidFit,
  type Observation,
} from "./similarity/error-budget.js";
export { embeddingAnswerJudge, verifierAnswerJudge, DEFAULT_ANSWER_PROMPT, type AnswerJudge, type AnswerPair } from "./similarity/answer-equivalence.js";
export type * from "./core/contracts/evaluation.js";

// Data managers (the stores themselves: `langchain-semcache/stores`)
export { systemClock, type Clock } from "./core/clock.js";
export { DataManager, type DataManagerOptions } from "./manager/data-manager.js";
export type * from "./core/contracts/data-manager.js";
export { MapDataManager, type MapDataManagerOptions } from "./presets/map-manager.js";
export {
  managerFactory,
  EMBEDDED_DEFAULT_MANAGER,
  SCALAR_KINDS,
  OBJECT_KINDS,
  type ManagerFactoryOptions,
  type ManagerComponents,
  type ScalarParams,
  type VectorParams,
  type ObjectParams,
} from "./presets/manager-factory.js";
export { LRU, LFU, FIFO, evictionPolicy } from "./core/eviction-policies.js";
export type * from "./core/contracts/eviction.js";
