import type * as Mysql2 from "mysql2/promise";
import type { Pool, ResultSetHeader } from "mysql2/promise";
import { importOptional } from "../../core/optional-import.js";
import { positiveInteger } from "../../core/validation.js";
import { describeTarget, resolveTimeoutMs, resolveUrl, type ServerConnectionOptions } from "../connection.js";
import { MYSQL_SCHEMA } from "./sql-schema.js";
import type { ReportRetentionOptions } from "./report-retention.js";
import { SqlScalarStore, type SqlDriver, type SqlExecutor, type SqlResult } from "./sql-store.js";
import type { TableLenConfig } from "../../core/contracts/scalar-store.js";

/** A `mysql2/promise` Pool, typed by shape so that these declarations compile in an app without `mysql2`. */
export interface MySqlPoolLike {
  getConnection(): Promise<unknown>;
  query(sql: string, values?: unknown): Promise<unknown>;
  end(): Promise<void>;
}

export interface MySqlScalarStoreOptions extends ServerConnectionOptions, ReportRetentionOptions {
  /** Your own `mysql2/promise` pool (`createPool(...)`, or `.promise()` of a callback pool): left open by close(). */
  pool?: MySqlPoolLike;
  /** Connections in the store's pool. Default 10. */
  poolSize?: number;
  /** Milliseconds to wait for a connection before the call fails. Default 5000. */
  connectTimeoutMs?: number;
  /**
   * Milliseconds one store call may take, the wait for a connection included, before it fails with StoreError
   * (a lookup then misses and the model answers). A connection whose statement got no answer in that time is
   * destroyed, never reused. Default 5000 (DEFAULT_STORE_TIMEOUT_MS).
   */
  timeoutMs?: number;
  /** Prefix of every table name. Default "semcache_". */
  tablePrefix?: string;
  /** Column lengths (see DEFAULT_TABLE_LEN), checked before writing. */
  tableLenConfig?: Partial<TableLenConfig>;
}

/** Deadlock, lock wait timeout: the transaction is rolled back and may run again. */
const RETRYABLE = new Set([1213, 1205]);
/** Seconds to wait for another process's schema creation. */
const LOCK_WAIT_SECONDS = 60;
/** mysql2's error for a statement past its `timeout`: the connection still waits for that answer. */
const QUERY_TIMEOUT = "PROTOCOL_SEQUENCE_TIMEOUT";

/** A connection that failed fatally or whose statement timed out: destroyed, never handed out again. */
function isBroken(error: unknown): boolean {
  const { fatal, code } = (error ?? {}) as { fatal?: unknown; code?: unknown };
  return fatal === true || code === QUERY_TIMEOUT;
}

/** One statement on a borrowed connection, with its own timeout in milliseconds. */
type Statement = (sql: string, params?: readonly unknown[], timeoutMs?: number) => Promise<SqlResult>;

function toResult(result: unknown): SqlResult {
  if (Array.isArray(result)) return { rows: result as Array<Record<string, unknown>>, affected: 0 };
  const header = result as ResultSetHeader;
  return { rows: [], affected: header.affectedRows, insertId: header.insertId > 0 ? header.insertId : undefined };
}

