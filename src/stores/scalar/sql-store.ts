/**
 * The store shared by the SQL dialects (PostgreSQL, MySQL/MariaDB). Over 300 lines: one backend's implementation
 * of the whole ScalarStore contract (records, eviction, expiry, sessions, reports, lifecycle): each method is a
 * few lines of the dialect-neutral statements, so splitting it would scatter one backend over files without
 * giving either part a job of its own.
 */
import { StoreError, ValidationError } from "../../core/errors.js";
import type { CacheRecord, NewRecord, ReportRow } from "../../core/types.js";
import { bytesToVector, vectorToBytes } from "../../core/vector-math.js";
import { isPositiveInteger } from "../../core/validation.js";
import { checkEvictSizes } from "../../core/eviction-policies.js";
import type { EvictionPolicy } from "../../core/contracts/eviction.js";
import { Lazy, storeFault, withDeadline } from "../connection.js";
import { checkLength, checkRecords, resolveTableLen } from "./limits.js";
import { resolveMaxReports } from "./report-retention.js";
import { dropDdl, LIVE_EVENTS, liveTriggerName, schemaDdl, type SqlSchemaDialect } from "./sql-schema.js";
import { evictionSelect, scalarStatements, serverStatements, toRecords, type RecordRow } from "./sql-statements.js";
import { tableNames, type TableNames } from "./sqlite-schema.js";
import type { ScalarStore, ScalarStoreCapabilities, TableLenConfig } from "../../core/contracts/scalar-store.js";

/** What a statement gave back, the same for every driver. */
export interface SqlResult {
  rows: Array<Record<string, unknown>>;
  /** Rows inserted, updated or deleted. */
  affected: number;
  /** The new id of a single-row insert, where the driver reports it (MySQL). */
  insertId?: number;
}

/** Runs one statement with `?` parameters. */
export interface SqlExecutor {
  query(sql: string, params?: readonly unknown[]): Promise<SqlResult>;
}

/** A connection pool of one database, as the SQL store needs it. */
export interface SqlDriver extends SqlExecutor {
  /** Runs `fn` in one transaction on one connection: committed when it resolves, rolled back when it throws. */
  transaction<T>(fn: (tx: SqlExecutor) => Promise<T>): Promise<T>;
  /** Runs `fn` on one connection while holding a lock named `name` across every process (schema creation). */
  withLock<T>(name: string, fn: (connection: SqlExecutor) => Promise<T>): Promise<T>;
  /** True for a deadlock or serialization failure: the database rolled the transaction back and it may run again. */
  isRetryable(error: unknown): boolean;
  close(): Promise<void>;
}

/** How a server-database store is put together by its subclass. */
export interface SqlStoreSetup {
  kind: string;
  schema: SqlSchemaDialect;
  /** Where it connects, without secrets (for error messages). */
  target: string;
  /** Opens the pool (loading the driver package lazily). */
  openDriver: () => Promise<SqlDriver>;
  /** Milliseconds one call (a statement, a transaction) may take; the driver drops a connection whose statement timed out. */
  timeoutMs: number;
  tablePrefix?: string;
  tableLenConfig?: Partial<TableLenConfig>;
  /** Report rows kept (see ReportRetentionOptions). */
  maxReports?: number;
}

type Hit = { id: number; atMs: number; count: number };

const RETRIES = 5;
/** Ids per `UPDATE ... IN (...)`: well under every database's parameter limit. */
const ID_CHUNK = 500;
/** Names are truncated at 63 (PostgreSQL) and 64 (MySQL) characters; the longest is the update trigger's. */
const MAX_PREFIX = 40;

/**
 * The scalar store on a server database (PostgreSQL, MySQL/MariaDB), shared by several processes. Writes that
 * change which rows are live run in one transaction behind the live counter's row lock (see `lockLive`), so
 * evictions from several replicas never remove the same excess twice, and the counter is kept by triggers so
 * it never drifts from the rows. Lost connections are replaced by the pool: after an outage the store works
 * again without a restart, and in the meantime every call fails with StoreError.
 */
