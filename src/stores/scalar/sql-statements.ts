/**
 * The statements of every SQL scalar store (SQLite, PostgreSQL, MySQL/MariaDB), written once. They use only
 * shapes all three accept (positional `?` parameters, CASE instead of MAX(a, b), subqueries instead of
 * UPDATE ... LIMIT); what differs is in `SqlDialect`: how `partition` (a keyword in PostgreSQL and MySQL) is
 * quoted, how an insert skips an existing row, and whether the insert returns its id. PostgreSQL's driver turns
 * `?` into `$n` itself.
 */
import type { AnswerType, CacheRecord, QuestionDep } from "../../core/types.js";
import { bytesToVector } from "../../core/vector-math.js";
import { effectiveOrder } from "../../core/eviction-policies.js";
import type { EvictionColumn, EvictionPolicy } from "../../core/contracts/eviction.js";
import type { TableNames } from "./table-names.js";

/** What the statements of one SQL database differ in. */
export interface SqlDialect {
  readonly name: "sqlite" | "postgres" | "mysql";
  /** Quotes an identifier that is a keyword. */
  quote(identifier: string): string;
  /** An INSERT of one row that does nothing when a unique key already holds it. */
  insertIgnore(table: string, columns: readonly string[]): string;
  /** Appended to the question insert when the new id comes back as a row ("" when the driver reports it). */
  readonly returningId: string;
}

const placeholders = (count: number) => Array.from({ length: count }, () => "?").join(", ");

export const SQLITE_DIALECT: SqlDialect = {
  name: "sqlite",
  quote: (identifier) => `"${identifier}"`,
  insertIgnore: (table, columns) =>
    `INSERT INTO ${table} (${columns.join(", ")}) VALUES (${placeholders(columns.length)}) ON CONFLICT DO NOTHING`,
  returningId: "",
};

export const POSTGRES_DIALECT: SqlDialect = { ...SQLITE_DIALECT, name: "postgres", returningId: " RETURNING id" };

export const MYSQL_DIALECT: SqlDialect = {
  name: "mysql",
  quote: (identifier) => `\`${identifier}\``,
  insertIgnore: (table, columns) =>
    `INSERT INTO ${table} (${columns.join(", ")}) VALUES (${placeholders(columns.length)})
      ON DUPLICATE KEY UPDATE ${columns[0]} = ${columns[0]}`,
  returningId: "",
};

/** A record row joined with its deps: one row per dep, or one row with null dep columns. */
export interface RecordRow {
  /** Numbers may arrive as strings (PostgreSQL's BIGINT). */
  id: number | string;
  question: string;
  answer: string;
  answer_type: string;
  key_hash: string;
  partition: string;
  embedding: Uint8Array | null;
  create_on: number | string;
  last_access: number | string;
  hit_count: number | string;
  dep_name: string | null;
  dep_data: string | null;
  dep_type: string | null;
}

