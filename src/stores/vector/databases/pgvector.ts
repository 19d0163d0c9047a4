import type { PGlite } from "@electric-sql/pglite";
import type { Pool } from "pg";
import { StoreError, ValidationError } from "../../../core/errors.js";
import { importOptional } from "../../../core/optional-import.js";
import type { VectorDatabase } from "../database-index.js";
import type { LangChainVectorStoreLike } from "../store-profiles.js";
import { vectorsOnlyEmbeddings } from "../vectors-only-embeddings.js";
import { DatabaseOptions, Held, redactUrl, type DatabaseParams } from "./options.js";

/** What the store needs of a connection: pg's Pool and Client and PGlite all have it. */
export interface SqlClient {
  query(text: string, params?: unknown[]): Promise<{ rows: Array<Record<string, unknown>> }>;
}

const KIND = "pgvector";
const FEATURE = 'The "pgvector" vector store';
const URL_VARIABLES = ["SEMCACHE_PGVECTOR_URL", "SEMCACHE_POSTGRES_URL"];
const UNDEFINED_TABLE = "42P01";

type StoreClass = new (embeddings: unknown, config: Record<string, unknown>) => LangChainVectorStoreLike;

/** Where the connection comes from: a URL (our pool), the user's client, or an embedded PGlite (ours). */
type Source = { url: string } | { client: SqlClient } | { embedded: string | undefined };

function isUndefinedTable(error: unknown): boolean {
  return (error as { code?: string } | null)?.code === UNDEFINED_TABLE;
}

function sourceOf(options: DatabaseOptions): Source {
  const client = options.instance<SqlClient>("client", "query");
  if (client) return { client };
  // An explicit choice wins over the environment's URL.
  if (options.string("url") === undefined && options.boolean("embedded", false)) return { embedded: options.string("path") };
  if (options.fromEnv("url", URL_VARIABLES) !== undefined) return { url: options.url("url", URL_VARIABLES) };
  throw new ValidationError(
    `${FEATURE} needs a database: pass vectorParams.url (or set ${URL_VARIABLES.join(" or ")}), vectorParams.client ` +
      "(a pg Pool or Client, or a PGlite instance with the vector extension), or vectorParams.embedded: true (PGlite in vectorParams.path).",
  );
}

/**
 * pgvector through LangChain's PGVectorStore: one table (id uuid, text, metadata jsonb, embedding vector(n)) with an
 * HNSW index on cosine distance (vector_cosine_ops), searched with `<=>`, whose scores are cosine distances.
 *
 * vectorParams: `client` (your pg Pool or Client, or a PGlite instance with the vector extension), or `url`, or
 * `embedded: true` (PGlite in `path`), else SEMCACHE_PGVECTOR_URL, else SEMCACHE_POSTGRES_URL;
 * `collection` (table, default semcache_vectors), `m` (16), `efConstruction` (64), `efSearch` (100; set on each
 * connection of the pool built from `url`, once on a client you pass), `poolSize` (10), `timeoutMs` (5000: the
 * index's deadline per call, and pg's connect, query and statement timeouts of the pool built from `url`).
 */
