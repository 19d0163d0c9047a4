/**
 * The YAML's `storage_config`: GPTCache's store names (`manager: sqlite,faiss`, `postgresql,pgvector`, ...)
 * mapped to this package's kinds (or refused, saying what to use), and `scalar_params` / `vector_params`
 * checked per kind, GPTCache's key names included.
 */
import { UnknownKindError, ValidationError } from "../core/errors.js";
import { OBJECT_KINDS, SCALAR_KINDS, type ScalarParams, type VectorParams } from "../manager/factory.js";
import { ENV_URLS, resolveUrl } from "../stores/connection.js";
import { VECTOR_KINDS } from "../stores/vector/kinds.js";
import type { EmbeddingKind } from "./embedding-config.js";
import type { ReadContext } from "./read-context.js";
import type { Section } from "./section.js";

/** GPTCache's scalar store names (and this package's), with the kind they run as. */
const SCALARS: Readonly<Record<string, string>> = {
  sqlite: "sqlite",
  memory: "memory",
  postgres: "postgres",
  postgresql: "postgres",
  mysql: "mysql",
  mariadb: "mariadb",
  redis: "redis",
  mongodb: "mongodb",
  mongo: "mongodb",
  duckdb: "sqlite",
};

/** GPTCache's vector store names (and this package's), with the kind they run as (faiss: see `vectorKind`). */
const VECTORS: Readonly<Record<string, string>> = {
  ...Object.fromEntries(VECTOR_KINDS.map((kind) => [kind, kind])),
  chromadb: "chroma",
  docarray: "hnswlib",
};

/** GPTCache's stores with no equivalent here. */
const REFUSED: Readonly<Record<string, string>> = {
  sqlserver: "SQL Server",
  oracle: "Oracle",
  dynamo: "DynamoDB",
  pinecone: "Pinecone",
  marqo: "Marqo",
};

/** Why a GPTCache name runs as another kind here, for the startup note. */
const MAPPED: Readonly<Record<string, string>> = {
  duckdb: "duckdb runs as sqlite (an embedded database file in the data dir)",
  docarray: "docarray runs as hnswlib (the in-process index, saved in the data dir)",
};

export interface ManagerChoice {
  /** The "scalar,vector[,object]" string in this package's terms; undefined when the file names none. */
  manager?: string;
  scalar: string;
  vector?: string;
}

/** Reads `storage_config.manager` (GPTCache's `map` included) into this package's kinds. */
export function readManager(written: string | undefined, embedding: EmbeddingKind, context: ReadContext): ManagerChoice {
  if (written === undefined) return { scalar: "sqlite", vector: embedding === "string" ? undefined : "hnswlib" };
  const scalarStores = [...Object.keys(SCALARS), ...Object.keys(SCALAR_KINDS).filter((kind) => !(kind in SCALARS))];
  if (written.trim().toLowerCase() === "map") {
    if (embedding !== "string") {
      throw new ValidationError("storage_config.manager: map is GPTCache's exact-match map; use it with embedding: string, or a \"scalar,vector\" manager such as sqlite,hnswlib.");
    }
    context.notes.push("storage_config.manager: map runs as sqlite here (an exact-match store in the data dir).");
    return { manager: "sqlite", scalar: "sqlite" };
  }
  const [scalarName, vectorName, objectName, ...rest] = written.split(",").map((part) => part.trim().toLowerCase());
  if (!scalarName || rest.length > 0) throw new ValidationError(`storage_config.manager: "${written}" is not a "scalar,vector[,object]" string.`);
  const reasons: string[] = [];
  const scalar = kindOf(scalarName, "scalar", SCALARS, scalarStores, SCALAR_KINDS, reasons);
  const vector = vectorName ? vectorKind(vectorName, context, reasons) : undefined;
  if (objectName && !Object.prototype.hasOwnProperty.call(OBJECT_KINDS, objectName)) throw new UnknownKindError("object store", objectName, Object.keys(OBJECT_KINDS));
  const manager = [scalar, vector ?? (objectName ? "" : undefined), objectName].filter((part) => part !== undefined).join(",");
  if (reasons.length > 0) context.notes.push(`storage_config.manager: "${written}" runs as "${manager}" here: ${reasons.join("; ")}.`);
  return { manager, scalar, vector };
}

