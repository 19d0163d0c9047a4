import { closeSync, openSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname } from "node:path";
import { Worker } from "node:worker_threads";
import type BetterSqlite3 from "better-sqlite3";
import { SemcacheError, StoreError, ValidationError } from "../../core/errors.js";
import { importOptional, nativeLoadError } from "../../core/optional-import.js";
import { makePrivateDirSync, PRIVATE_FILE_MODE } from "../../core/private-files.js";
import type { CacheRecord, NewRecord, ReportRow } from "../../core/types.js";
import { bytesToVector, vectorToBytes } from "../../core/vector-math.js";
import { checkEvictSizes } from "../../manager/eviction/policies.js";
import type { EvictionPolicy } from "../../manager/eviction/types.js";
import { checkLength, checkRecords, resolveTableLen } from "./limits.js";
import { RecentRecords } from "./recent-records.js";
import { resolveMaxReports, type ReportRetentionOptions } from "./report-retention.js";
import { batchStatements, toRecords } from "./sql-statements.js";
import { evictionSelect, scalarStatements, sqliteDdl, tableNames, type RecordRow, type TableNames } from "./sqlite-schema.js";
import type { ScalarStore, ScalarStoreCapabilities, TableLenConfig } from "./types.js";

export interface SqliteScalarStoreOptions extends ReportRetentionOptions {
  /** Database file (parent directories are created), or ":memory:" for a throwaway store. */
  path: string;
  /** Prefix of every table name. Default "semcache_". */
  tablePrefix?: string;
  /** Column lengths (see DEFAULT_TABLE_LEN); values longer than these are rejected before writing. */
  tableLenConfig?: Partial<TableLenConfig>;
  /** Milliseconds a writer waits for another connection's lock before failing. Default 5000. */
  busyTimeout?: number;
  /**
   * Records kept after an exact lookup, so a repeated one skips reading the row (checked against the file's
   * data version once an event-loop turn and after another store of this process writes: see RecentRecords).
   * Default 4096; 0 turns it off.
   */
  recentRecords?: number;
}

type Statements = { [K in keyof ReturnType<typeof scalarStatements>]: BetterSqlite3.Statement };
type Hit = { id: number; at: number; count: number };

/** Records kept after exact lookups (see RecentRecords): about 3 KB each with a 512-d embedding. */
const DEFAULT_RECENT_RECORDS = 4096;

/** Rows per batched statement (SQLite allows 32,766 parameters; reports take 8 a row). */
const BATCH_ROWS = 128;

/** Prepared statements and transactions of one open database: built once, reused by every call. */
function prepare(db: BetterSqlite3.Database, tables: TableNames, maxReports: number) {
  const sql = scalarStatements(tables);
  const s = Object.fromEntries(Object.entries(sql).map(([name, text]) => [name, db.prepare(text)])) as Statements;
  for (const name of ["count", "countReports", "expiredIds", "sessionsOf", "deletedObjectKeys"] as const) s[name].pluck();
  const dataVersion = db.prepare("PRAGMA data_version").pluck();
  const evictions = new WeakMap<EvictionPolicy, BetterSqlite3.Statement>();
  // A batched statement per kind and row count, prepared on first use (at most BATCH_ROWS of each).
  const batches = new Map<string, BetterSqlite3.Statement>();
  const batched = (kind: keyof typeof batchStatements, rows: number) => {
    let statement = batches.get(`${kind}:${rows}`);
    if (!statement) batches.set(`${kind}:${rows}`, (statement = db.prepare(batchStatements[kind](tables, rows))));
    return statement;
  };
  /** Runs `kind` over `rows` in statements of up to BATCH_ROWS rows each. */
  const inBatches = <T>(kind: keyof typeof batchStatements, rows: readonly T[], values: (row: T) => unknown[]) => {
    for (let start = 0; start < rows.length; start += BATCH_ROWS) {
      const chunk = rows.slice(start, start + BATCH_ROWS);
      batched(kind, chunk.length).run(chunk.flatMap(values));
    }
  };
  const markDeleted = (ids: readonly number[]) => {
    for (const id of ids) s.markDeleted.run(id);
  };
  return {
    db,
    s,
    /** Changes whenever another connection commits to the file. */
    dataVersion: () => dataVersion.get() as number,
    /** One prepared eviction select per policy object. */
    evictionSelect(policy: EvictionPolicy): BetterSqlite3.Statement {
      let select = evictions.get(policy);
      if (!select) {
        select = db.prepare(evictionSelect(tables, policy)).pluck();
        evictions.set(policy, select);
      }
      return select;
    },
    insert: db.transaction((records: readonly NewRecord[]) =>
      records.map((r) => {
        const embedding = r.embedding ? vectorToBytes(r.embedding) : null;
        const { lastInsertRowid } = s.insertQuestion.run(
          r.question, r.answer, r.answerType, r.keyHash, r.partition, r.createOn, r.createOn, embedding,
        );
        const id = Number(lastInsertRowid);
        for (const dep of r.deps ?? []) s.insertDep.run(id, dep.name, dep.data, dep.type);
        if (r.session !== undefined) s.addSession.run(id, r.session);
        return id;
      }),
    ),
    // Count, choose and mark under one write lock: a second process waits, then sees the smaller count.
    evict: db.transaction((select: BetterSqlite3.Statement, maxSize: number, cleanSize: number): number[] => {
      if ((s.count.get() as number) <= maxSize) return [];
      const ids = select.all(cleanSize) as number[];
      markDeleted(ids);
      return ids;
    }),
    expire: db.transaction((createdBefore: number): number[] => {
      const ids = s.expiredIds.all(createdBefore) as number[];
      markDeleted(ids);
      return ids;
    }),
    markDeleted: db.transaction(markDeleted),
    purge: db.transaction((): number => {
      s.purgeReports.run();
      s.purgeSessions.run();
      s.purgeDeps.run();
      return s.purgeQuestions.run().changes;
    }),
    touch: db.transaction((hits: readonly Hit[]) => inBatches("touchMany", hits, ({ id, at, count }) => [id, at, count])),
    addReports: db.transaction((rows: readonly ReportRow[]) => {
      inBatches("addReportMany", rows, (r) => [
        r.userQuestion, r.cacheQuestionId, r.cacheQuestion, r.cacheAnswer,
        r.similarity, r.cacheDeltaTime, r.cacheTime, r.extra ?? null,
      ]);
      s.trimReports.run(maxReports);
    }),
    clear: db.transaction(() => {
      s.clear.run();
      s.clearReports.run();
    }),
  };
}