/** Every statement of a scalar store except the policy-dependent eviction select (see `evictionSelect`). */
export function scalarStatements(t: TableNames, dialect: SqlDialect = SQLITE_DIALECT) {
  const partition = dialect.quote("partition");
  const record = `q.id, q.question, q.answer, q.answer_type, q.key_hash, q.${partition} AS ${partition}, q.embedding,
    q.create_on, q.last_access, q.hit_count, d.dep_name, d.dep_data, d.dep_type`;
  const withDeps = `LEFT JOIN ${t.dep} d ON d.question_id = q.id`;
  return {
    insertQuestion: `INSERT INTO ${t.question}
      (question, answer, answer_type, key_hash, ${partition}, create_on, last_access, hit_count, deleted, embedding)
      VALUES (?, ?, ?, ?, ?, ?, ?, 0, 0, ?)${dialect.returningId}`,
    insertDep: `INSERT INTO ${t.dep} (question_id, dep_name, dep_data, dep_type) VALUES (?, ?, ?, ?)`,
    get: `SELECT ${record} FROM ${t.question} q ${withDeps} WHERE q.id = ? AND q.deleted = 0 ORDER BY d.id`,
    findByKey: `SELECT ${record} FROM ${t.question} q ${withDeps}
      WHERE q.id = (SELECT id FROM ${t.question} WHERE key_hash = ? AND deleted = 0 ORDER BY id DESC LIMIT 1)
      ORDER BY d.id`,
    /** Parameters: atMs, atMs, count, id. */
    touch: `UPDATE ${t.question}
      SET last_access = CASE WHEN last_access < ? THEN ? ELSE last_access END, hit_count = hit_count + ?
      WHERE id = ?`,
    count: `SELECT value AS n FROM ${t.meta} WHERE name = 'live'`,
    markDeleted: `UPDATE ${t.question} SET deleted = 1 WHERE id = ? AND deleted = 0`,
    expiredIds: `SELECT id FROM ${t.question} WHERE create_on < ? AND deleted = 0`,
    purgeSessions: `DELETE FROM ${t.session} WHERE question_id IN (SELECT id FROM ${t.question} WHERE deleted = 1)`,
    purgeDeps: `DELETE FROM ${t.dep} WHERE question_id IN (SELECT id FROM ${t.question} WHERE deleted = 1)`,
    purgeReports: `DELETE FROM ${t.report} WHERE cache_question_id IN (SELECT id FROM ${t.question} WHERE deleted = 1)`,
    purgeQuestions: `DELETE FROM ${t.question} WHERE deleted = 1`,
    deletedObjectKeys: `SELECT d.dep_data FROM ${t.dep} d JOIN ${t.question} q ON q.id = d.question_id
      WHERE q.deleted = 1 AND d.dep_type = 'object' ORDER BY d.id`,
    clear: `UPDATE ${t.question} SET deleted = 1 WHERE deleted = 0`,
    embeddingsAfter: `SELECT id, embedding FROM ${t.question}
      WHERE id > ? AND deleted = 0 AND embedding IS NOT NULL ORDER BY id LIMIT ?`,
    /** Parameters: afterId, limit. */
    page: `SELECT ${record}
      FROM (SELECT * FROM ${t.question} WHERE id > ? AND deleted = 0 ORDER BY id LIMIT ?) q ${withDeps}
      ORDER BY q.id, d.id`,
    addSession: dialect.insertIgnore(t.session, ["question_id", "session_id"]),
    sessionsOf: `SELECT session_id FROM ${t.session} WHERE question_id = ? ORDER BY session_id`,
    listSession: `SELECT question_id AS id, session_id AS session FROM ${t.session} WHERE session_id = ? ORDER BY question_id`,
    listSessions: `SELECT question_id AS id, session_id AS session FROM ${t.session} ORDER BY session_id, question_id`,
    deleteSession: `DELETE FROM ${t.session} WHERE session_id = ?`,
    addReport: `INSERT INTO ${t.report}
      (user_question, cache_question_id, cache_question, cache_answer, similarity, cache_delta_time, cache_time, extra)
      VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
    countReports: `SELECT COUNT(*) AS n FROM ${t.report}`,
    /**
     * Parameter: maxReports. Keeps the rows with the newest `maxReports` ids (fewer where ids have gaps, never
     * more): one index probe for the newest id and a range delete. The newest id is read through a derived
     * table because MySQL refuses a subquery on the table a DELETE changes.
     */
    trimReports: `DELETE FROM ${t.report}
      WHERE id <= (SELECT newest FROM (SELECT MAX(id) AS newest FROM ${t.report}) AS latest) - ?`,
    clearReports: `DELETE FROM ${t.report}`,
  };
}

/** `rows` parenthesised groups of `width` placeholders: a multi-row VALUES list. */
const valueRows = (rows: number, width: number) => Array.from({ length: rows }, () => `(${placeholders(width)})`).join(", ");

/**
 * Batched bookkeeping: `rows` hits or report rows in one statement (one call into the driver, one statement
 * for the database to run instead of one per row). Callers cache them per row count.
 */
export const batchStatements = {
  /**
   * SQLite 3.33+ (UPDATE ... FROM; not tried on the server databases). Parameters: id, at, count for each row. Repeated ids merge here
   * (latest access, summed count), as running the per-row `touch` once per hit would.
   */
  touchMany: (t: TableNames, rows: number) => `UPDATE ${t.question} AS q
    SET last_access = CASE WHEN q.last_access < v.at THEN v.at ELSE q.last_access END, hit_count = q.hit_count + v.n
    FROM (SELECT column1 AS id, MAX(column2) AS at, SUM(column3) AS n FROM (VALUES ${valueRows(rows, 3)}) AS hits GROUP BY column1) AS v
    WHERE q.id = v.id`,
  /** Plain multi-row INSERT. Parameters: the eight columns of each row, in `addReport`'s order. */
  addReportMany: (t: TableNames, rows: number) => `INSERT INTO ${t.report}
    (user_question, cache_question_id, cache_question, cache_answer, similarity, cache_delta_time, cache_time, extra)
    VALUES ${valueRows(rows, 8)}`,
};

/** Statements only the server databases need: several processes write at once. */
export function serverStatements(t: TableNames) {
  return {
    /**
     * Every write that changes which rows are live (or assigns ids) takes the live counter's row lock first:
     * evictions never count the same excess twice, lock order is the same everywhere (no deadlock between
     * an insert's trigger and an eviction), and ids are assigned in commit order, so a replica reading
     * `embeddingsAfter(lastSeenId)` never skips a row committed late with a smaller id.
     */
    lockLive: `SELECT value AS n FROM ${t.meta} WHERE name = 'live' FOR UPDATE`,
    /** `count` ids in one statement. */
    markDeletedIn: (count: number) => `UPDATE ${t.question} SET deleted = 1 WHERE deleted = 0 AND id IN (${placeholders(count)})`,
  };
}

const SQL_COLUMN: Readonly<Record<EvictionColumn, string>> = {
  id: "id",
  lastAccessedAtMs: "last_access",
  hitCount: "hit_count",
  createdAtMs: "create_on",
};

/** Ids of the first `?` live records in the policy's order (the policy is already validated). */
export function evictionSelect(t: TableNames, policy: EvictionPolicy): string {
  const order = effectiveOrder(policy)
    .map(({ column, direction }) => `${SQL_COLUMN[column]} ${direction === "asc" ? "ASC" : "DESC"}`)
    .join(", ");
  return `SELECT id FROM ${t.question} WHERE deleted = 0 ORDER BY ${order} LIMIT ?`;
}

/** Joined rows (ordered by id, then dep) -> records, one per id. */
export function toRecords(rows: readonly RecordRow[]): CacheRecord[] {
  const records: CacheRecord[] = [];
  let last: CacheRecord | undefined;
  for (const row of rows) {
    const id = Number(row.id);
    if (last?.id !== id) {
      last = {
        id,
        question: row.question,
        answer: row.answer,
        answerType: row.answer_type as AnswerType,
        keyHash: row.key_hash,
        partition: row.partition,
        deps: undefined,
        embedding: row.embedding === null ? undefined : bytesToVector(row.embedding),
        createdAtMs: Number(row.create_on),
        lastAccessedAtMs: Number(row.last_access),
        hitCount: Number(row.hit_count),
      };
      records.push(last);
    }
    if (row.dep_name !== null) {
      (last.deps ??= []).push({ name: row.dep_name, data: row.dep_data ?? "", type: row.dep_type as QuestionDep["type"] });
    }
  }
  return records;
}
