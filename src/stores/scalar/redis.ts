/**
 * The Redis scalar store. Over 300 lines: one backend's implementation of the whole ScalarStore contract
 * (records, eviction, expiry, sessions, reports, lifecycle): each method is a few lines of this database's
 * calls, so splitting it would scatter one backend over files without giving either part a job of its own. (Its
 * Lua scripts live in redis-scripts.ts.)
 */
import { createHash } from "node:crypto";
import { StoreError, ValidationError } from "../../core/errors.js";
import { isPositiveInteger, positiveInteger } from "../../core/validation.js";
import { importOptional } from "../../core/optional-import.js";
import type { AnswerType, CacheRecord, NewRecord, QuestionDep, ReportRow } from "../../core/types.js";
import { bytesToVector, vectorToBytes } from "../../core/vector-math.js";
import { checkEvictSizes, effectiveOrder } from "../../core/eviction-policies.js";
import type { EvictionColumn, EvictionPolicy } from "../../core/contracts/eviction.js";
import {
  describeTarget, Lazy, messageOf, resolveTimeoutMs, resolveUrl, storeFault, withDeadline, type ServerConnectionOptions,
} from "../connection.js";
import { checkLength, checkRecords, resolveTableLen } from "./limits.js";
import { REDIS_SCRIPTS, type RedisScriptName } from "./redis-scripts.js";
import { resolveMaxReports, toStoredReport, type ReportRetentionOptions } from "./report-retention.js";
import type { ScalarStore, ScalarStoreCapabilities, TableLenConfig } from "../../core/contracts/scalar-store.js";

/** The part of a node-redis (v4+) client the store uses. */
export interface RedisClientLike {
  readonly isOpen: boolean;
  connect(): Promise<unknown>;
  withTypeMapping(mapping: Record<number, unknown>): RedisClientLike;
  evalSha(sha: string, options: { keys: string[]; arguments: Array<string | Buffer> }): Promise<unknown>;
  eval(script: string, options: { keys: string[]; arguments: Array<string | Buffer> }): Promise<unknown>;
  on(event: string, listener: (...args: unknown[]) => void): unknown;
  destroy(): void;
  close?(): Promise<void>;
}

export interface RedisScalarStoreOptions extends ServerConnectionOptions, ReportRetentionOptions {
  /** Your own node-redis client (connected or not): used as is and left open by close(). */
  client?: RedisClientLike;
  /** Prefix of every key, followed by ":". Default "semcache". Stores with different namespaces never meet. */
  namespace?: string;
  /**
   * Seconds after creation at which Redis itself deletes a record's hash, plus the same again as grace (so with
   * ttlSeconds 3600 a hash lives two hours). The data manager hides entries older than its own ttlSeconds at once
   * and purges them from the indexes; this expiry frees the memory even when no process is running. managerFactory
   * passes its `ttlSeconds` here unless scalarParams sets one (YAML: scalar_params.ttl).
   */
  ttlSeconds?: number;
  /** Milliseconds to wait for the connection. Default 5000. */
  connectTimeoutMs?: number;
  /**
   * Milliseconds one store call may take before it fails with StoreError (a lookup then misses and the model
   * answers). The store's own connection is then dropped and the next call connects afresh: Redis answers in
   * order on one socket, so a silent one would stall every later call. A `client` you pass is left as it is.
   * Default 5000 (DEFAULT_STORE_TIMEOUT_MS).
   */
  timeoutMs?: number;
  /** Column lengths (see DEFAULT_TABLE_LEN), checked before writing. */
  tableLenConfig?: Partial<TableLenConfig>;
}

const ORDER_CODE: Readonly<Record<EvictionColumn, string>> = { createdAtMs: "c", lastAccessedAtMs: "l", hitCount: "h", id: "i" };

/** An eviction order as the scripts know it: "l+i+" is last_access ascending, then id ascending. */
export function orderCode(policy: EvictionPolicy): string {
  return effectiveOrder(policy)
    .map(({ column, direction }) => `${ORDER_CODE[column]}${direction === "asc" ? "+" : "-"}`)
    .join("");
}

const SHAS = Object.fromEntries(
  Object.entries(REDIS_SCRIPTS).map(([name, source]) => [name, createHash("sha1").update(source).digest("hex")]),
) as Record<RedisScriptName, string>;

/** A SCAN pattern matching exactly the keys that start with `prefix`. */
function globPrefix(prefix: string): string {
  return `${prefix.replace(/[*?[\]\\]/g, (c) => `\\${c}`)}*`;
}

/** A client being connected or connected, and the raw client as soon as it exists (so a silent connect can be dropped too). */
interface Connection {
  opened: Lazy<{ raw: RedisClientLike; buffers: RedisClientLike; owned: boolean }>;
  made: { raw?: RedisClientLike };
}

