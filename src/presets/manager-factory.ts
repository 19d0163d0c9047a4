import { join } from "node:path";
import type { Clock } from "../core/clock.js";
import { UnknownKindError, ValidationError } from "../core/errors.js";
import { LocalObjectStore } from "../stores/object/local.js";
import { S3ObjectStore, type S3ObjectStoreOptions } from "../stores/object/s3.js";
import type { ObjectStore } from "../core/contracts/object-store.js";
import { MemoryScalarStore } from "../stores/scalar/memory.js";
import { MongoScalarStore, type MongoScalarStoreOptions } from "../stores/scalar/mongodb.js";
import { MariaDbScalarStore, MySqlScalarStore, type MySqlScalarStoreOptions } from "../stores/scalar/mysql.js";
import { PostgresScalarStore, type PostgresScalarStoreOptions } from "../stores/scalar/postgres.js";
import { RedisScalarStore, type RedisScalarStoreOptions } from "../stores/scalar/redis.js";
import { SqliteScalarStore, type SqliteScalarStoreOptions } from "../stores/scalar/sqlite.js";
import type { ScalarStore, TableLenConfig } from "../core/contracts/scalar-store.js";
import { createVectorIndex, isLangChainVectorStore } from "../stores/vector/kinds.js";
import type { VectorIndex } from "../core/contracts/vector-index.js";
import { DataManager } from "../manager/data-manager.js";
import type { EvictionPolicy } from "../core/contracts/eviction.js";

/**
 * The embedded default's vector index when none is named: usearch (i8 vectors, judged on exact distances; at
 * connectivity 16, 100k entries) built 3x faster than hnswlib in 0.31x of its memory and loaded 5x faster; at the
 * default connectivity 32 it holds an entry in ~0.38x. It ships prebuilt binaries, so it needs no build step at
 * install on Linux and macOS (docs/benchmarks.md, "A million entries").
 */
export const DEFAULT_VECTOR_KIND = "usearch";
/** The stores of a semantic cache when none are named: SQLite in the data dir, with the default vector index. */
export const EMBEDDED_DEFAULT_MANAGER = `sqlite,${DEFAULT_VECTOR_KIND}`;

export interface ScalarParams {
  /** File (sqlite) or JSON file (memory); defaults under dataDir. */
  path?: string;
  tablePrefix?: string;
  tableLenConfig?: Partial<TableLenConfig>;
  /** Report rows kept by any scalar kind (the newest); default 10,000, 0 keeps none. */
  maxReports?: number;
  [option: string]: unknown;
}

export interface VectorParams {
  /** Vector length; default: taken from the first vector stored (the embedding's dimension). */
  dimension?: number;
  /** File or folder of a file-backed index; defaults under dataDir. */
  path?: string;
  [option: string]: unknown;
}

export interface ObjectParams {
  path?: string;
  [option: string]: unknown;
}

export interface ManagerFactoryOptions {
  /** Where file-backed stores live. Default `./semcache_data`. */
  dataDir?: string;
  maxSize?: number;
  cleanSize?: number;
  eviction?: string | EvictionPolicy;
  /** Seconds an entry lives. */
  ttlSeconds?: number;
  /**
   * With a shared scalar store (postgres, mysql, redis, ...) and an in-process vector index: milliseconds between
   * pulls of other replicas' new entries into the index before a search (0: before every search). Default 250.
   */
  syncIntervalMs?: number;
  /** Distinct entries hit (or report rows) that start a bookkeeping write before its timer. Default 1024. */
  touchBatch?: number;
  /** Milliseconds between writes of buffered hit counts, last-access times and report rows. Default 5000. */
  bookkeepingIntervalMs?: number;
  /** Where time comes from (entries' ages, expiry, the bookkeeping timer); default the system clock. Tests pass a ManualClock. */
  clock?: Clock;
  scalarParams?: ScalarParams;
  vectorParams?: VectorParams;
  objectParams?: ObjectParams;
}

/** Components by name or as instances (a LangChain VectorStore is accepted as the vector store). */
export interface ManagerComponents {
  scalar: string | ScalarStore;
  vector?: string | VectorIndex | object;
  object?: string | ObjectStore;
}

/** Builds a scalar store from scalarParams; `ttlSeconds` is the manager's, for stores that expire keys themselves. */
type ScalarFactory = (params: ScalarParams, dataDir: string, ttlSeconds?: number) => ScalarStore;

/**
 * The in-process kinds pick their options out of scalarParams: a key they do not take is refused, never dropped
 * (the server kinds' constructors read the whole object).
 */
function picked(kind: string, params: ScalarParams, keys: readonly string[]): ScalarParams {
  const unknown = Object.keys(params).filter((key) => params[key] !== undefined && !keys.includes(key));
  if (unknown.length > 0) {
    throw new ValidationError(`scalarParams: ${unknown.join(", ")} ${unknown.length > 1 ? "do" : "does"} not apply to the ${kind} store (it takes ${keys.join(", ")}).`);
  }
  return params;
}

