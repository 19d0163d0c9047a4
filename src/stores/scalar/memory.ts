/**
 * The in-memory scalar store (optionally saved to a JSON file). Over 300 lines: the whole ScalarStore contract
 * (records, eviction, expiry, sessions, reports, lifecycle) in Maps, each method a few lines, plus the file's
 * load and snapshot; the file is the one seam, and moving it out would leave both reaching into the store's
 * private maps.
 */
import { readFile } from "node:fs/promises";
import { writeFileAtomic } from "../../core/atomic-file.js";
import { SemcacheError, StoreError, ValidationError } from "../../core/errors.js";
import type { CacheRecord, NewRecord, QuestionDep, ReportRow } from "../../core/types.js";
import { bytesToVector, vectorToBytes } from "../../core/vector-math.js";
import { checkEvictSizes, evictionComparator } from "../../core/eviction-policies.js";
import type { EvictionPolicy } from "../../core/contracts/eviction.js";
import { checkLength, checkRecords, resolveTableLen } from "./limits.js";
import { storedRecord } from "./stored-record.js";
import { fromStoredReport, resolveMaxReports, toStoredReport, type ReportRetentionOptions, type StoredReportRow } from "./report-retention.js";
import type { ScalarStore, ScalarStoreCapabilities, TableLenConfig } from "../../core/contracts/scalar-store.js";

export interface MemoryScalarStoreOptions extends ReportRetentionOptions {
  /** JSON file loaded on init and written on flush/close; without it nothing outlives the process. */
  path?: string;
  /** Column lengths (see DEFAULT_TABLE_LEN), enforced as the SQL stores do so a store swap changes nothing. */
  tableLenConfig?: Partial<TableLenConfig>;
}

interface Row extends CacheRecord {
  deleted: boolean;
}

/**
 * A row as the file keeps it: the embedding in base64, the times under the names version 1 was first written
 * with (createOn, lastAccess: epoch milliseconds), so older files still load.
 */
type SavedRow = Omit<Row, "embedding" | "createdAtMs" | "lastAccessedAtMs"> & { embedding?: string; createOn: number; lastAccess: number };

/** The JSON file: every row (deleted ones too, until purged) and the next id, so ids are never reused. */
interface Snapshot {
  format: "langchain-semcache/memory";
  version: 1;
  nextId: number;
  records: SavedRow[];
  sessions: Array<[number, string]>;
  reports: StoredReportRow[];
}

function toRecord(row: Row): CacheRecord {
  return {
    id: row.id,
    question: row.question,
    answer: row.answer,
    answerType: row.answerType,
    keyHash: row.keyHash,
    partition: row.partition,
    deps: row.deps,
    embedding: row.embedding,
    createdAtMs: row.createdAtMs,
    lastAccessedAtMs: row.lastAccessedAtMs,
    hitCount: row.hitCount,
  };
}

function frozenDeps(deps: readonly QuestionDep[] | undefined): QuestionDep[] | undefined {
  return deps && deps.length > 0 ? (Object.freeze(deps.map((dep) => Object.freeze({ ...dep }))) as QuestionDep[]) : undefined;
}

/**
 * Scalar store in Maps. It backs the default exact-match cache, so `findByKey`, `get` and `touch` are O(1)
 * and allocate only the returned record. Returned embeddings and deps are shared with the store (deps are
 * frozen; do not write into the embedding). With `path` it is persistent at flush() and close(), like
 * GPTCache's data_map.json: writes between flushes are lost if the process dies.
 */
export class MemoryScalarStore implements ScalarStore {
  readonly specificationVersion = "v1";
  readonly kind = "memory";
  readonly capabilities: ScalarStoreCapabilities;
  readonly tableLen: Readonly<TableLenConfig>;
  readonly path?: string;
  private readonly maxReports: number;
  private rows = new Map<number, Row>();
  /** Live ids per key hash, ascending: the last one is the newest. */
  private byKey = new Map<string, number[]>();
  private idsBySession = new Map<string, Set<number>>();
  private sessionsById = new Map<number, Set<string>>();
  private reports: ReportRow[] = [];
  private nextId = 1;
  private live = 0;
  private loading?: Promise<void>;
  private writing: Promise<void> = Promise.resolve();

  constructor(options: MemoryScalarStoreOptions = {}) {
    if (options.path !== undefined && (typeof options.path !== "string" || options.path === "")) {
      throw new ValidationError("memory scalar store: path must be a non-empty string");
    }
    this.path = options.path;
    this.maxReports = resolveMaxReports("memory scalar store", options.maxReports);
    this.tableLen = resolveTableLen(options.tableLenConfig);
    this.capabilities = Object.freeze({ persistent: options.path !== undefined, shared: false });
  }

