/**
 * The YAML's `storage_config.scalar_params`: checked against what the scalar store kind takes, GPTCache's key names
 * (table_name, sql_url, mongo_host, redis_host, ...) read as this package's options.
 */
import { ValidationError } from "../core/errors.js";
import type { ScalarParams } from "../presets/manager-factory.js";
import { ENV_URLS, resolveUrl } from "../stores/connection.js";
import type { Section } from "./section.js";

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
export function withoutDriver(url: string): string {
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
    question: lengths.positiveInteger("question_question"),
    answer: lengths.positiveInteger("answer_answer"),
    sessionId: lengths.positiveInteger("session_id"),
    depName: lengths.positiveInteger("dep_name"),
    depData: lengths.positiveInteger("dep_data"),
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
    connectTimeoutMs: section.positiveInteger("connect_timeout_ms"),
    timeoutMs: section.positiveInteger("timeout_ms"),
    namespace: oneOf(section, string, ["namespace", "global_key_prefix"]),
    ttlSeconds: section.positiveNumber("ttl"),
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
  // Unset keys are left out: an explicit undefined would override what managerFactory passes (the redis ttlSeconds).
  return Object.fromEntries(Object.entries(params).filter(([, value]) => value !== undefined));
}