type Connection = ReturnType<typeof prepare>;

/**
 * Milliseconds between the checkpointer's runs, and the WAL size (pages) at which the store's own connection
 * checkpoints anyway (SQLite's default is 1000): only if the checkpointer falls behind or cannot run.
 */
const CHECKPOINT_MS = 500;
const FALLBACK_CHECKPOINT_PAGES = 10_000;

/**
 * A worker thread with its own connection that checkpoints the WAL. A checkpoint copies pages back into the
 * database file and syncs it: with embeddings in the rows, a hit's bookkeeping dirties a page each, and
 * checkpointing on the event loop stalled every request for milliseconds (the server's p99). A PASSIVE
 * checkpoint from another connection blocks neither readers nor the writer.
 */
const CHECKPOINTER = `
const { parentPort, workerData } = require("node:worker_threads");
const Database = require(workerData.driver);
const db = new Database(workerData.path, { timeout: workerData.busyTimeout });
const checkpoint = () => { try { db.pragma("wal_checkpoint(PASSIVE)"); } catch {} };
const timer = setInterval(checkpoint, workerData.intervalMs);
parentPort.once("message", () => { clearInterval(timer); db.close(); process.exit(0); });
`;

/** Starts the checkpointer; on any failure the connection goes back to checkpointing itself. */
function startCheckpointer(db: BetterSqlite3.Database, path: string, busyTimeout: number): Checkpointer | undefined {
  let driver: string;
  try {
    driver = createRequire(import.meta.url).resolve("better-sqlite3");
  } catch {
    return undefined;
  }
  const worker = new Worker(CHECKPOINTER, { eval: true, workerData: { driver, path, busyTimeout, intervalMs: CHECKPOINT_MS } });
  worker.unref();
  db.pragma(`wal_autocheckpoint = ${FALLBACK_CHECKPOINT_PAGES}`);
  worker.on("error", () => {
    if (db.open) db.pragma("wal_autocheckpoint = 1000");
  });
  const exited = new Promise<void>((resolve) => worker.once("exit", () => resolve()));
  return {
    close: () => {
      // Held while it closes: an unref'd thread's exit would not keep the caller's process waiting for it.
      worker.ref();
      worker.postMessage("close");
      return exited;
    },
  };
}

/**
 * Creates the database file readable by its owner only, before SQLite opens it: SQLite gives the WAL and
 * shared-memory files the database file's permissions. An existing file keeps the mode it has.
 */
function createPrivateFile(path: string): void {
  makePrivateDirSync(dirname(path));
  closeSync(openSync(path, "a", PRIVATE_FILE_MODE));
}

interface Checkpointer {
  /** Closes its connection and ends the thread (at once if it has ended already). */
  close(): Promise<void>;
}

