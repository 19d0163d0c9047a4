/**
 * The SQLite scalar store. Over 300 lines: one backend's implementation of the whole ScalarStore contract
 * (records, eviction, expiry, sessions, reports, lifecycle): each method is a few lines of this database's
 * calls, so splitting it would scatter one backend over files without giving either part a job of its own.
 * (Writes go through sqlite-writer.ts.)
 */
import { closeSync, openSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname } from "node:path";
import { Worker } from "node:worker_threads";
import type BetterSqlite3 from "better-sqlite3";
import { SemcacheError, StoreError, ValidationError } from "../../core/errors.js";
import { importOptional, nativeLoadError } from "../../core/optional-import.js";
import { makePrivateDirSync, PRIVATE_FILE_MODE } from "../../core/private-files.js";
import { isNonNegativeInteger, isPositiveInteger } from "../../core/validation.js";
import type { CacheRecord, NewRecord, ReportRow } from "../../core/types.js";
import { bytesToVector } from "../../core/vector-math.js";
import { checkEvictSizes } from "../../core/eviction-policies.js";
import type { EvictionPolicy } from "../../core/contracts/eviction.js";
import { resolveTimeoutMs } from "../connection.js";
import { checkLength, checkRecords, resolveTableLen } from "./limits.js";
import { RecentRecords } from "./recent-records.js";
import { resolveMaxReports, type ReportRetentionOptions } from "./report-retention.js";
import { toRecords } from "./sql-statements.js";
import { prepareStatements, setUpDatabase, writeTransactions, type SqliteStatements } from "./sqlite-connection.js";
import { tableNames, type RecordRow, type TableNames } from "./sqlite-schema.js";
import { inPlaceWriter, ThreadWriter, type SqliteWriter } from "./sqlite-writer.js";
import type { ScalarStore, ScalarStoreCapabilities, TableLenConfig } from "../../core/contracts/scalar-store.js";

export interface SqliteScalarStoreOptions extends ReportRetentionOptions {
  /** Database file (parent directories are created), or ":memory:" for a throwaway store. */
  path: string;
  /** Prefix of every table name. Default "semcache_". */
  tablePrefix?: string;
  /** Column lengths (see DEFAULT_TABLE_LEN); values longer than these are rejected before writing. */
  tableLenConfig?: Partial<TableLenConfig>;
  /** Milliseconds a writer waits for another connection's lock before failing. Default 5000. */
  busyTimeoutMs?: number;
  /**
   * Milliseconds a write may take, its wait for the lock included, before its caller fails open (the write still
   * runs when it can). Default DEFAULT_STORE_TIMEOUT_MS (5000). Opening the store (starting its writer thread)
   * waits at least 30 s, however short this is.
   */
  timeoutMs?: number;
  /**
   * Records kept after an exact lookup, so a repeated one skips reading the row (checked against the file's
   * data version once an event-loop turn and after another store of this process writes: see RecentRecords).
   * Default 4096; 0 turns it off.
   */
  recentRecords?: number;
}

/** Records kept after exact lookups (see RecentRecords): about 3 KB each with a 512-d embedding. */
const DEFAULT_RECENT_RECORDS = 4096;

/**
 * Milliseconds a read waits when the file is locked. In WAL mode readers do not wait for writers; only a rare
 * moment (another connection recovering the WAL) makes one wait, and a read runs on the event loop.
 */
const READ_BUSY_TIMEOUT_MS = 100;

/** The store's own connection, which reads (and, for ":memory:", writes through an in-place writer). */
interface Reader {
  db: BetterSqlite3.Database;
  s: SqliteStatements;
  /** Changes whenever another connection commits to the file (the writer thread's included). */
  dataVersion(): number;
}

/**
 * Milliseconds between the checkpointer's runs, and the WAL size (pages) at which the store's own connection
 * checkpoints anyway (SQLite's default is 1000): only if the checkpointer falls behind or cannot run.
 */
const CHECKPOINT_MS = 500;
const FALLBACK_CHECKPOINT_PAGES = 10_000;
const SQLITE_AUTOCHECKPOINT_PAGES = 1000;

/**
 * A worker thread with its own connection that checkpoints the WAL. A checkpoint copies pages back into the
 * database file and syncs it: with embeddings in the rows, a hit's bookkeeping dirties a page each, and
 * checkpointing on the event loop stalled every request for milliseconds (the server's p99). A PASSIVE
 * checkpoint from another connection blocks neither readers nor the writer.
 */
const CHECKPOINTER = `
const { parentPort, workerData } = require("node:worker_threads");
const Database = require(workerData.driver);
const db = new Database(workerData.path, { timeout: workerData.busyTimeoutMs });
const checkpoint = () => { try { db.pragma("wal_checkpoint(PASSIVE)"); } catch {} };
const timer = setInterval(checkpoint, workerData.intervalMs);
parentPort.once("message", () => { clearInterval(timer); db.close(); process.exit(0); });
`;