export class SqlScalarStore implements ScalarStore {
  readonly specificationVersion = "v1";
  readonly kind: string;
  readonly capabilities: ScalarStoreCapabilities = Object.freeze({ persistent: true, shared: true });
  readonly tableLen: Readonly<TableLenConfig>;
  /** Where the store connects, without the password. */
  readonly target: string;
  private readonly setup: SqlStoreSetup;
  private readonly tables: TableNames;
  private readonly maxReports: number;
  private readonly s: ReturnType<typeof scalarStatements>;
  private readonly server: ReturnType<typeof serverStatements>;
  private readonly evictions = new WeakMap<EvictionPolicy, string>();
  private readonly driver = new Lazy(() => this.setup.openDriver());
  private readonly opening = new Lazy(() => this.open());

  constructor(setup: SqlStoreSetup) {
    const prefix = setup.tablePrefix ?? "semcache_";
    this.tables = tableNames(prefix);
    if (prefix.length > MAX_PREFIX) {
      throw new ValidationError(`${setup.kind}: tablePrefix is longer than ${MAX_PREFIX} characters (database names are cut at 63)`);
    }
    this.kind = setup.kind;
    this.target = setup.target;
    this.setup = setup;
    this.tableLen = resolveTableLen(setup.tableLenConfig);
    this.maxReports = resolveMaxReports(setup.kind, setup.maxReports);
    this.s = scalarStatements(this.tables, setup.schema);
    this.server = serverStatements(this.tables);
  }

  /** Connects and creates the tables, counter and triggers if needed (under a lock, so replicas may start at once). */
  init(): Promise<void> {
    return this.opening.get().catch((error: unknown) => {
      throw storeFault(this.kind, `cannot open ${this.target}`, error);
    });
  }

  private async open(): Promise<void> {
    const driver = await this.driver.get();
    const { schema } = this.setup;
    await driver.withLock(`semcache:${this.tables.question}`, async (connection) => {
      const version = String(Object.values((await connection.query("SELECT VERSION() AS v")).rows[0] ?? {})[0] ?? "");
      for (const statement of schemaDdl(schema, this.tables, version)) await connection.query(statement);
      await connection.query(schema.seedLive(this.tables));
      const existing = new Set((await connection.query(schema.existingTriggers, [this.tables.question])).rows.map((row) => row.name));
      for (const event of LIVE_EVENTS) {
        if (existing.has(liveTriggerName(this.tables, event))) continue;
        for (const statement of schema.liveTrigger(this.tables, event)) await connection.query(statement);
      }
    });
  }

  /**
   * Runs `fn` on the open pool within timeoutMs (the wait for a connection included); driver faults become
   * StoreError naming the store and the operation.
   */
  private async run<T>(operation: string, fn: (driver: SqlDriver) => Promise<T>): Promise<T> {
    if (!this.opening.started) throw new StoreError(this.kind, `${operation}: the store is not open (call init() first)`);
    try {
      return await withDeadline(this.kind, `${operation} on ${this.target}`, this.setup.timeoutMs, async () => {
        await this.opening.get();
        return fn(await this.driver.get());
      });
    } catch (error) {
      throw storeFault(this.kind, `${operation} on ${this.target} failed`, error);
    }
  }

  /** One transaction, run again when the database chose it as a deadlock victim. */
  private transaction<T>(operation: string, fn: (tx: SqlExecutor) => Promise<T>): Promise<T> {
    return this.run(operation, async (driver) => {
      for (let attempt = 1; ; attempt++) {
        try {
          return await driver.transaction(fn);
        } catch (error) {
          if (attempt >= RETRIES || !driver.isRetryable(error)) throw error;
        }
      }
    });
  }

