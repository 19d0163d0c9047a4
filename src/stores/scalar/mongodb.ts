/**
 * The MongoDB scalar store. Over 300 lines: one backend's implementation of the whole ScalarStore contract
 * (records, eviction, expiry, sessions, reports, lifecycle): each method is a few lines of this database's
 * calls, so splitting it would scatter one backend over files without giving either part a job of its own.
 */
import type * as MongoDb from "mongodb";
import { randomUUID } from "node:crypto";
import { setTimeout as sleep } from "node:timers/promises";
import type { Collection, Db, Document, MongoClient, Sort } from "mongodb";
import { StoreError, ValidationError } from "../../core/errors.js";
import { isPositiveInteger, positiveInteger } from "../../core/validation.js";
import { importOptional } from "../../core/optional-import.js";
import type { AnswerType, CacheRecord, NewRecord, QuestionDep, ReportRow } from "../../core/types.js";
import { bytesToVector, vectorToBytes } from "../../core/vector-math.js";
import { checkEvictSizes, effectiveOrder } from "../../core/eviction-policies.js";
import type { EvictionColumn, EvictionPolicy } from "../../core/contracts/eviction.js";
import { describeTarget, Lazy, resolveTimeoutMs, resolveUrl, storeFault, type ServerConnectionOptions } from "../connection.js";
import { checkLength, checkRecords, resolveTableLen } from "./limits.js";
import { resolveMaxReports, toStoredReport, type ReportRetentionOptions } from "./report-retention.js";
import { tableNames, type TableNames } from "./sqlite-schema.js";
import type { ScalarStore, ScalarStoreCapabilities, TableLenConfig } from "../../core/contracts/scalar-store.js";

/** A `MongoClient` of the mongodb driver, typed by shape so that these declarations compile without the driver. */
export interface MongoClientLike {
  connect(): Promise<unknown>;
  db(name?: string): unknown;
  close(): Promise<void>;
}

/** Connection as for the other server stores; `database` defaults to the URL's, else "semcache". */
export interface MongoScalarStoreOptions extends ServerConnectionOptions, ReportRetentionOptions {
  /** Your own MongoClient (connected or not): used as is and left open by close(). */
  client?: MongoClientLike;
  /** Prefix of every collection name. Default "semcache_". */
  tablePrefix?: string;
  /** Milliseconds a write may hold the store's lock before another process may take it over. Default 30,000. */
  lockLeaseMs?: number;
  /** Milliseconds a write waits for the lock before it fails. Default 10,000. */
  lockWaitMs?: number;
  /** Milliseconds to find a server before a call fails (so lookups fail open quickly). Default 5000. */
  connectTimeoutMs?: number;
  /**
   * Milliseconds one operation may wait for the server's answer, or for a pooled connection, before it fails
   * with StoreError; the driver closes a connection that timed out (socketTimeoutMS). A write waiting for the
   * lock may take up to `lockWaitMs` in all. Ignored with a `client` you pass. Default 5000 (DEFAULT_STORE_TIMEOUT_MS).
   */
  timeoutMs?: number;
  /** Column lengths (see DEFAULT_TABLE_LEN), checked before writing. */
  tableLenConfig?: Partial<TableLenConfig>;
}

interface QuestionDoc {
  _id: number;
  question: string;
  answer: string;
  answer_type: string;
  key_hash: string;
  partition: string;
  create_on: number;
  last_access: number;
  hit_count: number;
  deleted: boolean;
  embedding?: Uint8Array | { value(): Uint8Array };
  deps?: QuestionDep[];
}

interface MetaDoc {
  _id: string;
  value?: number;
  owner?: string;
  until?: number;
}

interface Collections {
  db: Db;
  question: Collection<QuestionDoc>;
  session: Collection<{ question_id: number; session_id: string }>;
  report: Collection<Document>;
  meta: Collection<MetaDoc>;
}

const FIELD: Readonly<Record<EvictionColumn, string>> = { id: "_id", lastAccessedAtMs: "last_access", hitCount: "hit_count", createdAtMs: "create_on" };
const DUPLICATE_KEY = 11000;
const LIVE = { deleted: false } as const;