function kindOf(name: string, category: string, names: Readonly<Record<string, string>>, known: string[], registry: object, reasons: string[]): string {
  if (REFUSED[name] !== undefined) {
    throw new ValidationError(`storage_config.manager: GPTCache's ${name} store (${REFUSED[name]}) is not supported here; use one of: ${known.join(", ")}.`);
  }
  if (MAPPED[name] !== undefined) reasons.push(MAPPED[name]);
  // A kind a user registered in SCALAR_KINDS at run time is theirs to build.
  if (names[name] === undefined && !Object.prototype.hasOwnProperty.call(registry, name)) throw new UnknownKindError(`${category} store`, name, known);
  return names[name] ?? name;
}

/** faiss runs when faiss-node is installed, else the in-process HNSW index answers the same searches. */
function vectorKind(name: string, context: ReadContext, reasons: string[]): string {
  if (name === "faiss") {
    const missing = ["faiss-node", "@langchain/community"].find((pkg) => !context.installed(pkg));
    if (missing === undefined) return "faiss";
    reasons.push(`faiss runs as hnswlib (the in-process HNSW index, saved in the data dir) since ${missing} is not installed (npm install ${missing} to use FAISS)`);
    return "hnswlib";
  }
  return kindOf(name, "vector", VECTORS, Object.keys(VECTORS), {}, reasons);
}

/** Keys every server-database store takes: its connection (src/stores/connection.ts), column lengths, report retention. */
const CONNECTION_KEYS = ["url", "url_env", "host", "port", "user", "password", "database", "connect_timeout_ms", "timeout_ms", "table_len_config", "max_reports"];
const SQL_SERVER_KEYS = [...CONNECTION_KEYS, "sql_url", "pool_size", "table_prefix", "table_name"];

/**
 * The scalar_params keys each store kind takes: a key another kind takes is refused, not silently ignored.
 * GPTCache's names are read too: table_name (tables `<table_name>_question`, ...), sqlite's sql_url, mongo's
 * mongo_host, mongo_port, dbname and username, redis's redis_host, redis_port, global_key_prefix and username.
 */
const SCALAR_KEYS: Readonly<Record<string, readonly string[]>> = {
  memory: ["path", "table_len_config", "max_reports"],
  sqlite: ["path", "sql_url", "table_prefix", "table_name", "table_len_config", "max_reports", "timeout_ms"],
  postgres: SQL_SERVER_KEYS,
  mysql: SQL_SERVER_KEYS,
  mariadb: SQL_SERVER_KEYS,
  redis: [...CONNECTION_KEYS, "namespace", "ttl", "redis_host", "redis_port", "global_key_prefix", "username"],
  mongodb: [...CONNECTION_KEYS, "table_prefix", "table_name", "lock_lease_ms", "lock_wait_ms", "mongo_host", "mongo_port", "dbname", "username"],
};

/** GPTCache's Redis eviction settings, which belong to the Redis server. */
const REDIS_EVICTION_KEYS = ["maxmemory", "policy", "maxmemory_samples"];

/** GPTCache's SQLAlchemy URLs name a driver (`postgresql+psycopg2://`); the scheme alone is what we connect with. */
function withoutDriver(url: string): string {
  return url.replace(/^([a-z][a-z0-9]*)\+[a-z0-9_]+:/i, "$1:");
}