  /** A transaction that may change which rows are live: it holds the counter's row lock; returns the count. */
  private liveTransaction<T>(operation: string, fn: (tx: SqlExecutor, live: number) => Promise<T>): Promise<T> {
    return this.transaction(operation, async (tx) => {
      const { rows } = await tx.query(this.server.lockLive);
      return fn(tx, Number(rows[0]?.n ?? 0));
    });
  }

  private async markIn(tx: SqlExecutor, ids: readonly number[]): Promise<void> {
    for (let start = 0; start < ids.length; start += ID_CHUNK) {
      const chunk = ids.slice(start, start + ID_CHUNK);
      await tx.query(this.server.markDeletedIn(chunk.length), chunk);
    }
  }

  async insert(records: readonly NewRecord[]): Promise<number[]> {
    checkRecords(records, this.tableLen);
    if (records.length === 0) return [];
    const { s } = this;
    return this.liveTransaction("insert", async (tx) => {
      const ids: number[] = [];
      for (const r of records) {
        const embedding = r.embedding ? vectorToBytes(r.embedding) : null;
        const inserted = await tx.query(s.insertQuestion, [
          r.question, r.answer, r.answerType, r.keyHash, r.partition, r.createdAtMs, r.createdAtMs, embedding,
        ]);
        const id = Number(inserted.insertId ?? inserted.rows[0]?.id);
        for (const dep of r.deps ?? []) await tx.query(s.insertDep, [id, dep.name, dep.data, dep.type]);
        if (r.session !== undefined) await tx.query(s.addSession, [id, r.session]);
        ids.push(id);
      }
      return ids;
    });
  }

  async get(id: number): Promise<CacheRecord | null> {
    return this.run("get", async (d) => toRecords((await d.query(this.s.get, [id])).rows as unknown as RecordRow[])[0] ?? null);
  }

  async findByKey(keyHash: string): Promise<CacheRecord | null> {
    return this.run("findByKey", async (d) =>
      toRecords((await d.query(this.s.findByKey, [keyHash])).rows as unknown as RecordRow[])[0] ?? null,
    );
  }

  async touch(hits: readonly Hit[]): Promise<void> {
    if (hits.length === 0) return;
    // Rows are locked in id order, so two batches touching the same rows never deadlock.
    const ordered = [...hits].sort((a, b) => a.id - b.id);
    await this.transaction("touch", async (tx) => {
      for (const { id, atMs, count } of ordered) await tx.query(this.s.touch, [atMs, atMs, count, id]);
    });
  }

  async count(): Promise<number> {
    return this.run("count", async (d) => Number((await d.query(this.s.count)).rows[0]?.n ?? 0));
  }

  async evict(policy: EvictionPolicy, maxSize: number, cleanSize: number): Promise<number[]> {
    checkEvictSizes(maxSize, cleanSize);
    let select = this.evictions.get(policy);
    if (!select) this.evictions.set(policy, (select = evictionSelect(this.tables, policy)));
    const query = select;
    return this.liveTransaction("evict", async (tx, live) => {
      if (live <= maxSize) return [];
      const ids = (await tx.query(query, [cleanSize])).rows.map((row) => Number(row.id));
      await this.markIn(tx, ids);
      return ids;
    });
  }

  async expire(createdBefore: number): Promise<number[]> {
    return this.liveTransaction("expire", async (tx) => {
      const ids = (await tx.query(this.s.expiredIds, [createdBefore])).rows.map((row) => Number(row.id));
      await this.markIn(tx, ids);
      return ids;
    });
  }

  async markDeleted(ids: readonly number[]): Promise<void> {
    if (ids.length === 0) return;
    await this.liveTransaction("markDeleted", (tx) => this.markIn(tx, [...new Set(ids)]));
  }