function isDuplicateKey(error: unknown): boolean {
  return (error as { code?: unknown })?.code === DUPLICATE_KEY;
}

function bytesOf(value: QuestionDoc["embedding"]): Uint8Array {
  return value instanceof Uint8Array ? value : (value as { value(): Uint8Array }).value();
}

/** The database named in a mongodb:// URL's path, or "". */
function databaseOf(url: string | undefined): string {
  return url === undefined ? "" : decodeURIComponent(/^mongodb(?:\+srv)?:\/\/[^/]*\/([^?]*)/.exec(url)?.[1] ?? "");
}

function toRecord(doc: QuestionDoc): CacheRecord {
  return {
    id: doc._id,
    question: doc.question,
    answer: doc.answer,
    answerType: doc.answer_type as AnswerType,
    keyHash: doc.key_hash,
    partition: doc.partition,
    deps: doc.deps && doc.deps.length > 0 ? doc.deps.map(({ name, data, type }) => ({ name, data, type })) : undefined,
    embedding: doc.embedding === undefined ? undefined : bytesToVector(bytesOf(doc.embedding)),
    createdAtMs: doc.create_on,
    lastAccessedAtMs: doc.last_access,
    hitCount: doc.hit_count,
  };
}

/**
 * Scalar store on MongoDB through the official driver (an optional peer dependency, loaded on init), without
 * multi-document transactions (a standalone server has none). Writes that assign ids or change which records
 * are live run under a lease lock (a document taken with an atomic upsert, expiring after `lockLeaseMs` if its
 * holder dies): ids are then assigned in commit order, and two replicas never evict the same excess. The live
 * count is `countDocuments` over an index, so it cannot drift. A batch insert is not atomic: a process that dies
 * in the middle leaves its first records. Not verified on this project's CI (no MongoDB server there); the
 * contract suites run when SEMCACHE_TEST_MONGODB_URL is set.
 */
export class MongoScalarStore implements ScalarStore {
  readonly specificationVersion = "v1";
  readonly kind = "mongodb";
  readonly capabilities: ScalarStoreCapabilities = Object.freeze({ persistent: true, shared: true });
  readonly tableLen: Readonly<TableLenConfig>;
  /** Where the store connects, without the password. */
  readonly target: string;
  private readonly options: MongoScalarStoreOptions;
  private readonly url?: string;
  private readonly names: TableNames;
  private readonly leaseMs: number;
  private readonly waitMs: number;
  private readonly connectTimeoutMs: number;
  private readonly timeoutMs: number;
  private readonly maxReports: number;
  private readonly connection = new Lazy(() => this.createClient());
  private readonly opening = new Lazy(() => this.open());

  constructor(options: MongoScalarStoreOptions = {}) {
    this.url = options.client ? undefined : resolveUrl("mongodb", options);
    this.options = options;
    this.names = tableNames(options.tablePrefix ?? "semcache_");
    this.leaseMs = positiveInteger("mongodb: lockLeaseMs", options.lockLeaseMs, 30_000);
    this.waitMs = positiveInteger("mongodb: lockWaitMs", options.lockWaitMs, 10_000);
    this.connectTimeoutMs = positiveInteger("mongodb: connectTimeoutMs", options.connectTimeoutMs, 5000);
    this.timeoutMs = resolveTimeoutMs("mongodb", options.timeoutMs);
    this.tableLen = resolveTableLen(options.tableLenConfig);
    this.maxReports = resolveMaxReports("mongodb", options.maxReports);
    this.target = options.client ? "mongodb (the client passed in)" : describeTarget("mongodb", this.url, options, 27017);
  }

  init(): Promise<void> {
    return this.opening.get().catch((error: unknown) => {
      throw storeFault("mongodb", `cannot open ${this.target}`, error);
    });
  }

