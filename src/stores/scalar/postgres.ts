import type * as PgModule from "pg";
import type { Pool, PoolClient, QueryConfig } from "pg";
import { importOptional } from "../../core/optional-import.js";
import { positiveInteger } from "../../core/validation.js";
import { describeTarget, resolveTimeoutMs, resolveUrl, type ServerConnectionOptions } from "../connection.js";
import { POSTGRES_SCHEMA } from "./sql-schema.js";
import type { ReportRetentionOptions } from "./report-retention.js";
import { SqlScalarStore, type SqlDriver, type SqlExecutor } from "./sql-store.js";
import type { TableLenConfig } from "../../core/contracts/scalar-store.js";

/** A `pg` Pool, typed by shape so that these declarations compile in an app without `pg`. */
export interface PgPoolLike {
  // The store borrows clients with the callback form (see borrow()), which every pg Pool has.
  connect(callback: (error: Error | undefined, client: unknown, release: (error?: Error | boolean) => void) => void): void;
  query(text: string, values?: unknown[]): Promise<unknown>;
  end(): Promise<void>;
}

export interface PostgresScalarStoreOptions extends ServerConnectionOptions, ReportRetentionOptions {
  /**
   * Your own `pg` Pool: used as is and left open by close(). Connection fields are then ignored. Give it an
   * 'error' listener, as pg asks: its idle clients' lost connections are reported there.
   */
  pool?: PgPoolLike;
  /** Connections in the store's pool. Default 10. */
  poolSize?: number;
  /** Milliseconds to wait for a connection before the call fails. Default 5000. */
  connectTimeoutMs?: number;
  /**
   * Milliseconds one store call may take, the wait for a connection included, before it fails with StoreError
   * (a lookup then misses and the model answers). A connection whose statement got no answer in that time is
   * dropped, never reused. Default 5000 (DEFAULT_STORE_TIMEOUT_MS).
   */
  timeoutMs?: number;
  /** Prefix of every table name. Default "semcache_". */
  tablePrefix?: string;
  /** Column lengths (see DEFAULT_TABLE_LEN), checked before writing. */
  tableLenConfig?: Partial<TableLenConfig>;
}

/** PostgreSQL error codes after which a transaction may simply run again: deadlock, serialization failure. */
const RETRYABLE = new Set(["40P01", "40001"]);

/** `?` -> `$1, $2, ...` (the shared statements have no `?` inside string literals). Memoised per text. */
function numberedPlaceholders(): (sql: string) => string {
  const texts = new Map<string, string>();
  return (sql) => {
    let text = texts.get(sql);
    if (text === undefined) {
      let n = 0;
      text = sql.replace(/\?/g, () => `$${++n}`);
      texts.set(sql, text);
    }
    return text;
  };
}

/**
 * Borrows a client, with `onLost` listening to its 'error' from the moment the pool hands it over. The pool
 * stops listening to a client it lends out, and a lost connection (terminated, reset) then emits 'error', which
 * unheard crashes the process. The callback form matters: a client freed while its socket is being read is
 * handed to the next waiter at once, and a termination notice in the rest of that read is emitted before an
 * awaited connect() would resume.
 */
function borrow(pool: Pool, onLost: (error: Error) => void): Promise<PoolClient> {
  return new Promise((resolve, reject) => {
    pool.connect((error, client) => {
      if (!client) return reject(error ?? new Error("the pool gave no client"));
      client.on("error", onLost);
      resolve(client);
    });
  });
}

/** pg's own error for a statement that got no answer within query_timeout (it has no code). */
function isQueryTimeout(error: unknown): boolean {
  return (error as { message?: unknown })?.message === "Query read timeout";
}