/** The one URL given as url, sql_url (GPTCache's key) or url_env (an environment variable's name), checked for the kind. */
function readUrl(section: Section, kind: string | undefined, env: NodeJS.ProcessEnv): string | undefined {
  const given = { url: section.string("url"), sql_url: section.string("sql_url"), url_env: section.string("url_env") };
  const set = Object.entries(given).filter(([, value]) => value !== undefined);
  if (set.length > 1) throw new ValidationError(`${section.path}: set one of url, sql_url and url_env, not ${set.map(([key]) => key).join(" and ")}.`);
  if (set.length === 0) return undefined;
  const [key, value] = set[0] as [string, string];
  let url = value;
  if (key === "url_env") {
    url = env[value] ?? "";
    if (url === "") throw new ValidationError(`${section.path}.url_env names ${value}, which is not set in the environment.`);
  } else if (key === "sql_url") url = withoutDriver(value);
  if (kind !== undefined && kind in ENV_URLS) {
    try {
      resolveUrl(kind as keyof typeof ENV_URLS, { url }, {});
    } catch (error) {
      throw new ValidationError(`${section.path}.${key}: ${(error as Error).message}`, { cause: error });
    }
  }
  return url;
}

/** The first of several spellings of one setting that is set; two set is an error. */
function oneOf<T>(section: Section, read: (key: string) => T | undefined, keys: readonly string[]): T | undefined {
  const set = keys.filter((key) => section.has(key));
  if (set.length > 1) throw new ValidationError(`${section.path}: ${set.join(" and ")} are the same setting: set one.`);
  const values = keys.map((key) => read(key));
  return values.find((value) => value !== undefined);
}

/** scalar_params, checked against what `kind` takes (a kind registered in SCALAR_KINDS at run time: not checked here). */
export function readScalarParams(section: Section | undefined, scalar: string, env: NodeJS.ProcessEnv): ScalarParams | undefined {
  if (!section) return undefined;
  const kind = scalar in SCALAR_KEYS ? scalar : undefined;
  const redisEviction = REDIS_EVICTION_KEYS.filter((key) => section.has(key));
  if (redisEviction.length > 0) {
    throw new ValidationError(
      `${section.path}: ${redisEviction.join(", ")} configure the Redis server's own eviction (GPTCache's redis eviction manager): set maxmemory and maxmemory-policy on the Redis server; here max_size, clean_size and eviction bound the cache.`,
    );
  }
  const lengths = section.section("table_len_config");
  const tableLenConfig = lengths && {
    question_question: lengths.positiveInteger("question_question"),
    answer_answer: lengths.positiveInteger("answer_answer"),
    session_id: lengths.positiveInteger("session_id"),
    dep_name: lengths.positiveInteger("dep_name"),
    dep_data: lengths.positiveInteger("dep_data"),
  };
  lengths?.done();
  const string = (key: string) => section.string(key);
  const port = (key: string) => section.integerIn(key, 1, 65535);
  let url = readUrl(section, kind === "sqlite" ? undefined : kind, env);
  let path = section.string("path");
  // GPTCache writes SQLite's file as a URL (sqlite:///./sqlite.db).
  if (kind === "sqlite" && url !== undefined) {
    if (!url.startsWith("sqlite:///")) throw new ValidationError(`${section.path}.sql_url: an SQLite URL reads sqlite:///PATH, got "${url}".`);
    if (path !== undefined) throw new ValidationError(`${section.path}: path and sql_url both name the SQLite file: set one.`);
    path = url.slice("sqlite:///".length);
    url = undefined;
  }
  const tableName = section.string("table_name");
  const prefix = section.string("table_prefix");
  if (tableName !== undefined && prefix !== undefined) throw new ValidationError(`${section.path}: table_prefix and table_name (GPTCache's) name the tables both: set one.`);
  const params: ScalarParams = {
    path,
    tablePrefix: prefix ?? (tableName === undefined ? undefined : `${tableName}_`),
    tableLenConfig,
    url,
    host: oneOf(section, string, ["host", "mongo_host", "redis_host"]),
    port: oneOf(section, port, ["port", "mongo_port", "redis_port"]),
    user: oneOf(section, string, ["user", "username"]),
    password: section.string("password"),
    // Redis numbers its databases; YAML reads `database: 0` as a number.
    database: oneOf(section, (key) => section.stringOrNonNegativeInteger(key), ["database", "dbname"]),
    poolSize: section.positiveInteger("pool_size"),
    connectTimeout: section.positiveInteger("connect_timeout_ms"),
    timeoutMs: section.positiveInteger("timeout_ms"),
    namespace: oneOf(section, string, ["namespace", "global_key_prefix"]),
    ttl: section.positiveNumber("ttl"),
    maxReports: section.nonNegativeInteger("max_reports"),
    lockLeaseMs: section.positiveInteger("lock_lease_ms"),
    lockWaitMs: section.positiveInteger("lock_wait_ms"),
  };
  section.done();
  const allowed = kind === undefined ? undefined : SCALAR_KEYS[kind];
  const misplaced = allowed && section.keys().filter((key) => !allowed.includes(key));
  if (misplaced && misplaced.length > 0) {
    throw new ValidationError(`${section.path}: ${misplaced.join(", ")} ${misplaced.length > 1 ? "do" : "does"} not apply to the ${kind} store (it takes ${allowed.join(", ")}).`);
  }
  // Unset keys are left out: an explicit undefined would override what managerFactory passes (the redis ttl).
  return Object.fromEntries(Object.entries(params).filter(([, value]) => value !== undefined));
}