  private async createClient(): Promise<{ client: MongoClient; owned: boolean; c: Collections }> {
    let client = this.options.client as MongoClient | undefined;
    const owned = client === undefined;
    if (!client) {
      const mongodb = await importOptional<typeof MongoDb>("mongodb", "The mongodb scalar store");
      const { host, port, user, password } = this.options;
      const url = this.url ?? `mongodb://${host ?? "127.0.0.1"}:${port ?? 27017}`;
      client = new mongodb.MongoClient(url, {
        serverSelectionTimeoutMS: this.connectTimeoutMs,
        connectTimeoutMS: this.connectTimeoutMs,
        socketTimeoutMS: this.timeoutMs,
        waitQueueTimeoutMS: this.timeoutMs,
        ...(this.url === undefined && user !== undefined ? { auth: { username: user, password } } : {}),
      });
    }
    try {
      await client.connect();
    } catch (error) {
      if (owned) await client.close().catch(() => undefined);
      throw error;
    }
    const db = client.db(this.options.database ?? (databaseOf(this.url) || "semcache"));
    const n = this.names;
    const c: Collections = {
      db,
      question: db.collection<QuestionDoc>(n.question),
      session: db.collection(n.session),
      report: db.collection(n.report),
      meta: db.collection<MetaDoc>(n.meta),
    };
    return { client, owned, c };
  }

  private async open(): Promise<void> {
    const { c } = await this.connection.get();
    // createIndex is idempotent, so replicas starting at once need no lock.
    await c.question.createIndex({ key_hash: 1, deleted: 1, _id: -1 });
    await c.question.createIndex({ deleted: 1, create_on: 1 });
    await c.question.createIndex({ deleted: 1, _id: 1 });
    await c.session.createIndex({ question_id: 1, session_id: 1 }, { unique: true });
    await c.session.createIndex({ session_id: 1 });
    // A purge deletes the report rows of the entries it removes by this field.
    await c.report.createIndex({ cacheQuestionId: 1 });
  }

  /** Runs `fn` once init() has; faults become StoreError naming the store and the operation. */
  private async run<T>(operation: string, fn: (c: Collections) => Promise<T>): Promise<T> {
    if (!this.opening.started) throw new StoreError("mongodb", `${operation}: the store is not open (call init() first)`);
    try {
      await this.opening.get();
      return await fn((await this.connection.get()).c);
    } catch (error) {
      throw storeFault("mongodb", `${operation} on ${this.target} failed`, error);
    }
  }

  /**
   * Runs `fn` holding the store's lease lock: an upsert that matches only an expired lock, so while the lock is
   * held it fails on the duplicate _id, and exactly one of several processes gets it.
   */
  private locked<T>(operation: string, fn: (c: Collections) => Promise<T>): Promise<T> {
    return this.run(operation, async (c) => {
      const owner = randomUUID();
      const deadline = Date.now() + this.waitMs;
      for (let delay = 5; ; delay = Math.min(delay * 2, 100)) {
        const now = Date.now();
        try {
          await c.meta.updateOne({ _id: "lock", until: { $lt: now } }, { $set: { owner, until: now + this.leaseMs } }, { upsert: true });
          break;
        } catch (error) {
          if (!isDuplicateKey(error)) throw error;
        }
        if (Date.now() > deadline) throw new StoreError("mongodb", `${operation}: waited ${this.waitMs} ms for the store's lock`);
        await sleep(delay);
      }
      try {
        return await fn(c);
      } finally {
        await c.meta.updateOne({ _id: "lock", owner }, { $set: { until: 0 } }).catch(() => undefined);
      }
    });
  }

  /** Marks live records deleted. */
  private async kill(c: Collections, ids: readonly number[]): Promise<void> {
    if (ids.length > 0) await c.question.updateMany({ _id: { $in: [...ids] }, ...LIVE }, { $set: { deleted: true } });
  }

