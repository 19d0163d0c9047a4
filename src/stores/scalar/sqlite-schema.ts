/**
 * SQLite's tables. The statements shared with the server databases are in `sql-statements.ts` (re-exported here
 * for the SQLite store); PostgreSQL's and MySQL's tables are in `sql-schema.ts`.
 */
import type { TableNames } from "./table-names.js";

export { evictionSelect, scalarStatements, type RecordRow } from "./sql-statements.js";
export { tableNames, type TableNames } from "./table-names.js";

/**
 * SQLite tables. The answer lives in the question row: a hit reads one row instead of joining a second
 * table, and an insert writes one row instead of two (GPTCache's separate answer table serves several answers
 * per question, which a record here never has). The embedding is the last column, so rows are read without
 * decoding it when it is not selected. The live count is kept by triggers in the meta table: `COUNT(*)` scans
 * every row (about 2 ms at 100k rows), and eviction asks for the count after every save. `create_on` is indexed
 * for expiry and FIFO; id-ordered pages use the primary key.
 */
export function sqliteDdl(t: TableNames): string[] {
  return [
    `CREATE TABLE IF NOT EXISTS ${t.question} (
      id INTEGER PRIMARY KEY AUTOINCREMENT,
      question TEXT NOT NULL,
      answer TEXT NOT NULL,
      answer_type TEXT NOT NULL,
      key_hash TEXT NOT NULL,
      "partition" TEXT NOT NULL,
      create_on INTEGER NOT NULL,
      last_access INTEGER NOT NULL,
      hit_count INTEGER NOT NULL DEFAULT 0,
      deleted INTEGER NOT NULL DEFAULT 0,
      embedding BLOB
    )`,
    `CREATE INDEX IF NOT EXISTS ${t.question}_key_hash ON ${t.question} (key_hash)`,
    `CREATE INDEX IF NOT EXISTS ${t.question}_create_on ON ${t.question} (create_on)`,
    `CREATE TABLE IF NOT EXISTS ${t.meta} (name TEXT PRIMARY KEY, value INTEGER NOT NULL)`,
    `INSERT OR IGNORE INTO ${t.meta} (name, value) SELECT 'live', COUNT(*) FROM ${t.question} WHERE deleted = 0`,
    `CREATE TRIGGER IF NOT EXISTS ${t.question}_live_insert AFTER INSERT ON ${t.question} WHEN NEW.deleted = 0
      BEGIN UPDATE ${t.meta} SET value = value + 1 WHERE name = 'live'; END`,
    `CREATE TRIGGER IF NOT EXISTS ${t.question}_live_update AFTER UPDATE OF deleted ON ${t.question}
      WHEN OLD.deleted <> NEW.deleted
      BEGIN UPDATE ${t.meta} SET value = value + CASE WHEN NEW.deleted = 0 THEN 1 ELSE -1 END WHERE name = 'live'; END`,
    `CREATE TRIGGER IF NOT EXISTS ${t.question}_live_delete AFTER DELETE ON ${t.question} WHEN OLD.deleted = 0
      BEGIN UPDATE ${t.meta} SET value = value - 1 WHERE name = 'live'; END`,
    `CREATE TABLE IF NOT EXISTS ${t.session} (
      question_id INTEGER NOT NULL,
      session_id TEXT NOT NULL,
      UNIQUE (question_id, session_id)
    )`,
    `CREATE INDEX IF NOT EXISTS ${t.session}_session ON ${t.session} (session_id)`,
    `CREATE TABLE IF NOT EXISTS ${t.dep} (
      id INTEGER PRIMARY KEY,
      question_id INTEGER NOT NULL,
      dep_name TEXT NOT NULL,
      dep_data TEXT NOT NULL,
      dep_type TEXT NOT NULL
    )`,
    `CREATE INDEX IF NOT EXISTS ${t.dep}_question ON ${t.dep} (question_id)`,
    `CREATE TABLE IF NOT EXISTS ${t.report} (
      id INTEGER PRIMARY KEY,
      user_question TEXT NOT NULL,
      cache_question_id INTEGER NOT NULL,
      cache_question TEXT NOT NULL,
      cache_answer TEXT NOT NULL,
      similarity REAL NOT NULL,
      cache_delta_time REAL NOT NULL,
      cache_time INTEGER NOT NULL,
      extra TEXT
    )`,
    // A purge deletes the report rows of the entries it removes by this column.
    `CREATE INDEX IF NOT EXISTS ${t.report}_question ON ${t.report} (cache_question_id)`,
  ];
}