  init(): Promise<void> {
    this.loading ??= this.load().catch((error: unknown) => {
      this.loading = undefined;
      throw error;
    });
    return this.loading;
  }

  private async load(): Promise<void> {
    if (this.path === undefined) return;
    if (this.nextId !== 1) throw new StoreError("memory", `init() must run before the store is used (${this.path})`);
    let text: string;
    try {
      text = await readFile(this.path, "utf8");
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "ENOENT") return;
      throw new StoreError("memory", `cannot read ${this.path}`, { cause: error });
    }
    let snapshot: Snapshot;
    try {
      snapshot = JSON.parse(text) as Snapshot;
    } catch (error) {
      throw new StoreError("memory", `${this.path} is not valid JSON`, { cause: error });
    }
    if (snapshot?.format !== "langchain-semcache/memory" || snapshot.version !== 1) {
      throw new StoreError("memory", `${this.path} is not a memory store file (format version 1)`);
    }
    for (const { createOn, lastAccess, ...saved } of snapshot.records) {
      const embedding = saved.embedding === undefined ? undefined : bytesToVector(Buffer.from(saved.embedding, "base64"));
      const row: Row = { ...saved, createdAtMs: createOn, lastAccessedAtMs: lastAccess, deps: frozenDeps(saved.deps), embedding };
      this.rows.set(row.id, row);
      if (!row.deleted) this.index(row);
    }
    for (const [id, session] of snapshot.sessions) this.link(id, session);
    // A file written under a larger maxReports is cut to this store's.
    this.reports = snapshot.reports.slice(Math.max(0, snapshot.reports.length - this.maxReports)).map(fromStoredReport);
    this.nextId = snapshot.nextId;
  }

  private index(row: Row): void {
    const ids = this.byKey.get(row.keyHash);
    if (ids) ids.push(row.id);
    else this.byKey.set(row.keyHash, [row.id]);
    this.live++;
  }

  private kill(row: Row): void {
    if (row.deleted) return;
    row.deleted = true;
    this.live--;
    const ids = this.byKey.get(row.keyHash);
    if (!ids) return;
    ids.splice(ids.lastIndexOf(row.id), 1);
    if (ids.length === 0) this.byKey.delete(row.keyHash);
  }

  private link(id: number, session: string): void {
    let ids = this.idsBySession.get(session);
    if (!ids) this.idsBySession.set(session, (ids = new Set()));
    ids.add(id);
    let sessions = this.sessionsById.get(id);
    if (!sessions) this.sessionsById.set(id, (sessions = new Set()));
    sessions.add(session);
  }

  async insert(records: readonly NewRecord[]): Promise<number[]> {
    checkRecords(records, this.tableLen);
    return records.map((r) => {
      const row: Row = { ...storedRecord(this.nextId++, r), deps: frozenDeps(r.deps), deleted: false };
      this.rows.set(row.id, row);
      this.index(row);
      if (r.session !== undefined) this.link(row.id, r.session);
      return row.id;
    });
  }

  async get(id: number): Promise<CacheRecord | null> {
    const row = this.rows.get(id);
    return row && !row.deleted ? toRecord(row) : null;
  }

  async findByKey(keyHash: string): Promise<CacheRecord | null> {
    const ids = this.byKey.get(keyHash);
    return ids ? toRecord(this.rows.get(ids[ids.length - 1]) as Row) : null;
  }

  async touch(hits: ReadonlyArray<{ id: number; atMs: number; count: number }>): Promise<void> {
    for (const { id, atMs, count } of hits) {
      const row = this.rows.get(id);
      if (!row) continue;
      if (atMs > row.lastAccessedAtMs) row.lastAccessedAtMs = atMs;
      row.hitCount += count;
    }
  }

  async count(): Promise<number> {
    return this.live;
  }

  async evict(policy: EvictionPolicy, maxSize: number, cleanSize: number): Promise<number[]> {
    checkEvictSizes(maxSize, cleanSize);
    if (this.live <= maxSize) return [];
    const victims = this.liveRows().sort(evictionComparator(policy)).slice(0, cleanSize);
    for (const row of victims) this.kill(row);
    return victims.map((row) => row.id);
  }

  async expire(createdBefore: number): Promise<number[]> {
    const expired = this.liveRows().filter((row) => row.createdAtMs < createdBefore);
    for (const row of expired) this.kill(row);
    return expired.map((row) => row.id);
  }

  private liveRows(): Row[] {
    const rows: Row[] = [];
    for (const row of this.rows.values()) if (!row.deleted) rows.push(row);
    return rows;
  }

  async markDeleted(ids: readonly number[]): Promise<void> {
    for (const id of ids) {
      const row = this.rows.get(id);
      if (row) this.kill(row);
    }
  }

  async purgeDeleted(): Promise<number> {
    const purged = new Set<number>();
    for (const row of this.rows.values()) {
      if (!row.deleted) continue;
      this.rows.delete(row.id);
      for (const session of this.sessionsById.get(row.id) ?? []) this.unlink(row.id, session);
      purged.add(row.id);
    }
    if (purged.size > 0) this.reports = this.reports.filter((report) => !purged.has(report.cacheQuestionId));
    return purged.size;
  }

  async deletedObjectKeys(): Promise<string[]> {
    const keys: string[] = [];
    for (const row of this.rows.values()) {
      if (row.deleted) for (const dep of row.deps ?? []) if (dep.type === "object") keys.push(dep.data);
    }
    return keys;
  }

  private unlink(id: number, session: string): void {
    const ids = this.idsBySession.get(session);
    if (ids?.delete(id) && ids.size === 0) this.idsBySession.delete(session);
    const sessions = this.sessionsById.get(id);
    if (sessions?.delete(session) && sessions.size === 0) this.sessionsById.delete(id);
  }

  async clear(): Promise<void> {
    for (const row of this.rows.values()) row.deleted = true;
    this.byKey.clear();
    this.live = 0;
    this.reports = [];
  }

  async embeddingsAfter(afterId: number, limit: number): Promise<Array<{ id: number; embedding: Float32Array }>> {
    const out: Array<{ id: number; embedding: Float32Array }> = [];
    // Ids are dense and ascending, so walking the id range avoids scanning rows at or below afterId.
    for (let id = Math.max(0, Math.floor(afterId)) + 1; id < this.nextId && out.length < limit; id++) {
      const row = this.rows.get(id);
      if (row && !row.deleted && row.embedding) out.push({ id, embedding: row.embedding });
    }
    return out;
  }

  async *iterate(): AsyncIterable<CacheRecord> {
    for (let id = 1; id < this.nextId; id++) {
      const row = this.rows.get(id);
      if (row && !row.deleted) yield toRecord(row);
    }
  }

  async addSession(id: number, session: string): Promise<void> {
    checkLength("sessionId", session, this.tableLen);
    this.link(id, session);
  }

  async sessionsOf(id: number): Promise<string[]> {
    return [...(this.sessionsById.get(id) ?? [])];
  }

  async listSessions(session?: string): Promise<Array<{ id: number; session: string }>> {
    const out: Array<{ id: number; session: string }> = [];
    const sessions = session === undefined ? this.idsBySession.keys() : [session];
    for (const name of sessions) for (const id of this.idsBySession.get(name) ?? []) out.push({ id, session: name });
    return out;
  }

  async deleteSession(session: string): Promise<number> {
    const ids = [...(this.idsBySession.get(session) ?? [])];
    for (const id of ids) this.unlink(id, session);
    return ids.length;
  }

  async addReports(rows: readonly ReportRow[]): Promise<void> {
    for (const row of rows) this.reports.push({ ...row });
    if (this.reports.length > this.maxReports) this.reports.splice(0, this.reports.length - this.maxReports);
  }

  async countReports(): Promise<number> {
    return this.reports.length;
  }

  /**
   * Writes the JSON file: a no-op without a path, or before init (the file was not read yet and writing
   * would replace it). Writes run one after another, each with the state at its turn.
   */
  flush(): Promise<void> {
    const { path, loading } = this;
    if (path === undefined || loading === undefined) return Promise.resolve();
    const write = this.writing
      .catch(() => undefined)
      .then(async () => {
        await loading;
        await writeFileAtomic(path, JSON.stringify(this.snapshot()));
      })
      .catch((error: unknown) => {
        throw SemcacheError.isInstance(error) ? error : new StoreError("memory", `cannot write ${path}`, { cause: error });
      });
    this.writing = write;
    return write;
  }

  private snapshot(): Snapshot {
    const records: Snapshot["records"] = [];
    for (const { embedding, createdAtMs, lastAccessedAtMs, ...row } of this.rows.values()) {
      const saved: SavedRow = { ...row, createOn: createdAtMs, lastAccess: lastAccessedAtMs };
      records.push(embedding ? { ...saved, embedding: vectorToBytes(embedding).toString("base64") } : saved);
    }
    const sessions: Snapshot["sessions"] = [];
    for (const [id, names] of this.sessionsById) for (const session of names) sessions.push([id, session]);
    return { format: "langchain-semcache/memory", version: 1, nextId: this.nextId, records, sessions, reports: this.reports.map(toStoredReport) };
  }

  /** Flushes, then forgets everything in memory; init() loads the file again. */
  async close(): Promise<void> {
    await this.flush();
    this.rows = new Map();
    this.byKey = new Map();
    this.idsBySession = new Map();
    this.sessionsById = new Map();
    this.reports = [];
    this.nextId = 1;
    this.live = 0;
    this.loading = undefined;
  }
}