  async insert(records: readonly NewRecord[]): Promise<number[]> {
    checkRecords(records, this.tableLen);
    if (records.length === 0) return [];
    return this.locked("insert", async (c) => {
      const seq = await c.meta.findOneAndUpdate(
        { _id: "seq" },
        { $inc: { value: records.length } },
        { upsert: true, returnDocument: "after" },
      );
      const first = (seq?.value ?? records.length) - records.length + 1;
      const docs: QuestionDoc[] = records.map((r, i) => ({
        _id: first + i,
        question: r.question,
        answer: r.answer,
        answer_type: r.answerType,
        key_hash: r.keyHash,
        partition: r.partition,
        create_on: r.createdAtMs,
        last_access: r.createdAtMs,
        hit_count: 0,
        deleted: false,
        ...(r.embedding ? { embedding: vectorToBytes(r.embedding) } : {}),
        ...(r.deps && r.deps.length > 0 ? { deps: r.deps.map(({ name, data, type }) => ({ name, data, type })) } : {}),
      }));
      await c.question.insertMany(docs, { ordered: true });
      const links = records.flatMap((r, i) => (r.session === undefined ? [] : [{ question_id: docs[i]._id, session_id: r.session }]));
      if (links.length > 0) await c.session.insertMany(links, { ordered: true });
      return docs.map((doc) => doc._id);
    });
  }

  async get(id: number): Promise<CacheRecord | null> {
    return this.run("get", async (c) => {
      const doc = await c.question.findOne({ _id: id, ...LIVE });
      return doc ? toRecord(doc) : null;
    });
  }

  async findByKey(keyHash: string): Promise<CacheRecord | null> {
    return this.run("findByKey", async (c) => {
      const doc = await c.question.findOne({ key_hash: keyHash, ...LIVE }, { sort: { _id: -1 } });
      return doc ? toRecord(doc) : null;
    });
  }

  async touch(hits: ReadonlyArray<{ id: number; atMs: number; count: number }>): Promise<void> {
    if (hits.length === 0) return;
    await this.run("touch", (c) =>
      c.question.bulkWrite(
        hits.map(({ id, atMs, count }) => ({ updateOne: { filter: { _id: id }, update: { $max: { last_access: atMs }, $inc: { hit_count: count } } } })),
        { ordered: false },
      ),
    );
  }

  async count(): Promise<number> {
    return this.run("count", (c) => c.question.countDocuments(LIVE));
  }

  async evict(policy: EvictionPolicy, maxSize: number, cleanSize: number): Promise<number[]> {
    checkEvictSizes(maxSize, cleanSize);
    const sort: Sort = Object.fromEntries(effectiveOrder(policy).map(({ column, direction }) => [FIELD[column], direction === "asc" ? 1 : -1]));
    return this.locked("evict", async (c) => {
      if ((await c.question.countDocuments(LIVE)) <= maxSize) return [];
      const victims = await c.question.find(LIVE, { projection: { _id: 1 }, sort, limit: cleanSize, allowDiskUse: true }).toArray();
      const ids = victims.map((doc) => doc._id);
      await this.kill(c, ids);
      return ids;
    });
  }

  async expire(createdBefore: number): Promise<number[]> {
    return this.locked("expire", async (c) => {
      const ids = (await c.question.find({ ...LIVE, create_on: { $lt: createdBefore } }, { projection: { _id: 1 } }).toArray()).map((doc) => doc._id);
      await this.kill(c, ids);
      return ids;
    });
  }

  async markDeleted(ids: readonly number[]): Promise<void> {
    if (ids.length > 0) await this.locked("markDeleted", (c) => this.kill(c, ids));
  }

  async purgeDeleted(): Promise<number> {
    return this.run("purgeDeleted", async (c) => {
      const ids = (await c.question.find({ deleted: true }, { projection: { _id: 1 } }).toArray()).map((doc) => doc._id);
      if (ids.length === 0) return 0;
      await c.report.deleteMany({ cacheQuestionId: { $in: ids } });
      await c.session.deleteMany({ question_id: { $in: ids } });
      return (await c.question.deleteMany({ _id: { $in: ids }, deleted: true })).deletedCount;
    });
  }

  async deletedObjectKeys(): Promise<string[]> {
    return this.run("deletedObjectKeys", async (c) => {
      const docs = await c.question.find({ deleted: true, "deps.type": "object" }, { projection: { deps: 1 } }).toArray();
      return docs.flatMap((doc) => (doc.deps ?? []).filter((dep) => dep.type === "object").map((dep) => dep.data));
    });
  }