const IN_PROCESS = ["dimension", "top_k"];
const FILE = [...IN_PROCESS, "path", "index_path"];
const HNSW = [...FILE, "m", "ef_construction", "ef", "initial_capacity", "max_elements"];
const DATABASE = [...IN_PROCESS, "url", "collection", "collection_name"];
const SERVER = [...DATABASE, "host", "port"];

/**
 * The vector_params keys each kind takes (GPTCache's names included: index_path, max_elements, collection_name, host,
 * port, ...); every database kind takes timeout_ms, the deadline of each of its calls.
 */
const VECTOR_KEYS: Readonly<Record<string, readonly string[]>> = {
  hnswlib: HNSW,
  "langchain-hnswlib": [...FILE, "ef"],
  faiss: FILE,
  flat: IN_PROCESS,
  memory: IN_PROCESS,
  usearch: IN_PROCESS,
  milvus: [...SERVER, "secure", "user", "username", "password", "token", "api_key", "local_mode", "m", "ef_construction", "ef", "timeout_ms"],
  qdrant: [...SERVER, "https", "api_key", "m", "ef_construction", "timeout_ms"],
  chroma: [...SERVER, "api_key", "tenant", "database", "m", "ef_construction", "ef_search", "timeout_ms"],
  weaviate: [...SERVER, "grpc_url", "api_key", "class_name", "m", "ef_construction", "ef", "timeout_ms"],
  redis: [...SERVER, "user", "username", "password", "namespace", "key_prefix", "m", "ef_construction", "ef_runtime", "timeout_ms"],
  pgvector: [...DATABASE, "embedded", "path", "m", "ef_construction", "ef_search", "pool_size", "timeout_ms"],
  lancedb: [...IN_PROCESS, "uri", "persist_directory", "path", "collection", "table_name", "optimize_every", "read_consistency_interval", "index_after", "ef", "timeout_ms"],
  elasticsearch: [...DATABASE, "api_key", "m", "ef_construction", "candidates", "timeout_ms"],
  opensearch: [...DATABASE, "m", "ef_construction", "shards", "replicas", "timeout_ms"],
  "mongodb-atlas": [...DATABASE, "database", "index_name", "ready_timeout_ms", "connect_timeout_ms", "timeout_ms"],
};

const POSITIVE = new Set(["dimension", "top_k", "m", "ef_construction", "ef", "initial_capacity", "max_elements", "ef_search", "ef_runtime", "pool_size", "timeout_ms", "optimize_every", "index_after", "candidates", "shards", "ready_timeout_ms", "connect_timeout_ms"]);
const COUNTS = new Set(["read_consistency_interval", "replicas"]);
const FLAGS = new Set(["secure", "https", "embedded", "local_mode"]);