function pgDriver(pool: Pool, owned: boolean, timeoutMs: number): SqlDriver {
  const numbered = numberedPlaceholders();
  // pg reads query_timeout from each statement's config too (its types list it only on the client's); on expiry it
  // fails the statement, pool.query then drops the connection, and transaction() does below.
  const bounded = (text: string, values?: unknown[]): QueryConfig & { query_timeout: number } => ({ text, values, query_timeout: timeoutMs });
  const executor = (client: Pool | PoolClient): SqlExecutor => ({
    async query(sql, params = []) {
      const result = await client.query(bounded(numbered(sql), params as unknown[]));
      return { rows: result.rows, affected: result.rowCount ?? 0 };
    },
  });
  const transaction: SqlDriver["transaction"] = async (fn) => {
    // A connection lost mid-transaction fails the statement in flight by itself; remembering the error drops
    // the dead connection on release instead of returning it to the pool.
    let broken: Error | undefined;
    const lost = (error: Error) => {
      broken ??= error;
    };
    const client = await borrow(pool, lost);
    try {
      const tx = executor(client);
      await tx.query("BEGIN");
      const result = await fn(tx);
      await tx.query("COMMIT");
      return result;
    } catch (error) {
      // A silent connection is dropped without a ROLLBACK, which would only wait as long again; the server rolls
      // the transaction back when the connection closes.
      if (isQueryTimeout(error)) {
        broken ??= error as Error;
        throw error;
      }
      // A connection that cannot even roll back is dropped from the pool, not handed out again.
      await client.query(bounded("ROLLBACK")).catch((rollbackError: unknown) => {
        broken ??= rollbackError instanceof Error ? rollbackError : new Error(String(rollbackError));
      });
      throw error;
    } finally {
      // Released, the pool listens again (a later error is the pool's 'error').
      client.off("error", lost);
      client.release(broken);
    }
  };
  return {
    ...executor(pool),
    transaction,
    withLock: (name, fn) =>
      transaction(async (tx) => {
        await tx.query("SELECT pg_advisory_xact_lock(hashtext(?))", [name]);
        return fn(tx);
      }),
    isRetryable: (error) => RETRYABLE.has(String((error as { code?: unknown })?.code)),
    close: async () => {
      if (owned) await pool.end();
    },
  };
}

/**
 * Scalar store on PostgreSQL through `pg` (an optional peer dependency, loaded on init). Several processes may
 * share it: see SqlScalarStore. Connection: `url`, or host/port/user/password/database, or a `pool`; with none,
 * SEMCACHE_POSTGRES_URL, then DATABASE_URL (when it is a postgres:// URL), then pg's own PG* variables.
 */
export class PostgresScalarStore extends SqlScalarStore {
  constructor(options: PostgresScalarStoreOptions = {}) {
    const url = options.pool ? undefined : resolveUrl("postgres", options);
    const poolSize = positiveInteger("postgres: poolSize", options.poolSize, 10);
    const connectTimeoutMs = positiveInteger("postgres: connectTimeoutMs", options.connectTimeoutMs, 5000);
    const timeoutMs = resolveTimeoutMs("postgres", options.timeoutMs);
    super({
      kind: "postgres",
      schema: POSTGRES_SCHEMA,
      target: options.pool ? "postgres (the pool passed in)" : describeTarget("postgres", url, options, 5432),
      tablePrefix: options.tablePrefix,
      tableLenConfig: options.tableLenConfig,
      maxReports: options.maxReports,
      timeoutMs,
      openDriver: async () => {
        if (options.pool) return pgDriver(options.pool as Pool, false, timeoutMs);
        const pg = await importOptional<{ default?: typeof PgModule; Pool?: typeof Pool }>("pg", "The postgres scalar store");
        const PoolClass = (pg.default?.Pool ?? pg.Pool) as typeof Pool;
        const { host, port, user, password, database } = options;
        const pool = new PoolClass({
          ...(url === undefined ? { host, port, user, password, database } : { connectionString: url }),
          max: poolSize,
          connectionTimeoutMillis: connectTimeoutMs,
        });
        // An idle connection the server dropped is discarded by the pool; without a listener it would crash the process.
        pool.on("error", () => undefined);
        return pgDriver(pool, true, timeoutMs);
      },
    });
  }
}