  async clear(): Promise<void> {
    await this.locked("clear", async (c) => {
      await c.question.updateMany(LIVE, { $set: { deleted: true } });
      await c.report.deleteMany({});
    });
  }

  async embeddingsAfter(afterId: number, limit: number): Promise<Array<{ id: number; embedding: Float32Array }>> {
    return this.run("embeddingsAfter", async (c) => {
      const docs = await c.question
        .find({ _id: { $gt: afterId }, ...LIVE, embedding: { $exists: true } }, { projection: { embedding: 1 }, sort: { _id: 1 }, limit })
        .toArray();
      return docs.map((doc) => ({ id: doc._id, embedding: bytesToVector(bytesOf(doc.embedding)) }));
    });
  }

  async *iterate(batchSize = 1000): AsyncIterable<CacheRecord> {
    if (!isPositiveInteger(batchSize)) throw new ValidationError("iterate: batchSize must be a positive integer");
    let afterId = 0;
    for (;;) {
      const after = afterId;
      const page = await this.run("iterate", (c) =>
        c.question.find({ _id: { $gt: after }, ...LIVE }, { sort: { _id: 1 }, limit: batchSize }).toArray(),
      );
      yield* page.map(toRecord);
      if (page.length < batchSize) return;
      afterId = page[page.length - 1]._id;
    }
  }

  async addSession(id: number, session: string): Promise<void> {
    checkLength("sessionId", session, this.tableLen);
    await this.run("addSession", async (c) => {
      try {
        await c.session.updateOne({ question_id: id, session_id: session }, { $setOnInsert: { question_id: id, session_id: session } }, { upsert: true });
      } catch (error) {
        // Two processes linking the same pair at once: one upsert wins, the other hits the unique index.
        if (!isDuplicateKey(error)) throw error;
      }
    });
  }

  async sessionsOf(id: number): Promise<string[]> {
    return this.run("sessionsOf", async (c) =>
      (await c.session.find({ question_id: id }, { sort: { session_id: 1 } }).toArray()).map((link) => link.session_id),
    );
  }

  async listSessions(session?: string): Promise<Array<{ id: number; session: string }>> {
    return this.run("listSessions", async (c) =>
      (await c.session.find(session === undefined ? {} : { session_id: session }, { sort: { session_id: 1, question_id: 1 } }).toArray()).map(
        (link) => ({ id: link.question_id, session: link.session_id }),
      ),
    );
  }

  async deleteSession(session: string): Promise<number> {
    return this.run("deleteSession", async (c) => (await c.session.deleteMany({ session_id: session })).deletedCount);
  }

  async addReports(rows: readonly ReportRow[]): Promise<void> {
    if (rows.length === 0 || this.maxReports === 0) return;
    await this.run("addReports", async (c) => {
      await c.report.insertMany(rows.map(toStoredReport));
      // ObjectIds grow with time: every row older than the maxReports-th newest goes.
      const [oldestKept] = await c.report.find({}, { projection: { _id: 1 }, sort: { _id: -1 }, skip: this.maxReports - 1, limit: 1 }).toArray();
      if (oldestKept) await c.report.deleteMany({ _id: { $lt: oldestKept._id } });
    });
  }

  async countReports(): Promise<number> {
    return this.run("countReports", (c) => c.report.countDocuments({}));
  }

  /** Every write is acknowledged by the server when its call resolves. */
  async flush(): Promise<void> {}

  /** Drops this store's collections (tests, uninstall). `init()` creates them again. */
  async drop(): Promise<void> {
    try {
      const { c } = await this.connection.get();
      for (const name of Object.values(this.names)) await c.db.collection(name).drop().catch(() => undefined);
    } catch (error) {
      throw storeFault("mongodb", `cannot drop the collections on ${this.target}`, error);
    }
    this.opening.reset();
  }

  /** Closes the connection (a client passed in is left open). Idempotent. */
  async close(): Promise<void> {
    this.opening.reset();
    const opened = await this.connection.reset()?.catch(() => undefined);
    if (opened?.owned) await opened.client.close();
  }
}