/**
 * Scalar store on one SQLite file through better-sqlite3: WAL with synchronous=NORMAL (a committed
 * transaction survives the process being killed), every statement prepared once, writes in IMMEDIATE
 * transactions so several processes on one machine can share the file and never evict the same excess twice.
 */
export class SqliteScalarStore implements ScalarStore {
  readonly kind = "sqlite";
  readonly capabilities: ScalarStoreCapabilities;
  readonly tableLen: Readonly<TableLenConfig>;
  readonly path: string;
  private readonly tables: TableNames;
  private readonly busyTimeout: number;
  private readonly recent: RecentRecords;
  private readonly maxReports: number;
  /** Rows were removed since the last flush: their old pages may still be in the WAL. */
  private removedSinceFlush = false;
  private conn?: Connection;
  private checkpointer?: Checkpointer;
  private opening?: Promise<void>;

  constructor(options: SqliteScalarStoreOptions) {
    if (typeof options?.path !== "string" || options.path === "") {
      throw new ValidationError("sqlite scalar store: path must be a non-empty string");
    }
    const busyTimeout = options.busyTimeout ?? 5000;
    if (!Number.isInteger(busyTimeout) || busyTimeout < 0) {
      throw new ValidationError("sqlite scalar store: busyTimeout must be a non-negative integer");
    }
    const recentRecords = options.recentRecords ?? DEFAULT_RECENT_RECORDS;
    if (!Number.isInteger(recentRecords) || recentRecords < 0) {
      throw new ValidationError("sqlite scalar store: recentRecords must be a non-negative integer");
    }
    this.path = options.path;
    this.busyTimeout = busyTimeout;
    this.recent = new RecentRecords(recentRecords);
    this.maxReports = resolveMaxReports("sqlite scalar store", options.maxReports);
    this.tables = tableNames(options.tablePrefix ?? "semcache_");
    this.tableLen = resolveTableLen(options.tableLenConfig);
    this.capabilities = Object.freeze({ persistent: options.path !== ":memory:", shared: false });
  }

  init(): Promise<void> {
    this.opening ??= this.open().catch((error: unknown) => {
      this.opening = undefined;
      throw SemcacheError.isInstance(error) ? error : new StoreError("sqlite", `cannot open ${this.path}`, { cause: error });
    });
    return this.opening;
  }

  private async open(): Promise<void> {
    const { default: Database } = await importOptional<{ default: typeof BetterSqlite3 }>(
      "better-sqlite3",
      "The sqlite scalar store",
    );
    if (this.capabilities.persistent) createPrivateFile(this.path);
    let db: BetterSqlite3.Database;
    try {
      db = new Database(this.path, { timeout: this.busyTimeout });
    } catch (error) {
      // better-sqlite3 loads its native addon on first use, not on import.
      throw nativeLoadError(error, "better-sqlite3", "The sqlite scalar store");
    }
    try {
      db.pragma("journal_mode = WAL");
      db.pragma("synchronous = NORMAL");
      // Deleted rows are overwritten with zeros (free pages too), so a removed question or answer cannot be
      // read back from the file.
      db.pragma("secure_delete = ON");
      db.transaction(() => {
        for (const statement of sqliteDdl(this.tables)) db.exec(statement);
      }).immediate();
      this.conn = prepare(db, this.tables, this.maxReports);
      if (this.capabilities.persistent) this.checkpointer = startCheckpointer(db, this.path, this.busyTimeout);
    } catch (error) {
      db.close();
      throw error;
    }
  }

  /** Runs `fn` on the open connection; driver faults become StoreError, our own typed errors pass through. */
  private run<T>(operation: string, fn: (c: Connection) => T): T {
    const c = this.conn;
    if (!c) throw new StoreError("sqlite", `${operation}: the store is not open (call init() first)`);
    try {
      return fn(c);
    } catch (error) {
      if (SemcacheError.isInstance(error)) throw error;
      throw new StoreError("sqlite", `${operation} failed: ${(error as Error).message}`, { cause: error });
    }
  }

  /** `run` for a write to the records: other stores of this process then re-check the file's version. */
  private write<T>(operation: string, fn: (c: Connection) => T): T {
    const result = this.run(operation, fn);
    this.recent.ownWrite();
    return result;
  }

  async insert(records: readonly NewRecord[]): Promise<number[]> {
    checkRecords(records, this.tableLen);
    this.recent.forgetKeys(records.map((record) => record.keyHash));
    return this.write("insert", (c) => c.insert.immediate(records));
  }

  async get(id: number): Promise<CacheRecord | null> {
    return this.run("get", ({ s }) => toRecords(s.get.all(id) as RecordRow[])[0] ?? null);
  }

