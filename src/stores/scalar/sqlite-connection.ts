/**
 * One open SQLite database of the scalar store: its settings and tables, its prepared statements, and its write
 * transactions. The store reads on its own connection and writes through a SqliteWriter (sqlite-writer.ts), which
 * runs these transactions on the writer thread's connection (a file) or on the store's own (":memory:").
 */
import type BetterSqlite3 from "better-sqlite3";
import type { NewRecord, ReportRow } from "../../core/types.js";
import { vectorToBytes } from "../../core/vector-math.js";
import type { EvictionPolicy } from "../../core/contracts/eviction.js";
import { batchStatements } from "./sql-statements.js";
import { evictionSelect, scalarStatements, sqliteDdl, type TableNames } from "./sqlite-schema.js";

export type SqliteStatements = { [K in keyof ReturnType<typeof scalarStatements>]: BetterSqlite3.Statement };
export type SqliteHit = { id: number; atMs: number; count: number };

/** Rows per batched statement (SQLite allows 32,766 parameters; reports take 8 a row). */
const BATCH_ROWS = 128;

/**
 * Settings every connection that writes takes: WAL with synchronous=NORMAL (a committed transaction survives the
 * process being killed), and deleted rows overwritten with zeros (free pages too), so a removed question or answer
 * cannot be read back from the file. Then the tables, created in one IMMEDIATE transaction.
 */
export function setUpDatabase(db: BetterSqlite3.Database, tables: TableNames): void {
  db.pragma("journal_mode = WAL");
  db.pragma("synchronous = NORMAL");
  db.pragma("secure_delete = ON");
  db.transaction(() => {
    for (const statement of sqliteDdl(tables)) db.exec(statement);
  }).immediate();
}

/** Every statement of the store, prepared once on `db`. */
export function prepareStatements(db: BetterSqlite3.Database, tables: TableNames): SqliteStatements {
  const sql = scalarStatements(tables);
  const s = Object.fromEntries(Object.entries(sql).map(([name, text]) => [name, db.prepare(text)])) as SqliteStatements;
  for (const name of ["count", "countReports", "expiredIds", "sessionsOf", "deletedObjectKeys"] as const) s[name].pluck();
  return s;
}

/**
 * The write transactions of one connection, each IMMEDIATE (the write lock taken first: several processes share
 * the file, and two never evict the same excess). Every argument and result is plain data, so a writer thread runs
 * them from posted messages.
 */
export function writeTransactions(db: BetterSqlite3.Database, tables: TableNames, maxReports: number) {
  const s = prepareStatements(db, tables);
  // A batched statement per kind and row count, and an eviction select per order, prepared on first use.
  const prepared = new Map<string, BetterSqlite3.Statement>();
  const once = (key: string, text: () => string) => {
    let statement = prepared.get(key);
    if (!statement) prepared.set(key, (statement = db.prepare(text())));
    return statement;
  };
  /** Runs `kind` over `rows` in statements of up to BATCH_ROWS rows each. */
  const inBatches = <T>(kind: keyof typeof batchStatements, rows: readonly T[], values: (row: T) => unknown[]) => {
    for (let start = 0; start < rows.length; start += BATCH_ROWS) {
      const chunk = rows.slice(start, start + BATCH_ROWS);
      once(`${kind}:${chunk.length}`, () => batchStatements[kind](tables, chunk.length)).run(chunk.flatMap(values));
    }
  };
  const markDeleted = (ids: readonly number[]) => {
    for (const id of ids) s.markDeleted.run(id);
  };
  const immediate = <A extends unknown[], R>(fn: (...args: A) => R) => {
    const transaction = db.transaction(fn);
    return (...args: A): R => transaction.immediate(...args);
  };
  return {
    insert: immediate((records: readonly NewRecord[]) =>
      records.map((r) => {
        const embedding = r.embedding ? vectorToBytes(r.embedding) : null;
        const { lastInsertRowid } = s.insertQuestion.run(
          r.question, r.answer, r.answerType, r.keyHash, r.partition, r.createdAtMs, r.createdAtMs, embedding,
        );
        const id = Number(lastInsertRowid);
        for (const dep of r.deps ?? []) s.insertDep.run(id, dep.name, dep.data, dep.type);
        if (r.session !== undefined) s.addSession.run(id, r.session);
        return id;
      }),
    ),
    // Count, choose and mark under one write lock: a second process waits, then sees the smaller count.
    evict: immediate((policy: EvictionPolicy, maxSize: number, cleanSize: number): number[] => {
      if ((s.count.get() as number) <= maxSize) return [];
      const select = once(`evict:${JSON.stringify(policy.order)}`, () => evictionSelect(tables, policy)).pluck();
      const ids = select.all(cleanSize) as number[];
      markDeleted(ids);
      return ids;
    }),
    expire: immediate((createdBefore: number): number[] => {
      const ids = s.expiredIds.all(createdBefore) as number[];
      markDeleted(ids);
      return ids;
    }),
    markDeleted: immediate(markDeleted),
    purge: immediate((): number => {
      s.purgeReports.run();
      s.purgeSessions.run();
      s.purgeDeps.run();
      return s.purgeQuestions.run().changes;
    }),
    touch: immediate((hits: readonly SqliteHit[]) => inBatches("touchMany", hits, ({ id, atMs, count }) => [id, atMs, count])),
    addReports: immediate((rows: readonly ReportRow[]) => {
      inBatches("addReportMany", rows, (r) => [
        r.userQuestion, r.cacheQuestionId, r.cacheQuestion, r.cacheAnswer,
        r.similarity, r.lookupMs, r.hitAtMs, r.extra ?? null,
      ]);
      s.trimReports.run(maxReports);
    }),
    clear: immediate(() => {
      s.clear.run();
      s.clearReports.run();
    }),
    addSession: (id: number, session: string): void => void s.addSession.run(id, session),
    deleteSession: (session: string): number => s.deleteSession.run(session).changes,
    /** The WAL size (pages) at which a commit checkpoints on this connection. */
    autoCheckpoint: (pages: number): void => void db.pragma(`wal_autocheckpoint = ${pages}`),
    /** TRUNCATE after rows were removed (the WAL still holds their old pages), else PASSIVE. */
    checkpoint: (mode: "PASSIVE" | "TRUNCATE"): void => void db.pragma(`wal_checkpoint(${mode})`),
  };
}

export type SqliteWrites = ReturnType<typeof writeTransactions>;