function mysqlDriver(pool: Pool, owned: boolean, timeoutMs: number): SqlDriver {
  /**
   * Runs `fn` on one pooled connection, every statement bounded by a timeout. Every call borrows its own
   * connection (pool.query would return one whose statement timed out to the pool, still waiting for an answer).
   */
  const withConnection = async <T>(fn: (statement: Statement) => Promise<T>): Promise<T> => {
    const connection = await pool.getConnection();
    let broken = false;
    const statement: Statement = async (sql, params = [], ms = timeoutMs) => {
      try {
        // query(), not execute(): client-side parameters work for LIMIT and IN lists on every server version.
        const [result] = await connection.query({ sql, timeout: ms }, params as unknown[]);
        return toResult(result);
      } catch (error) {
        broken ||= isBroken(error);
        throw error;
      }
    };
    try {
      return await fn(statement);
    } finally {
      if (broken) connection.destroy();
      else connection.release();
    }
  };
  const executor = (statement: Statement): SqlExecutor => ({ query: (sql, params) => statement(sql, params) });
  return {
    query: (sql, params) => withConnection((statement) => statement(sql, params)),
    transaction: (fn) =>
      withConnection(async (statement) => {
        // Each statement sees what others committed before it: an eviction that waited for the counter's lock
        // must see the rows the previous evictor marked.
        await statement("SET TRANSACTION ISOLATION LEVEL READ COMMITTED");
        await statement("START TRANSACTION");
        try {
          const result = await fn(executor(statement));
          await statement("COMMIT");
          return result;
        } catch (error) {
          // A broken connection is destroyed instead: the server rolls back when it closes.
          if (!isBroken(error)) await statement("ROLLBACK").catch(() => undefined);
          throw error;
        }
      }),
    withLock: (name, fn) =>
      withConnection(async (statement) => {
        const { rows } = await statement("SELECT GET_LOCK(?, ?) AS got", [name, LOCK_WAIT_SECONDS], LOCK_WAIT_SECONDS * 1000 + timeoutMs);
        if (rows[0]?.got !== 1) {
          throw new Error(`waited ${LOCK_WAIT_SECONDS} s for lock "${name}" held by another process`);
        }
        try {
          return await fn(executor(statement));
        } finally {
          await statement("SELECT RELEASE_LOCK(?)", [name]);
        }
      }),
    isRetryable: (error) => RETRYABLE.has(Number((error as { errno?: unknown })?.errno)),
    close: async () => {
      if (owned) await pool.end();
    },
  };
}

/**
 * Scalar store on MySQL 8 or MariaDB 10.5+ through `mysql2` (an optional peer dependency, loaded on init).
 * Several processes may share it: see SqlScalarStore. Connection: `url`, or host/port/user/password/database,
 * or a `pool`; with none, SEMCACHE_MYSQL_URL. Creating the triggers needs the TRIGGER privilege (and, with
 * binary logging on, SUPER or `log_bin_trust_function_creators`).
 */
export class MySqlScalarStore extends SqlScalarStore {
  constructor(options: MySqlScalarStoreOptions = {}, kind: "mysql" | "mariadb" = "mysql") {
    const url = options.pool ? undefined : resolveUrl(kind, options);
    const poolSize = positiveInteger(`${kind}: poolSize`, options.poolSize, 10);
    const connectTimeoutMs = positiveInteger(`${kind}: connectTimeoutMs`, options.connectTimeoutMs, 5000);
    const timeoutMs = resolveTimeoutMs(kind, options.timeoutMs);
    super({
      kind,
      schema: MYSQL_SCHEMA,
      target: options.pool ? `${kind} (the pool passed in)` : describeTarget("mysql", url, options, 3306),
      tablePrefix: options.tablePrefix,
      tableLenConfig: options.tableLenConfig,
      maxReports: options.maxReports,
      timeoutMs,
      openDriver: async () => {
        if (options.pool) return mysqlDriver(options.pool as Pool, false, timeoutMs);
        const mysql = await importOptional<typeof Mysql2>("mysql2/promise", `The ${kind} scalar store`);
        const { createPool } = (mysql as typeof Mysql2 & { default?: typeof Mysql2 }).default ?? mysql;
        const { host, port, user, password, database } = options;
        const common = { connectionLimit: poolSize, connectTimeout: connectTimeoutMs, charset: "utf8mb4", supportBigNumbers: true };
        const pool = createPool(url === undefined ? { host, port, user, password, database, ...common } : { uri: url, ...common });
        return mysqlDriver(pool, true, timeoutMs);
      },
    });
  }
}

/** The same store under the kind name "mariadb" (and SEMCACHE_MARIADB_URL before SEMCACHE_MYSQL_URL). */
export class MariaDbScalarStore extends MySqlScalarStore {
  constructor(options: MySqlScalarStoreOptions = {}) {
    super(options, "mariadb");
  }
}