function text(value: unknown): string {
  return Buffer.isBuffer(value) ? value.toString("utf8") : String(value);
}

/** A record hash (flat field/value list, values as Buffers) -> record; null when gone or deleted. */
function toRecord(id: number, flat: unknown): CacheRecord | null {
  const fields = new Map<string, Buffer>();
  const list = flat as Buffer[];
  for (let i = 0; i + 1 < list.length; i += 2) fields.set(list[i].toString("utf8"), list[i + 1]);
  if (fields.size === 0 || fields.has("x")) return null;
  const field = (name: string) => (fields.get(name) ?? Buffer.alloc(0)).toString("utf8");
  const embedding = fields.get("e");
  return {
    id,
    question: field("q"),
    answer: field("a"),
    answerType: field("t") as AnswerType,
    keyHash: field("k"),
    partition: field("p"),
    deps: fields.has("d") ? (JSON.parse(field("d")) as QuestionDep[]) : undefined,
    embedding: embedding ? bytesToVector(embedding) : undefined,
    createdAtMs: Number(field("c")),
    lastAccessedAtMs: Number(field("l")),
    hitCount: Number(field("h")),
  };
}

/**
 * Scalar store on Redis through node-redis (an optional peer dependency, loaded on init). Every write is one
 * Lua script (see redis-scripts.ts), so replicas sharing the namespace evict and count exactly. Commands fail
 * at once while the connection is down (no offline queue: a lookup must fail open, not wait), and the client
 * reconnects in the background, so the store recovers without a restart. Connection: `url`, host/port/
 * password/database, or a `client`; with none, SEMCACHE_REDIS_URL, then REDIS_URL. Standalone Redis (the
 * scripts address keys they compute, which Redis Cluster does not allow).
 */
export class RedisScalarStore implements ScalarStore {
  readonly specificationVersion = "v1";
  readonly kind = "redis";
  readonly capabilities: ScalarStoreCapabilities = Object.freeze({ persistent: true, shared: true });
  readonly tableLen: Readonly<TableLenConfig>;
  readonly namespace: string;
  /** Where the store connects, without the password. */
  readonly target: string;
  private readonly options: RedisScalarStoreOptions;
  private readonly url?: string;
  private readonly prefix: string;
  private readonly ttlMs: number;
  private readonly maxReports: number;
  private readonly connectTimeoutMs: number;
  private readonly timeoutMs: number;
  private connection = this.newConnection();
  /** Connects and loads nothing else: the scripts are loaded on first use. */
  private readonly opening = new Lazy(async () => {
    await this.script(this.connection, "count", []);
  });

  constructor(options: RedisScalarStoreOptions = {}) {
    const namespace = options.namespace ?? "semcache";
    if (typeof namespace !== "string" || namespace === "" || /\s/.test(namespace)) {
      throw new ValidationError(`redis: namespace must be a non-empty string without spaces, got "${String(namespace)}"`);
    }
    if (options.ttlSeconds !== undefined && !(typeof options.ttlSeconds === "number" && options.ttlSeconds > 0)) {
      throw new ValidationError("redis: ttlSeconds must be a positive number of seconds");
    }
    if (options.database !== undefined && !/^\d+$/.test(options.database)) {
      throw new ValidationError("redis: database must be a database number such as \"0\"");
    }
    this.url = options.client ? undefined : resolveUrl("redis", options);
    this.options = options;
    this.namespace = namespace;
    this.prefix = `${namespace}:`;
    // Twice the ttl: the data manager's sweep removes a record from the indexes before Redis drops its hash.
    this.ttlMs = options.ttlSeconds === undefined ? 0 : options.ttlSeconds * 2000;
    this.maxReports = resolveMaxReports("redis", options.maxReports);
    this.connectTimeoutMs = positiveInteger("redis: connectTimeoutMs", options.connectTimeoutMs, 5000);
    this.timeoutMs = resolveTimeoutMs("redis", options.timeoutMs);
    this.tableLen = resolveTableLen(options.tableLenConfig);
    this.target = options.client ? "redis (the client passed in)" : describeTarget("redis", this.url, options, 6379);
  }

  init(): Promise<void> {
    return this.bounded(`cannot open ${this.target}`, () => this.opening.get()).catch((error: unknown) => {
      throw storeFault("redis", `cannot open ${this.target}`, error);
    });
  }

  private newConnection(): Connection {
    const made: Connection["made"] = {};
    return { made, opened: new Lazy(() => this.createClient(made)) };
  }

