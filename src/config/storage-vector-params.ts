/**
 * The YAML's `storage_config.vector_params`: checked against what the vector store kind takes, GPTCache's key
 * names mapped to this package's options, and a server given by host and port turned into its URL.
 */
import { ValidationError } from "../core/errors.js";
import { DEFAULT_VECTOR_KIND, type VectorParams } from "../presets/manager-factory.js";
import type { ReadContext } from "./read-context.js";
import type { Section } from "./section.js";
import { withoutDriver } from "./storage-scalar-params.js";

/** The key groups the kinds share: in-process indexes, index files, HNSW, databases, servers given by host. */
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
  // GPTCache's USearch store: connectivity, expansion_add, expansion_search, and dtype for quantization; hnswlib's
  // m, ef_construction and ef stand in for the first three (usearch is the default kind, which hnswlib was).
  usearch: [...HNSW, "quantization", "dtype", "connectivity", "expansion_add", "expansion_search", "view", "thread", "shards"],
  "langchain-usearch": IN_PROCESS,
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

const POSITIVE = new Set(["dimension", "top_k", "m", "ef_construction", "ef", "initial_capacity", "max_elements", "ef_search", "ef_runtime", "pool_size", "timeout_ms", "optimize_every", "index_after", "candidates", "shards", "ready_timeout_ms", "connect_timeout_ms", "connectivity", "expansion_add", "expansion_search"]);
const COUNTS = new Set(["read_consistency_interval", "replicas"]);
const FLAGS = new Set(["secure", "https", "embedded", "local_mode", "view", "thread"]);

/** GPTCache's spellings, and the option each is here. */
const VECTOR_RENAMES: Readonly<Record<string, string>> = {
  index_path: "path",
  max_elements: "initialCapacity",
  collection_name: "collection",
  table_name: "collection",
  class_name: "collection",
  persist_directory: "uri",
  read_consistency_interval: "readConsistencyIntervalSeconds",
  namespace: "keyPrefix",
  user: "username",
  dtype: "quantization",
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
  const vectorKind = kind ?? DEFAULT_VECTOR_KIND;
  const keys = VECTOR_KEYS[vectorKind] ?? HNSW;
  section.only(keys, `the ${vectorKind} vector store`);
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
  if (vectorKind === "usearch") {
    for (const key of ["max_elements", "initial_capacity"].filter((name) => rest[name] !== undefined)) {
      context.notes.push(`${section.path}.${key} (${rest[key]}) is not used: the usearch index grows its capacity as entries come.`);
      delete rest[key];
    }
  }
  if (localMode === true) throw new ValidationError(`${section.path}.local_mode: an embedded Milvus (Milvus Lite) does not run here: run a Milvus server and set host and port (or url).`);
  if (dimension !== undefined) {
    context.notes.push(`${section.path}.dimension (${dimension}) is not used: the index takes the embedding's dimension, as GPTCache's loader sets it.`);
  }
  const params: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(rest)) {
    const name = key === "api_key" && kind === "milvus" ? "token" : key === "m" && (vectorKind === "hnswlib" || vectorKind === "usearch") ? "M" : (VECTOR_RENAMES[key] ?? camel(key));
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