  async purgeDeleted(): Promise<number> {
    return this.transaction("purgeDeleted", async (tx) => {
      await tx.query(this.s.purgeReports);
      await tx.query(this.s.purgeSessions);
      await tx.query(this.s.purgeDeps);
      return (await tx.query(this.s.purgeQuestions)).affected;
    });
  }

  async deletedObjectKeys(): Promise<string[]> {
    return this.run("deletedObjectKeys", async (d) => (await d.query(this.s.deletedObjectKeys)).rows.map((row) => String(row.dep_data)));
  }

  async clear(): Promise<void> {
    await this.liveTransaction("clear", async (tx) => {
      await tx.query(this.s.clear);
      await tx.query(this.s.clearReports);
    });
  }

  async embeddingsAfter(afterId: number, limit: number): Promise<Array<{ id: number; embedding: Float32Array }>> {
    return this.run("embeddingsAfter", async (d) =>
      (await d.query(this.s.embeddingsAfter, [afterId, limit])).rows.map((row) => ({
        id: Number(row.id),
        embedding: bytesToVector(row.embedding as Uint8Array),
      })),
    );
  }

  async *iterate(batchSize = 1000): AsyncIterable<CacheRecord> {
    if (!isPositiveInteger(batchSize)) throw new ValidationError("iterate: batchSize must be a positive integer");
    let afterId = 0;
    for (;;) {
      const after = afterId;
      const page = await this.run("iterate", async (d) =>
        toRecords((await d.query(this.s.page, [after, batchSize])).rows as unknown as RecordRow[]),
      );
      yield* page;
      if (page.length < batchSize) return;
      afterId = page[page.length - 1].id;
    }
  }

  async addSession(id: number, session: string): Promise<void> {
    checkLength("sessionId", session, this.tableLen);
    await this.run("addSession", (d) => d.query(this.s.addSession, [id, session]));
  }

  async sessionsOf(id: number): Promise<string[]> {
    return this.run("sessionsOf", async (d) => (await d.query(this.s.sessionsOf, [id])).rows.map((row) => String(row.session_id)));
  }

  async listSessions(session?: string): Promise<Array<{ id: number; session: string }>> {
    return this.run("listSessions", async (d) => {
      const { rows } = session === undefined ? await d.query(this.s.listSessions) : await d.query(this.s.listSession, [session]);
      return rows.map((row) => ({ id: Number(row.id), session: String(row.session) }));
    });
  }

  async deleteSession(session: string): Promise<number> {
    return this.run("deleteSession", async (d) => (await d.query(this.s.deleteSession, [session])).affected);
  }

  async addReports(rows: readonly ReportRow[]): Promise<void> {
    if (rows.length === 0 || this.maxReports === 0) return;
    await this.transaction("addReports", async (tx) => {
      for (const r of rows) {
        await tx.query(this.s.addReport, [
          r.userQuestion, r.cacheQuestionId, r.cacheQuestion, r.cacheAnswer,
          r.similarity, r.lookupMs, r.hitAtMs, r.extra ?? null,
        ]);
      }
      await tx.query(this.s.trimReports, [this.maxReports]);
    });
  }

  async countReports(): Promise<number> {
    return this.run("countReports", async (d) => Number((await d.query(this.s.countReports)).rows[0]?.n ?? 0));
  }

  /** Every write is committed when its call resolves: nothing to do. */
  async flush(): Promise<void> {}

  /** Removes this store's tables and everything in them (tests, uninstall). `init()` creates them again. */
  async drop(): Promise<void> {
    try {
      const driver = await this.driver.get();
      for (const statement of dropDdl(this.setup.schema, this.tables)) await driver.query(statement);
    } catch (error) {
      throw storeFault(this.kind, `cannot drop the tables on ${this.target}`, error);
    }
    this.opening.reset();
  }

  /** Closes the pool (a pool the user passed in is left open). Idempotent; `init()` connects again. */
  async close(): Promise<void> {
    this.opening.reset();
    await (await this.driver.reset()?.catch(() => undefined))?.close();
  }
}