  /** `work` within timeoutMs; on expiry the connection it used is dropped (if ours), and the next call makes a new one. */
  private bounded<T>(what: string, work: (connection: Connection) => Promise<T>): Promise<T> {
    const used = this.connection;
    return withDeadline("redis", what, this.timeoutMs, () => work(used), () => {
      if (this.connection !== used || this.options.client) return;
      this.connection = this.newConnection();
      // Rejects the commands still waiting on it (the work settles) and closes the socket.
      used.made.raw?.destroy();
    });
  }

  private async createClient(made: Connection["made"]): Promise<{ raw: RedisClientLike; buffers: RedisClientLike; owned: boolean }> {
    const redis = await importOptional<{ createClient: (options: object) => RedisClientLike; RESP_TYPES: { BLOB_STRING: number } }>(
      "redis",
      "The redis scalar store",
    );
    const bufferMapping = { [redis.RESP_TYPES.BLOB_STRING]: Buffer };
    const given = this.options.client;
    if (given) {
      if (!given.isOpen) await given.connect();
      return { raw: given, buffers: given.withTypeMapping(bufferMapping), owned: false };
    }
    const { host, port, user, password, database } = this.options;
    let connected = false;
    const client = redis.createClient({
      ...(this.url === undefined ? { username: user, password, database: database === undefined ? undefined : Number(database) } : { url: this.url }),
      // Without a queue, commands fail at once while disconnected instead of waiting for the server to return.
      disableOfflineQueue: true,
      socket: {
        ...(this.url === undefined ? { host: host ?? "127.0.0.1", port: port ?? 6379 } : {}),
        connectTimeout: this.connectTimeoutMs,
        // Never connected: give up (init reports it). Connected once: keep reconnecting in the background.
        // (A new Error: node-redis tests `instanceof Error`, which a socket error from another realm can fail.)
        reconnectStrategy: (retries: number, cause: Error) =>
          connected ? Math.min(50 * 2 ** retries, 2000) : new Error(messageOf(cause), { cause }),
      },
    });
    made.raw = client;
    // A dropped connection emits "error"; without a listener it would crash the process.
    client.on("error", () => undefined);
    client.on("ready", () => (connected = true));
    try {
      await client.connect();
    } catch (error) {
      client.destroy();
      throw error;
    }
    return { raw: client, buffers: client.withTypeMapping(bufferMapping), owned: true };
  }

  /** Runs a script by its SHA, loading it on first use (and again after the server restarted). */
  private async script(connection: Connection, name: RedisScriptName, args: Array<string | Buffer>): Promise<unknown> {
    const { buffers } = await connection.opened.get();
    const options = { keys: [], arguments: [this.prefix, ...args] };
    try {
      return await buffers.evalSha(SHAS[name], options);
    } catch (error) {
      if (!/NOSCRIPT/.test(messageOf(error))) throw error;
      return buffers.eval(REDIS_SCRIPTS[name], options);
    }
  }

  /** Runs a script once init() has; faults become StoreError naming the store and the operation. */
  private async run(operation: string, name: RedisScriptName, args: Array<string | Buffer> = []): Promise<unknown> {
    if (!this.opening.started) throw new StoreError("redis", `${operation}: the store is not open (call init() first)`);
    try {
      return await this.bounded(`${operation} on ${this.target}`, async (connection) => {
        await this.opening.get();
        return this.script(connection, name, args);
      });
    } catch (error) {
      throw storeFault("redis", `${operation} on ${this.target} failed`, error);
    }
  }

  async insert(records: readonly NewRecord[]): Promise<number[]> {
    checkRecords(records, this.tableLen);
    if (records.length === 0) return [];
    const args: Array<string | Buffer> = [String(this.ttlMs), String(records.length)];
    for (const r of records) {
      const hasDeps = r.deps !== undefined && r.deps.length > 0;
      const flags = `${r.embedding ? "e" : ""}${hasDeps ? "d" : ""}${r.session !== undefined ? "s" : ""}`;
      args.push(
        r.question, r.answer, r.answerType, r.keyHash, r.partition, String(r.createdAtMs), flags,
        r.embedding ? vectorToBytes(r.embedding) : "", hasDeps ? JSON.stringify(r.deps) : "", r.session ?? "",
      );
    }
    return (await this.run("insert", "insert", args)) as number[];
  }

  async get(id: number): Promise<CacheRecord | null> {
    return toRecord(id, await this.run("get", "get", [String(id)]));
  }

  async findByKey(keyHash: string): Promise<CacheRecord | null> {
    const found = (await this.run("findByKey", "findByKey", [keyHash])) as [number, unknown] | null;
    return found ? toRecord(found[0], found[1]) : null;
  }

  async touch(hits: ReadonlyArray<{ id: number; atMs: number; count: number }>): Promise<void> {
    if (hits.length === 0) return;
    const args = [String(hits.length)];
    for (const { id, atMs, count } of hits) args.push(String(id), String(atMs), String(count));
    await this.run("touch", "touch", args);
  }

