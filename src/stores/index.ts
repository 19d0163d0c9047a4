/** langchain-semcache/stores: the scalar, vector and object stores a DataManager is composed of. */
export { MemoryScalarStore } from "./scalar/memory.js";
export { SqliteScalarStore } from "./scalar/sqlite.js";
export { PostgresScalarStore, type PostgresScalarStoreOptions, type PgPoolLike } from "./scalar/postgres.js";
export { MySqlScalarStore, MariaDbScalarStore, type MySqlScalarStoreOptions, type MySqlPoolLike } from "./scalar/mysql.js";
export { RedisScalarStore, type RedisScalarStoreOptions } from "./scalar/redis.js";
export { MongoScalarStore, type MongoScalarStoreOptions, type MongoClientLike } from "./scalar/mongodb.js";
export { SqlScalarStore } from "./scalar/sql-store.js";
export { DEFAULT_TABLE_LEN } from "./scalar/types.js";
export { DEFAULT_MAX_REPORTS, type ReportRetentionOptions } from "./scalar/report-retention.js";
export type * from "./scalar/types.js";
export { HnswIndex, type HnswIndexOptions } from "./vector/hnsw.js";
export { LangChainVectorIndex } from "./vector/langchain-bridge.js";
export { createVectorIndex, isLangChainVectorStore, VECTOR_KINDS, type VectorKind, type VectorIndexParams } from "./vector/kinds.js";
export { DatabaseVectorIndex, type VectorDatabase } from "./vector/database-index.js";
export type * from "./vector/types.js";
export { LocalObjectStore } from "./object/local.js";
export { S3ObjectStore, type S3ObjectStoreOptions, type S3ClientLike } from "./object/s3.js";
export type * from "./object/types.js";