  async findByKey(keyHash: string): Promise<CacheRecord | null> {
    return this.run("findByKey", ({ s, dataVersion }) =>
      this.recent.find(keyHash, dataVersion, () => toRecords(s.findByKey.all(keyHash) as RecordRow[])[0] ?? null),
    );
  }

  async touch(hits: readonly Hit[]): Promise<void> {
    if (hits.length === 0) return;
    this.write("touch", (c) => c.touch.immediate(hits));
    this.recent.touched(hits);
  }

  async count(): Promise<number> {
    return this.run("count", ({ s }) => s.count.get() as number);
  }

  async evict(policy: EvictionPolicy, maxSize: number, cleanSize: number): Promise<number[]> {
    checkEvictSizes(maxSize, cleanSize);
    const ids = this.write("evict", (c) => c.evict.immediate(c.evictionSelect(policy), maxSize, cleanSize));
    this.recent.forgetIds(ids);
    return ids;
  }

  async expire(createdBefore: number): Promise<number[]> {
    const ids = this.write("expire", (c) => c.expire.immediate(createdBefore));
    this.recent.forgetIds(ids);
    return ids;
  }

  async markDeleted(ids: readonly number[]): Promise<void> {
    this.recent.forgetIds(ids);
    if (ids.length > 0) this.write("markDeleted", (c) => c.markDeleted.immediate(ids));
  }

  async purgeDeleted(): Promise<number> {
    const purged = this.write("purgeDeleted", (c) => c.purge.immediate());
    if (purged > 0) this.removedSinceFlush = true;
    return purged;
  }

  async deletedObjectKeys(): Promise<string[]> {
    return this.run("deletedObjectKeys", ({ s }) => s.deletedObjectKeys.all() as string[]);
  }

  async clear(): Promise<void> {
    this.recent.clear();
    this.write("clear", (c) => c.clear.immediate());
    this.removedSinceFlush = true;
  }

  async embeddingsAfter(afterId: number, limit: number): Promise<Array<{ id: number; embedding: Float32Array }>> {
    return this.run("embeddingsAfter", ({ s }) =>
      (s.embeddingsAfter.all(afterId, limit) as Array<{ id: number; embedding: Uint8Array }>).map((row) => ({
        id: row.id,
        embedding: bytesToVector(row.embedding),
      })),
    );
  }

  async *iterate(batchSize = 1000): AsyncIterable<CacheRecord> {
    if (!Number.isInteger(batchSize) || batchSize < 1) throw new ValidationError("iterate: batchSize must be a positive integer");
    let afterId = 0;
    for (;;) {
      const after = afterId;
      const page = this.run("iterate", ({ s }) => toRecords(s.page.all(after, batchSize) as RecordRow[]));
      yield* page;
      if (page.length < batchSize) return;
      afterId = page[page.length - 1].id;
    }
  }

  async addSession(id: number, session: string): Promise<void> {
    checkLength("session_id", session, this.tableLen);
    this.run("addSession", ({ s }) => s.addSession.run(id, session));
  }

  async sessionsOf(id: number): Promise<string[]> {
    return this.run("sessionsOf", ({ s }) => s.sessionsOf.all(id) as string[]);
  }

  async listSessions(session?: string): Promise<Array<{ id: number; session: string }>> {
    return this.run("listSessions", ({ s }) =>
      (session === undefined ? s.listSessions.all() : s.listSession.all(session)) as Array<{ id: number; session: string }>,
    );
  }

  async deleteSession(session: string): Promise<number> {
    return this.run("deleteSession", ({ s }) => s.deleteSession.run(session).changes);
  }

  async addReports(rows: readonly ReportRow[]): Promise<void> {
    if (rows.length > 0 && this.maxReports > 0) this.run("addReports", (c) => c.addReports.immediate(rows));
  }

  async countReports(): Promise<number> {
    return this.run("countReports", ({ s }) => s.countReports.get() as number);
  }

  /**
   * Commits are already durable against a process crash; a checkpoint also moves the WAL into the file. After
   * rows were removed the checkpoint truncates the WAL, which still holds their pages as they were before (it
   * waits up to busyTimeout for readers of other connections; the WAL is kept if they do not finish).
   */
  async flush(): Promise<void> {
    const mode = this.removedSinceFlush ? "TRUNCATE" : "PASSIVE";
    this.run("flush", ({ db }) => db.pragma(`wal_checkpoint(${mode})`));
    this.removedSinceFlush = false;
  }

  async close(): Promise<void> {
    const c = this.conn;
    const checkpointer = this.checkpointer;
    this.conn = undefined;
    this.checkpointer = undefined;
    this.recent.clear();
    this.opening = undefined;
    c?.db.close();
    await checkpointer?.close();
  }
}