  async count(): Promise<number> {
    return Number(await this.run("count", "count"));
  }

  async evict(policy: EvictionPolicy, maxSize: number, cleanSize: number): Promise<number[]> {
    checkEvictSizes(maxSize, cleanSize);
    return (await this.run("evict", "evict", [orderCode(policy), String(maxSize), String(cleanSize)])) as number[];
  }

  async expire(createdBefore: number): Promise<number[]> {
    return (await this.run("expire", "expire", [String(createdBefore)])) as number[];
  }

  async markDeleted(ids: readonly number[]): Promise<void> {
    if (ids.length > 0) await this.run("markDeleted", "markDeleted", ids.map(String));
  }

  async purgeDeleted(): Promise<number> {
    return Number(await this.run("purgeDeleted", "purgeDeleted"));
  }

  async deletedObjectKeys(): Promise<string[]> {
    const lists = (await this.run("deletedObjectKeys", "deletedDeps")) as unknown[];
    return lists.flatMap((json) => (JSON.parse(text(json)) as QuestionDep[]).filter((dep) => dep.type === "object").map((dep) => dep.data));
  }

  async clear(): Promise<void> {
    await this.run("clear", "clear");
  }

  async embeddingsAfter(afterId: number, limit: number): Promise<Array<{ id: number; embedding: Float32Array }>> {
    const flat = (await this.run("embeddingsAfter", "embeddingsAfter", [String(afterId), String(limit)])) as unknown[];
    const out: Array<{ id: number; embedding: Float32Array }> = [];
    for (let i = 0; i + 1 < flat.length; i += 2) out.push({ id: Number(flat[i]), embedding: bytesToVector(flat[i + 1] as Buffer) });
    return out;
  }

  async *iterate(batchSize = 1000): AsyncIterable<CacheRecord> {
    if (!isPositiveInteger(batchSize)) throw new ValidationError("iterate: batchSize must be a positive integer");
    let afterId = 0;
    for (;;) {
      const flat = (await this.run("iterate", "page", [String(afterId), String(batchSize)])) as unknown[];
      for (let i = 0; i + 1 < flat.length; i += 2) {
        const record = toRecord(Number(flat[i]), flat[i + 1]);
        if (record) yield record;
      }
      if (flat.length < 2 * batchSize) return;
      afterId = Number(flat[flat.length - 2]);
    }
  }

  async addSession(id: number, session: string): Promise<void> {
    checkLength("sessionId", session, this.tableLen);
    await this.run("addSession", "addSession", [String(id), session]);
  }

  async sessionsOf(id: number): Promise<string[]> {
    return ((await this.run("sessionsOf", "sessionsOf", [String(id)])) as unknown[]).map(text).sort();
  }

  async listSessions(session?: string): Promise<Array<{ id: number; session: string }>> {
    const flat = (await this.run("listSessions", "listSessions", session === undefined ? [] : [session])) as unknown[];
    const out: Array<{ id: number; session: string }> = [];
    for (let i = 0; i + 1 < flat.length; i += 2) {
      const name = text(flat[i]);
      for (const id of (flat[i + 1] as unknown[]).map((value) => Number(text(value))).sort((a, b) => a - b)) out.push({ id, session: name });
    }
    return out;
  }

  async deleteSession(session: string): Promise<number> {
    return Number(await this.run("deleteSession", "deleteSession", [session]));
  }

  async addReports(rows: readonly ReportRow[]): Promise<void> {
    if (rows.length > 0 && this.maxReports > 0) await this.run("addReports", "addReports", [String(this.maxReports), ...rows.map((row) => JSON.stringify(toStoredReport(row)))]);
  }

  async countReports(): Promise<number> {
    return Number(await this.run("countReports", "countReports"));
  }

  /** Every write is applied when its call resolves; durability is the server's (RDB/AOF) setting. */
  async flush(): Promise<void> {}

  /** Deletes every key of the namespace (tests, uninstall). `init()` works again afterwards. */
  async drop(): Promise<void> {
    try {
      await this.script(this.connection, "drop", [globPrefix(this.prefix)]);
    } catch (error) {
      throw storeFault("redis", `cannot drop namespace "${this.namespace}" on ${this.target}`, error);
    }
  }

  /** Closes the connection (a client passed in is left open). Idempotent. */
  async close(): Promise<void> {
    this.opening.reset();
    const opened = await this.connection.opened.reset()?.catch(() => undefined);
    if (!opened?.owned) return;
    if (opened.raw.close) await opened.raw.close().catch(() => opened.raw.destroy());
    else opened.raw.destroy();
  }
}