/** GPTCache's spellings, and the option each is here. */
const VECTOR_RENAMES: Readonly<Record<string, string>> = {
  index_path: "path",
  max_elements: "initialCapacity",
  collection_name: "collection",
  table_name: "collection",
  class_name: "collection",
  persist_directory: "uri",
  namespace: "keyPrefix",
  user: "username",
};

/** Where a server is when vector_params give host and port (GPTCache's way) instead of a URL. */
const DEFAULT_PORTS: Readonly<Record<string, number>> = { milvus: 19530, qdrant: 6333, chroma: 8000, weaviate: 8080, redis: 6379 };

const camel = (key: string) => key.replace(/_([a-z])/g, (_, letter: string) => letter.toUpperCase());

export interface VectorChoice {
  params?: VectorParams;
  /** vector_params.top_k (GPTCache's results per search), for config.top_k. */
  topK?: number;
}

/** vector_params for `kind` (undefined: no vector store), checked, GPTCache's names mapped. */
export function readVectorParams(section: Section | undefined, kind: string | undefined, context: ReadContext): VectorChoice {
  if (!section) return {};
  const keys = VECTOR_KEYS[kind ?? "hnswlib"] ?? HNSW;
  section.only(keys, `the ${kind ?? "hnswlib"} vector store`);
  const values: Record<string, unknown> = {};
  for (const key of keys) {
    const value = POSITIVE.has(key)
      ? section.positiveInteger(key)
      : COUNTS.has(key)
        ? section.nonNegativeInteger(key)
        : FLAGS.has(key)
          ? section.boolean(key)
          : key === "port"
            ? section.integerIn(key, 1, 65535)
            : section.string(key);
    if (value !== undefined) values[key] = value;
  }
  section.done();
  const { dimension, top_k: topK, host, port, secure, https, local_mode: localMode, ...rest } = values;
  if (localMode === true) throw new ValidationError(`${section.path}.local_mode: an embedded Milvus (Milvus Lite) does not run here: run a Milvus server and set host and port (or url).`);
  if (dimension !== undefined) {
    context.notes.push(`${section.path}.dimension (${dimension}) is not used: the index takes the embedding's dimension, as GPTCache's loader sets it.`);
  }
  const params: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(rest)) {
    const name = key === "api_key" && kind === "milvus" ? "token" : key === "m" && (kind ?? "hnswlib") === "hnswlib" ? "M" : (VECTOR_RENAMES[key] ?? camel(key));
    if (params[name] !== undefined) throw new ValidationError(`${section.path}: ${key} and another key both set ${name}: set one.`);
    params[name] = name === "url" ? withoutDriver(value as string) : value;
  }
  if (host !== undefined || port !== undefined) {
    if (params.url !== undefined) throw new ValidationError(`${section.path}: set url, or host and port, not both.`);
    if (host === undefined) throw new ValidationError(`${section.path}.port needs host.`);
    params.url = serverUrl(kind as string, host as string, port as number | undefined, secure === true || https === true, params);
  } else if (secure !== undefined || https !== undefined) {
    throw new ValidationError(`${section.path}: ${secure !== undefined ? "secure" : "https"} applies with host and port; put the scheme in url instead.`);
  }
  return { params: Object.keys(params).length > 0 ? params : undefined, topK: topK as number | undefined };
}

function serverUrl(kind: string, host: string, port: number | undefined, secure: boolean, params: Record<string, unknown>): string {
  const at = `${host}:${port ?? DEFAULT_PORTS[kind]}`;
  if (kind !== "redis") return `${secure ? "https" : "http"}://${at}`;
  // Redis's credentials go in its URL.
  const { username, password } = params;
  delete params.username;
  delete params.password;
  const credentials = username === undefined && password === undefined ? "" : `${encodeURIComponent(String(username ?? ""))}${password === undefined ? "" : `:${encodeURIComponent(String(password))}`}@`;
  return `${secure ? "rediss" : "redis"}://${credentials}${at}`;
}