/** Scalar store kinds by name. */
export const SCALAR_KINDS: Record<string, ScalarFactory> = {
  memory: (params) => {
    const { path, tableLenConfig, maxReports } = picked("memory", params, ["path", "tableLenConfig", "maxReports"]);
    return new MemoryScalarStore({ path, tableLenConfig, maxReports });
  },
  sqlite: (params, dataDir) => {
    const { path, ...options } = picked("sqlite", params, ["path", "tablePrefix", "tableLenConfig", "maxReports", "busyTimeoutMs", "timeoutMs", "recentRecords"]);
    return new SqliteScalarStore({ ...(options as Omit<SqliteScalarStoreOptions, "path">), path: path ?? join(dataDir, "sqlite.db") });
  },
  // Server databases: connection settings in scalarParams (url or host/port/..., or a client/pool), else env URLs.
  postgres: (params) => new PostgresScalarStore(params as PostgresScalarStoreOptions),
  mysql: (params) => new MySqlScalarStore(params as MySqlScalarStoreOptions),
  mariadb: (params) => new MariaDbScalarStore(params as MySqlScalarStoreOptions),
  redis: (params, _dataDir, ttlSeconds) => new RedisScalarStore({ ttlSeconds, ...(params as RedisScalarStoreOptions) }),
  mongodb: (params) => new MongoScalarStore(params as MongoScalarStoreOptions),
};

type ObjectFactory = (params: ObjectParams, dataDir: string) => ObjectStore;

/** Object store kinds by name. */
export const OBJECT_KINDS: Record<string, ObjectFactory> = {
  local: (params, dataDir) => new LocalObjectStore({ path: params.path ?? join(dataDir, "objects") }),
  s3: (params) => new S3ObjectStore(params as S3ObjectStoreOptions),
};

/**
 * Builds a DataManager from a "scalar,vector[,object]" string (GPTCache's manager_factory), e.g.
 * `managerFactory("sqlite,usearch", { dataDir: "./cache" })`, or from components by name or instance.
 * "sqlite" alone gives an exact-match store with no index.
 */
export function managerFactory(
  kinds: string | ManagerComponents = EMBEDDED_DEFAULT_MANAGER,
  options: ManagerFactoryOptions = {},
): DataManager {
  const components = typeof kinds === "string" ? parseKinds(kinds) : kinds;
  if (typeof components !== "object" || components === null || components.scalar === undefined) {
    throw new ValidationError('managerFactory needs a "scalar,vector[,object]" string or { scalar, vector?, object? }.');
  }
  const dataDir = options.dataDir ?? "./semcache_data";
  return new DataManager({
    scalar: resolveScalar(components.scalar, options.scalarParams ?? {}, dataDir, options.ttlSeconds),
    vector: components.vector === undefined ? undefined : resolveVector(components.vector, options.vectorParams ?? {}, dataDir),
    object: components.object === undefined ? undefined : resolveObject(components.object, options.objectParams ?? {}, dataDir),
    maxSize: options.maxSize,
    cleanSize: options.cleanSize,
    eviction: options.eviction,
    ttlSeconds: options.ttlSeconds,
    syncIntervalMs: options.syncIntervalMs,
    touchBatch: options.touchBatch,
    bookkeepingIntervalMs: options.bookkeepingIntervalMs,
    clock: options.clock,
  });
}

function parseKinds(kinds: string): ManagerComponents {
  const [scalar, vector, object, ...rest] = kinds.split(",").map((part) => part.trim().toLowerCase());
  if (!scalar || rest.length > 0) {
    throw new ValidationError(`"${kinds}" is not a "scalar,vector[,object]" string.`);
  }
  return { scalar, vector: vector || undefined, object: object || undefined };
}

function resolveScalar(scalar: string | ScalarStore, params: ScalarParams, dataDir: string, ttlSeconds?: number): ScalarStore {
  if (typeof scalar !== "string") return scalar;
  const factory = SCALAR_KINDS[scalar];
  if (!factory) throw new UnknownKindError("scalar store", scalar, Object.keys(SCALAR_KINDS));
  return factory(params, dataDir, ttlSeconds);
}

function resolveVector(vector: string | VectorIndex | object, params: VectorParams, dataDir: string): VectorIndex {
  if (typeof vector === "string") {
    const { dimension = 0, path = join(dataDir, vector), ...rest } = params;
    return createVectorIndex(vector, { ...rest, dimension, path });
  }
  if (isLangChainVectorStore(vector)) return createVectorIndex(vector, { ...params, dimension: params.dimension ?? 0 });
  return vector as VectorIndex;
}

function resolveObject(object: string | ObjectStore, params: ObjectParams, dataDir: string): ObjectStore {
  if (typeof object !== "string") return object;
  const factory = OBJECT_KINDS[object];
  if (!factory) throw new UnknownKindError("object store", object, Object.keys(OBJECT_KINDS));
  return factory(params, dataDir);
}