/** Starts the checkpointer; on any failure the writer's connection goes back to checkpointing itself. */
function startCheckpointer(writer: SqliteWriter, path: string, busyTimeoutMs: number): Checkpointer | undefined {
  let driver: string;
  try {
    driver = createRequire(import.meta.url).resolve("better-sqlite3");
  } catch {
    return undefined;
  }
  const worker = new Worker(CHECKPOINTER, { eval: true, workerData: { driver, path, busyTimeoutMs, intervalMs: CHECKPOINT_MS } });
  worker.unref();
  worker.on("error", () => {
    writer.run("autoCheckpoint", SQLITE_AUTOCHECKPOINT_PAGES).catch(() => undefined);
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
  readonly specificationVersion = "v1";
  readonly kind = "sqlite";
  readonly capabilities: ScalarStoreCapabilities;
  readonly tableLen: Readonly<TableLenConfig>;
  readonly path: string;
  private readonly tables: TableNames;
  private readonly busyTimeoutMs: number;
  private readonly timeoutMs: number;
  private readonly recent: RecentRecords;
  private readonly maxReports: number;
  /** Rows were removed since the last flush: their old pages may still be in the WAL. */
  private removedSinceFlush = false;
  private reader?: Reader;
  private writer?: SqliteWriter;
  private checkpointer?: Checkpointer;
  private opening?: Promise<void>;

  constructor(options: SqliteScalarStoreOptions) {
    if (typeof options?.path !== "string" || options.path === "") {
      throw new ValidationError("sqlite scalar store: path must be a non-empty string");
    }
    const busyTimeoutMs = options.busyTimeoutMs ?? 5000;
    if (!isNonNegativeInteger(busyTimeoutMs)) {
      throw new ValidationError("sqlite scalar store: busyTimeoutMs must be a non-negative integer");
    }
    const recentRecords = options.recentRecords ?? DEFAULT_RECENT_RECORDS;
    if (!isNonNegativeInteger(recentRecords)) {
      throw new ValidationError("sqlite scalar store: recentRecords must be a non-negative integer");
    }
    this.path = options.path;
    this.busyTimeoutMs = busyTimeoutMs;
    this.timeoutMs = resolveTimeoutMs("sqlite scalar store", options.timeoutMs);
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
      db = new Database(this.path, { timeout: this.capabilities.persistent ? READ_BUSY_TIMEOUT_MS : this.busyTimeoutMs });
    } catch (error) {
      // better-sqlite3 loads its native addon on first use, not on import.
      throw nativeLoadError(error, "better-sqlite3", "The sqlite scalar store");
    }
    try {
      this.writer = this.capabilities.persistent ? await this.startWriter() : this.inPlace(db);
      const s = prepareStatements(db, this.tables);
      const dataVersion = db.prepare("PRAGMA data_version").pluck();
      this.reader = { db, s, dataVersion: () => dataVersion.get() as number };
      if (this.capabilities.persistent) this.checkpointer = startCheckpointer(this.writer, this.path, this.busyTimeoutMs);
    } catch (error) {
      db.close();
      await this.writer?.close();
      this.writer = undefined;
      throw error;
    }
  }

  /** A file: the writer thread sets the database up before this connection reads it. */
  private async startWriter(): Promise<SqliteWriter> {
    const writer = new ThreadWriter(
      {
        path: this.path,
        tables: this.tables,
        maxReports: this.maxReports,
        busyTimeoutMs: this.busyTimeoutMs,
        autoCheckpointPages: FALLBACK_CHECKPOINT_PAGES,
      },
      this.timeoutMs,
    );
    await writer.open();
    return writer;
  }

  /** ":memory:": one connection, set up here, reads and writes. */
  private inPlace(db: BetterSqlite3.Database): SqliteWriter {
    setUpDatabase(db, this.tables);
    return inPlaceWriter(writeTransactions(db, this.tables, this.maxReports));
  }

  /** Runs `fn` on the reading connection; driver faults become StoreError, our own typed errors pass through. */
  private read<T>(operation: string, fn: (r: Reader) => T): T {
    const r = this.reader;
    if (!r) throw new StoreError("sqlite", `${operation}: the store is not open (call init() first)`);
    try {
      return fn(r);
    } catch (error) {
      if (SemcacheError.isInstance(error)) throw error;
      throw new StoreError("sqlite", `${operation} failed: ${(error as Error).message}`, { cause: error });
    }
  }

  /** The writer, or a StoreError before init(). */
  private writes(operation: string): SqliteWriter {
    if (!this.writer) throw new StoreError("sqlite", `${operation}: the store is not open (call init() first)`);
    return this.writer;
  }

  /** A write to the records: other stores of this process then re-check the file's version. */
  private async write<T>(operation: string, fn: (w: SqliteWriter) => Promise<T>): Promise<T> {
    const result = await fn(this.writes(operation));
    this.recent.ownWrite();
    return result;
  }

  async insert(records: readonly NewRecord[]): Promise<number[]> {
    checkRecords(records, this.tableLen);
    const keys = records.map((record) => record.keyHash);
    this.recent.forgetKeys(keys);
    const ids = await this.write("insert", (w) => w.run("insert", records));
    // Again once it committed: a lookup meanwhile (another turn, before the version moved) may have kept the old row.
    this.recent.forgetKeys(keys);
    return ids;
  }

  async get(id: number): Promise<CacheRecord | null> {
    return this.read("get", ({ s }) => toRecords(s.get.all(id) as RecordRow[])[0] ?? null);
  }

  async findByKey(keyHash: string): Promise<CacheRecord | null> {
    return this.read("findByKey", ({ s, dataVersion }) =>
      this.recent.find(keyHash, dataVersion, () => toRecords(s.findByKey.all(keyHash) as RecordRow[])[0] ?? null),
    );
  }

  async touch(hits: ReadonlyArray<{ id: number; atMs: number; count: number }>): Promise<void> {
    if (hits.length === 0) return;
    await this.write("touch", (w) => w.run("touch", hits));
    this.recent.touched(hits);
  }

  async count(): Promise<number> {
    return this.read("count", ({ s }) => s.count.get() as number);
  }

  async evict(policy: EvictionPolicy, maxSize: number, cleanSize: number): Promise<number[]> {
    checkEvictSizes(maxSize, cleanSize);
    const order = policy.order.map(({ column, direction }) => ({ column, direction }));
    const ids = await this.write("evict", (w) => w.run("evict", { name: policy.name, order }, maxSize, cleanSize));
    this.recent.forgetIds(ids);
    return ids;
  }

  async expire(createdBefore: number): Promise<number[]> {
    const ids = await this.write("expire", (w) => w.run("expire", createdBefore));
    this.recent.forgetIds(ids);
    return ids;
  }

  async markDeleted(ids: readonly number[]): Promise<void> {
    this.recent.forgetIds(ids);
    if (ids.length > 0) await this.write("markDeleted", (w) => w.run("markDeleted", ids));
    this.recent.forgetIds(ids);
  }

  async purgeDeleted(): Promise<number> {
    const purged = await this.write("purgeDeleted", (w) => w.run("purge"));
    if (purged > 0) this.removedSinceFlush = true;
    return purged;
  }

  async deletedObjectKeys(): Promise<string[]> {
    return this.read("deletedObjectKeys", ({ s }) => s.deletedObjectKeys.all() as string[]);
  }

  async clear(): Promise<void> {
    this.recent.clear();
    await this.write("clear", (w) => w.run("clear"));
    this.recent.clear();
    this.removedSinceFlush = true;
  }

  async embeddingsAfter(afterId: number, limit: number): Promise<Array<{ id: number; embedding: Float32Array }>> {
    return this.read("embeddingsAfter", ({ s }) =>
      (s.embeddingsAfter.all(afterId, limit) as Array<{ id: number; embedding: Uint8Array }>).map((row) => ({
        id: row.id,
        embedding: bytesToVector(row.embedding),
      })),
    );
  }

  async *iterate(batchSize = 1000): AsyncIterable<CacheRecord> {
    if (!isPositiveInteger(batchSize)) throw new ValidationError("iterate: batchSize must be a positive integer");
    let afterId = 0;
    for (;;) {
      const after = afterId;
      const page = this.read("iterate", ({ s }) => toRecords(s.page.all(after, batchSize) as RecordRow[]));
      yield* page;
      if (page.length < batchSize) return;
      afterId = page[page.length - 1].id;
    }
  }

  async addSession(id: number, session: string): Promise<void> {
    checkLength("sessionId", session, this.tableLen);
    await this.writes("addSession").run("addSession", id, session);
  }

  async sessionsOf(id: number): Promise<string[]> {
    return this.read("sessionsOf", ({ s }) => s.sessionsOf.all(id) as string[]);
  }

  async listSessions(session?: string): Promise<Array<{ id: number; session: string }>> {
    return this.read("listSessions", ({ s }) =>
      (session === undefined ? s.listSessions.all() : s.listSession.all(session)) as Array<{ id: number; session: string }>,
    );
  }

  async deleteSession(session: string): Promise<number> {
    return this.writes("deleteSession").run("deleteSession", session);
  }

  async addReports(rows: readonly ReportRow[]): Promise<void> {
    if (rows.length > 0 && this.maxReports > 0) await this.writes("addReports").run("addReports", rows);
  }

  async countReports(): Promise<number> {
    return this.read("countReports", ({ s }) => s.countReports.get() as number);
  }

  /**
   * Commits are already durable against a process crash; a checkpoint also moves the WAL into the file. After
   * rows were removed the checkpoint truncates the WAL, which still holds their pages as they were before (it
   * waits up to busyTimeoutMs for readers of other connections; the WAL is kept if they do not finish).
   */
  async flush(): Promise<void> {
    const mode = this.removedSinceFlush ? "TRUNCATE" : "PASSIVE";
    await this.writes("flush").run("checkpoint", mode);
    this.removedSinceFlush = false;
  }

  async close(): Promise<void> {
    const reader = this.reader;
    const writer = this.writer;
    const checkpointer = this.checkpointer;
    this.reader = undefined;
    this.writer = undefined;
    this.checkpointer = undefined;
    this.recent.clear();
    this.opening = undefined;
    // The writer first: writes still queued on its thread finish before its connection closes.
    await writer?.close();
    reader?.db.close();
    await checkpointer?.close();
  }
}
