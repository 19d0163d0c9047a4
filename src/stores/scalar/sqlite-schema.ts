/**
 * The SQL of the scalar store, kept in one place. The DDL is SQLite's; the statements use only shapes that
 * PostgreSQL and MySQL also accept (positional `?` parameters, CASE instead of MAX(a, b), no RETURNING,
 * `ON CONFLICT DO NOTHING` for the session link), so the server-database stores can reuse them with their
 * own DDL and placeholder style. `partition` is a keyword in PostgreSQL and MySQL, hence the quotes.
 */
import { ValidationError } from "../../core/errors.js";
import type { EvictionColumn, EvictionPolicy } from "../../manager/eviction/types.js";
import { effectiveOrder } from "../../manager/eviction/policies.js";

/** Table names after the user's prefix is applied. */
export interface TableNames {
  question: string;
  session: string;
  dep: string;
  report: string;
  meta: string;
}

/** Prefixes become part of SQL text, so only identifier characters are allowed. */
export function tableNames(prefix: string): TableNames {
  if (typeof prefix !== "string" || !/^[A-Za-z_][A-Za-z0-9_]*$/.test(prefix)) {
    throw new ValidationError(`tablePrefix must be letters, digits and underscores (not starting with a digit), got "${prefix}"`);
  }
  return { question: `${prefix}question`, session: `${prefix}session`, dep: `${prefix}dep`, report: `${prefix}report`, meta: `${prefix}meta` };
}

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
  ];
}

/** A record row joined with its deps: one row per dep, or one row with null dep columns. */
export interface RecordRow {
  id: number;
  question: string;
  answer: string;
  answer_type: string;
  key_hash: string;
  partition: string;
  embedding: Uint8Array | null;
  create_on: number;
  last_access: number;
  hit_count: number;
  dep_name: string | null;
  dep_data: string | null;
  dep_type: string | null;
}

/** Every statement of the scalar store except the policy-dependent eviction select (see `evictionSelect`). */
export function scalarStatements(t: TableNames) {
  const record = `q.id, q.question, q.answer, q.answer_type, q.key_hash, q."partition" AS "partition", q.embedding,
    q.create_on, q.last_access, q.hit_count, d.dep_name, d.dep_data, d.dep_type`;
  const withDeps = `LEFT JOIN ${t.dep} d ON d.question_id = q.id`;
  return {
    insertQuestion: `INSERT INTO ${t.question}
      (question, answer, answer_type, key_hash, "partition", create_on, last_access, hit_count, deleted, embedding)
      VALUES (?, ?, ?, ?, ?, ?, ?, 0, 0, ?)`,
    insertDep: `INSERT INTO ${t.dep} (question_id, dep_name, dep_data, dep_type) VALUES (?, ?, ?, ?)`,
    get: `SELECT ${record} FROM ${t.question} q ${withDeps} WHERE q.id = ? AND q.deleted = 0 ORDER BY d.id`,
    findByKey: `SELECT ${record} FROM ${t.question} q ${withDeps}
      WHERE q.id = (SELECT id FROM ${t.question} WHERE key_hash = ? AND deleted = 0 ORDER BY id DESC LIMIT 1)
      ORDER BY d.id`,
    /** Parameters: at, at, count, id. */
    touch: `UPDATE ${t.question}
      SET last_access = CASE WHEN last_access < ? THEN ? ELSE last_access END, hit_count = hit_count + ?
      WHERE id = ?`,
    count: `SELECT value AS n FROM ${t.meta} WHERE name = 'live'`,
    markDeleted: `UPDATE ${t.question} SET deleted = 1 WHERE id = ? AND deleted = 0`,
    expiredIds: `SELECT id FROM ${t.question} WHERE create_on < ? AND deleted = 0`,
    purgeSessions: `DELETE FROM ${t.session} WHERE question_id IN (SELECT id FROM ${t.question} WHERE deleted = 1)`,
    purgeDeps: `DELETE FROM ${t.dep} WHERE question_id IN (SELECT id FROM ${t.question} WHERE deleted = 1)`,
    purgeQuestions: `DELETE FROM ${t.question} WHERE deleted = 1`,
    clear: `UPDATE ${t.question} SET deleted = 1 WHERE deleted = 0`,
    embeddingsAfter: `SELECT id, embedding FROM ${t.question}
      WHERE id > ? AND deleted = 0 AND embedding IS NOT NULL ORDER BY id LIMIT ?`,
    /** Parameters: afterId, limit. */
    page: `SELECT ${record}
      FROM (SELECT * FROM ${t.question} WHERE id > ? AND deleted = 0 ORDER BY id LIMIT ?) q ${withDeps}
      ORDER BY q.id, d.id`,
    addSession: `INSERT INTO ${t.session} (question_id, session_id) VALUES (?, ?) ON CONFLICT DO NOTHING`,
    sessionsOf: `SELECT session_id FROM ${t.session} WHERE question_id = ? ORDER BY session_id`,
    listSession: `SELECT question_id AS id, session_id AS session FROM ${t.session} WHERE session_id = ? ORDER BY question_id`,
    listSessions: `SELECT question_id AS id, session_id AS session FROM ${t.session} ORDER BY session_id, question_id`,
    deleteSession: `DELETE FROM ${t.session} WHERE session_id = ?`,
    addReport: `INSERT INTO ${t.report}
      (user_question, cache_question_id, cache_question, cache_answer, similarity, cache_delta_time, cache_time, extra)
      VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
    countReports: `SELECT COUNT(*) AS n FROM ${t.report}`,
  };
}

const SQL_COLUMN: Readonly<Record<EvictionColumn, string>> = {
  id: "id",
  lastAccess: "last_access",
  hitCount: "hit_count",
  createOn: "create_on",
};

/** Ids of the first `?` live records in the policy's order (the policy is already validated). */
export function evictionSelect(t: TableNames, policy: EvictionPolicy): string {
  const order = effectiveOrder(policy)
    .map(({ column, direction }) => `${SQL_COLUMN[column]} ${direction === "asc" ? "ASC" : "DESC"}`)
    .join(", ");
  return `SELECT id FROM ${t.question} WHERE deleted = 0 ORDER BY ${order} LIMIT ?`;
}
