/** langchain-semcache: a semantic cache for LLM calls. */
export { Cache, cache, cacheAll, type CacheEnableFunc, type CacheInitOptions, type ImportOptions } from "./core/cache.js";
export { Config, DEFAULT_PARTITION_KEYS, type ConfigOptions } from "./core/config.js";
export * from "./core/errors.js";
export { put, get, importData, flush, type ApiOptions } from "./core/api.js";
export {
  runCached,
  runCachedStream,
  putAnswer,
  decideSkip,
  assertFlowOptions,
  type CacheHit,
  type CacheOutcome,
  type CacheStatus,
  type FlowOptions,
  type SaveContext,
  type StorageControls,
  type RequestOptions,
  type StoredAnswer,
  type ValueSurface,
  type StreamSurface,
} from "./core/pipeline.js";
export type { CacheContext } from "./core/request-context.js";
export { Session, checkHitSession, type SessionCheck, type SessionOptions } from "./core/session.js";
export { Report, STAGES, type Stage, type StageTiming } from "./core/report.js";
export { partitionOf, keyHash, keyText, stableStringify } from "./core/keys.js";
export { splitIntoChunks } from "./core/replay.js";
export { l2Normalize, cosineSimilarity, dot } from "./core/vector-math.js";
export type * from "./core/types.js";

export { cached, type CachedOptions } from "./adapters/function.js";
// The HTTP client (no server code loads with it); the server itself is `langchain-semcache/server`.
export { CacheClient, type CacheClientOptions } from "./server/client.js";
export * from "./adapters/openai/index.js";

export * from "./processors/pre.js";
export * from "./processors/post.js";
export { concatAllQueries } from "./processors/context/concat.js";
export type * from "./processors/types.js";

export { StringEmbedding } from "./embeddings/string.js";
export * from "./embeddings/resolve.js";
export type * from "./embeddings/types.js";
export { OnnxEmbeddings, OnnxTokenModel, meanPool, type OnnxEmbeddingsParams, type OnnxModelFiles } from "./embeddings/onnx.js";
export { WordPieceTokenizer, type Encoding } from "./embeddings/tokenizer.js";
export { TransformersEmbeddings, type TransformersEmbeddingsParams, type TransformersModelOptions, type TransformersPooling } from "./embeddings/transformers.js";
export { TransformersImageEmbeddings, type TransformersImageEmbeddingsParams, type ImageInput, type ImagePreprocess } from "./embeddings/transformers-image.js";
export { UniversalSentenceEncoderEmbeddings, type UniversalSentenceEncoderParams, type UseStats } from "./embeddings/use.js";
export { WinkEmbeddings, loadWordVectors, type WinkEmbeddingsParams, type WordVectors } from "./embeddings/wink.js";
export { initSimilarCache, DEFAULT_SIMILAR_THRESHOLD, type SimilarCacheOptions } from "./core/similar-cache.js";
export { loadGptCacheConfig, similarCacheOptionsFromConfig, initSimilarCacheFromConfig, type GptCacheConfig } from "./config/gptcache-config.js";

export { ExactMatchEvaluation } from "./similarity/exact-match.js";
export { DistanceEvaluation } from "./similarity/distance.js";
export { TimeEvaluation } from "./similarity/time.js";
export { SequenceMatchEvaluation } from "./similarity/sequence-match.js";
export { KReciprocalEvaluation } from "./similarity/k-reciprocal.js";
export { normalizeScore } from "./similarity/score.js";
export * from "./similarity/base.js";
export * from "./similarity/embedding-distance.js";
export * from "./similarity/llm-judge.js";
export { OnnxModelEvaluation, pairProbabilities, type OnnxModelEvaluationOptions } from "./similarity/onnx.js";
export { CrossEncoderEvaluation, type CrossEncoderOptions } from "./similarity/cross-encoder.js";
export { RerankEvaluation, COHERE_BASE_URL, type RerankEvaluationOptions } from "./similarity/rerank.js";
export { TokenBucket, type TokenBucketOptions, type LimiterClock } from "./similarity/rate-limiter.js";
export {
  PrecisionGuardEvaluation,
  DEFAULT_GUARD_MODEL,
  DEFAULT_GUARD_THRESHOLD,
  type GuardModel,
  type PrecisionGuardOptions,
} from "./similarity/precision-guard.js";
export { UnambiguousEvaluation, DEFAULT_AMBIGUITY_TEMPERATURE, type UnambiguousEvaluationOptions } from "./similarity/unambiguous.js";
export { presetEvaluation, DEFAULT_PRESET_THRESHOLD } from "./similarity/preset.js";
export * from "./processors/context/summarize.js";
export * from "./processors/context/selective.js";
export type * from "./similarity/types.js";

export { DataManager, type DataManagerOptions, type SaveItem } from "./manager/data-manager.js";
export { MapDataManager, type MapDataManagerOptions } from "./manager/map-manager.js";
export {
  managerFactory,
  SCALAR_KINDS,
  OBJECT_KINDS,
  type ManagerFactoryOptions,
  type ManagerComponents,
  type ScalarParams,
  type VectorParams,
  type ObjectParams,
} from "./manager/factory.js";
export * from "./manager/eviction/policies.js";
export type * from "./manager/eviction/types.js";

export { MemoryScalarStore } from "./stores/scalar/memory.js";
export { SqliteScalarStore } from "./stores/scalar/sqlite.js";
export { PostgresScalarStore, type PostgresScalarStoreOptions } from "./stores/scalar/postgres.js";
export { MySqlScalarStore, MariaDbScalarStore, type MySqlScalarStoreOptions } from "./stores/scalar/mysql.js";
export { RedisScalarStore, type RedisScalarStoreOptions } from "./stores/scalar/redis.js";
export { MongoScalarStore, type MongoScalarStoreOptions } from "./stores/scalar/mongodb.js";
export { SqlScalarStore } from "./stores/scalar/sql-store.js";
export { DEFAULT_TABLE_LEN } from "./stores/scalar/types.js";
export type * from "./stores/scalar/types.js";
export { HnswIndex } from "./stores/vector/hnsw.js";
export { LangChainVectorIndex } from "./stores/vector/langchain-bridge.js";
export { createVectorIndex, isLangChainVectorStore, VECTOR_KINDS } from "./stores/vector/kinds.js";
export type * from "./stores/vector/types.js";
export { LocalObjectStore } from "./stores/object/local.js";
export { S3ObjectStore, type S3ObjectStoreOptions } from "./stores/object/s3.js";
export { DatabaseVectorIndex, type VectorDatabase } from "./stores/vector/database-index.js";
export type * from "./stores/object/types.js";
export * from "./langchain/index.js";