export function pgvectorDatabase(params: DatabaseParams): VectorDatabase {
  const options = new DatabaseOptions(KIND, params);
  const table = options.name("collection", "semcache_vectors", /^[a-z_][a-z0-9_]{0,50}$/);
  const m = options.integer("m", 16, 2);
  const efConstruction = options.integer("efConstruction", 64, 4);
  const efSearch = options.integer("efSearch", 100);
  const poolSize = options.integer("poolSize", 10);
  const timeoutMs = options.timeoutMs();
  const source = sourceOf(options);
  const where =
    "url" in source ? redactUrl(source.url) : "client" in source ? "the client you passed" : `PGlite in ${source.embedded ?? "memory"}`;

  const sql = new Held<SqlClient>();
  let dispose: (() => Promise<void>) | undefined;
  let dropPool: (() => void) | undefined;

  /**
   * Our pool over `url`, behind a client that stays the same for PGVectorStore: drop() ends the pool (its idle
   * connections may be as silent as the one that timed out) and the next query makes a new one.
   */
  function urlPool(PoolClass: typeof Pool, url: string): { client: SqlClient; drop(): void; end(): Promise<void> } {
    let pool: Pool | undefined;
    let ended = false;
    const current = (): Pool => {
      if (pool) return pool;
      // A call still under way when the store closed must not open a pool nothing would end.
      if (ended) throw new StoreError(KIND, "the store is closed");
      // A statement or a connect without an answer in timeoutMs fails, and pg drops that connection instead of
      // pooling it again; statement_timeout makes the server give up on it too.
      pool = new PoolClass({
        connectionString: url,
        max: poolSize,
        connectionTimeoutMillis: timeoutMs,
        query_timeout: timeoutMs,
        statement_timeout: timeoutMs,
      });
      // An idle connection dropped by the server must not crash the process: the next query reconnects.
      pool.on("error", () => undefined);
      pool.on("connect", (connection) => void connection.query(`SET hnsw.ef_search = ${efSearch}`).catch(() => undefined));
      return pool;
    };
    const drop = async (): Promise<void> => {
      const dropped = pool;
      pool = undefined;
      await dropped?.end();
    };
    const end = (): Promise<void> => {
      ended = true;
      return drop();
    };
    return { client: { query: async (text, values) => current().query(text, values) }, drop: () => void drop().catch(() => undefined), end };
  }

  async function connect(): Promise<SqlClient> {
    if ("client" in source) return source.client;
    if ("url" in source) {
      const pg = await importOptional<{ default: { Pool: typeof Pool } }>("pg", FEATURE);
      const pool = urlPool(pg.default.Pool, source.url);
      dropPool = pool.drop;
      dispose = pool.end;
      return pool.client;
    }
    const { PGlite: PGliteClass } = await importOptional<{ PGlite: typeof PGlite }>("@electric-sql/pglite", FEATURE);
    const { vector } = await importOptional<{ vector: unknown }>("@electric-sql/pglite-pgvector", FEATURE);
    const db = await PGliteClass.create({ dataDir: source.embedded, extensions: { vector: vector as never } });
    dispose = () => db.close();
    return db as unknown as SqlClient;
  }

  return {
    kind: KIND,
    location: `${where}, table ${table}`,
    score: "cosine-distance",
    upserts: false,
    // PGlite in this process: creating or loading its data folder takes seconds here, and no server can fall silent.
    slowStepsMs: "embedded" in source ? { open: Infinity, close: Infinity } : undefined,

    async open() {
      const db = sql.set(await connect());
      await db.query("CREATE EXTENSION IF NOT EXISTS vector");
      if (!("url" in source)) await db.query(`SET hnsw.ef_search = ${efSearch}`);
    },

    async dimension() {
      const { rows } = await sql.get().query(
        "SELECT format_type(atttypid, atttypmod) AS type FROM pg_attribute WHERE attrelid = to_regclass($1) AND attname = 'embedding' AND NOT attisdropped",
        [table],
      );
      const match = /vector\((\d+)\)/.exec(String(rows[0]?.type ?? ""));
      return match ? Number(match[1]) : 0;
    },

    async store(dimension) {
      const db = sql.get();
      await db.query(
        `CREATE TABLE IF NOT EXISTS ${table} (id uuid PRIMARY KEY, text text, metadata jsonb, embedding vector(${dimension}))`,
      );
      await db.query(
        `CREATE INDEX IF NOT EXISTS ${table}_hnsw ON ${table} USING hnsw (embedding vector_cosine_ops) ` +
          `WITH (m = ${m}, ef_construction = ${efConstruction})`,
      );
      const module = await importOptional<{ PGVectorStore: StoreClass }>("@langchain/community/vectorstores/pgvector", FEATURE);
      return new module.PGVectorStore(vectorsOnlyEmbeddings, { pool: db, tableName: table, distanceStrategy: "cosine" });
    },

    async count() {
      try {
        const { rows } = await sql.get().query(`SELECT count(*)::int AS n FROM ${table}`);
        return Number(rows[0].n);
      } catch (error) {
        if (isUndefinedTable(error)) return 0;
        throw error;
      }
    },

    async clear() {
      await sql.get()
        .query(`TRUNCATE ${table}`)
        .catch((error: unknown) => {
          if (!isUndefinedTable(error)) throw error;
        });
    },

    /** Our pool only: a client you pass, or PGlite in process, is left as it is. */
    reset() {
      dropPool?.();
    },

    async close() {
      const end = dispose;
      sql.take();
      dispose = undefined;
      dropPool = undefined;
      await end?.();
    },
  };
}
