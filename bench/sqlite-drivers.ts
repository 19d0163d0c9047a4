/**
 * better-sqlite3 (synchronous) vs sqlite3 (node-sqlite3, callback API, promisified) on the cache's hit path:
 * the scalar store's own tables and statements, 100k rows with 384-d embeddings, WAL, synchronous=NORMAL.
 * Prints markdown tables and writes bench/results/sqlite-drivers.json (or --json <file>).
 *   npx tsx bench/sqlite-drivers.ts
 */
import { copyFileSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Database from "better-sqlite3";
import sqlite3 from "sqlite3";
import { scalarStatements, sqliteDdl, tableNames } from "../src/stores/scalar/sqlite-schema.js";
import { SqliteScalarStore } from "../src/stores/scalar/sqlite.js";
import { parseArgs } from "./lib/args.js";
import { measure, type LatencyStats } from "./lib/measure.js";
import { environment, saveResult } from "./lib/output.js";
import { driversTable } from "./lib/report.js";
import type { DriverRow, DriversResult } from "./lib/types.js";

const ROWS = 100_000;
const DIMENSION = 384;
const READS = 20_000;
const TOUCHES = 5_000;
const BATCHES = 300;
const BATCH = 100;
const INSERTS = 3_000;

const tables = tableNames("semcache_");
const sql = scalarStatements(tables);

/** The operations of one driver, all awaited so both drivers run through the same loop. */
interface Driver {
  get(id: number): Promise<unknown>;
  findByKey(key: string): Promise<unknown>;
  touch(id: number, at: number): Promise<unknown>;
  touchBatch(ids: readonly number[], at: number): Promise<unknown>;
  insert(i: number): Promise<unknown>;
  close(): Promise<void>;
}

const embedding = Buffer.from(Float32Array.from({ length: DIMENSION }, (_, i) => Math.sin(i)).buffer);
const insertParams = (i: number) => [`question ${i}`, `answer ${i}`, "str", `key ${i}`, "p", i, i, embedding];

/** Deterministic pseudo-random ids, the same sequence for both drivers. */
function ids(count: number, seed: number): number[] {
  let x = seed;
  return Array.from({ length: count }, () => {
    x = (x * 1_103_515_245 + 12_345) % 2_147_483_648;
    return 1 + (x % ROWS);
  });
}

function populate(path: string): void {
  const db = new Database(path);
  db.pragma("journal_mode = WAL");
  db.pragma("synchronous = NORMAL");
  for (const statement of sqliteDdl(tables)) db.exec(statement);
  const insert = db.prepare(sql.insertQuestion);
  db.transaction(() => {
    for (let i = 0; i < ROWS; i++) insert.run(...insertParams(i));
  })();
  db.close();
}

function betterDriver(path: string): Driver {
  const db = new Database(path);
  db.pragma("journal_mode = WAL");
  db.pragma("synchronous = NORMAL");
  const get = db.prepare(sql.get);
  const find = db.prepare(sql.findByKey);
  const touch = db.prepare(sql.touch);
  const insert = db.prepare(sql.insertQuestion);
  const touchBatch = db.transaction((batch: readonly number[], at: number) => {
    for (const id of batch) touch.run(at, at, 1, id);
  });
  const insertOne = db.transaction((i: number) => insert.run(...insertParams(ROWS + i)));
  return {
    get: async (id) => get.all(id),
    findByKey: async (key) => find.all(key),
    touch: async (id, at) => {
      get.all(id);
      return touch.run(at, at, 1, id);
    },
    touchBatch: async (batch, at) => touchBatch.immediate(batch, at),
    insert: async (i) => insertOne.immediate(i),
    close: async () => void db.close(),
  };
}

function promisify<T>(call: (callback: (error: Error | null, result?: T) => void) => void): Promise<T> {
  return new Promise((resolve, reject) => call((error, result) => (error ? reject(error) : resolve(result as T))));
}

async function sqlite3Driver(path: string): Promise<Driver> {
  const db = await new Promise<sqlite3.Database>((resolve, reject) => {
    const opened: sqlite3.Database = new sqlite3.Database(path, (error) => (error ? reject(error) : resolve(opened)));
  });
  const exec = (text: string) => promisify<void>((cb) => db.exec(text, cb));
  await exec("PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL;");
  const prepare = (text: string) =>
    new Promise<sqlite3.Statement>((resolve, reject) => {
      const statement: sqlite3.Statement = db.prepare(text, (error) => (error ? reject(error) : resolve(statement)));
    });
  const [get, find, touch, insert] = await Promise.all([sql.get, sql.findByKey, sql.touch, sql.insertQuestion].map(prepare));
  const all = (statement: sqlite3.Statement, params: unknown[]) => promisify<unknown[]>((cb) => statement.all(params, cb));
  const run = (statement: sqlite3.Statement, params: unknown[]) => promisify<void>((cb) => statement.run(params, cb));
  return {
    get: (id) => all(get, [id]),
    findByKey: (key) => all(find, [key]),
    touch: async (id, at) => {
      await all(get, [id]);
      await run(touch, [at, at, 1, id]);
    },
    touchBatch: async (batch, at) => {
      await exec("BEGIN IMMEDIATE");
      for (const id of batch) await run(touch, [at, at, 1, id]);
      await exec("COMMIT");
    },
    insert: async (i) => {
      await exec("BEGIN IMMEDIATE");
      await run(insert, insertParams(ROWS + i));
      await exec("COMMIT");
    },
    close: async () => {
      for (const statement of [get, find, touch, insert]) await promisify<void>((cb) => statement.finalize(cb));
      await promisify<void>((cb) => db.close(cb));
    },
  };
}

async function runOps(driver: Driver): Promise<Record<string, LatencyStats>> {
  const reads = ids(READS, 7);
  const touches = ids(TOUCHES, 11);
  const batches = Array.from({ length: BATCHES }, (_, b) => ids(BATCH, 100 + b));
  return {
    "get by id": await measure(READS, (i) => driver.get(reads[i])),
    "findByKey (key_hash index)": await measure(READS, (i) => driver.findByKey(`key ${reads[i] - 1}`)),
    "get + touch UPDATE": await measure(TOUCHES, (i) => driver.touch(touches[i], 1_000_000 + i)),
    [`touch ${BATCH} ids in one transaction`]: await measure(BATCHES, (i) => driver.touchBatch(batches[i], 2_000_000 + i)),
    "insert, one transaction per row": await measure(INSERTS, (i) => driver.insert(i)),
  };
}

/** The store itself (async API, record objects, deps join) on the same file, to see its overhead. */
async function storeOps(path: string): Promise<Record<string, LatencyStats>> {
  const store = new SqliteScalarStore({ path });
  await store.init();
  const reads = ids(READS, 7);
  try {
    return {
      "SqliteScalarStore.get": await measure(READS, (i) => store.get(reads[i])),
      "SqliteScalarStore.findByKey": await measure(READS, (i) => store.findByKey(`key ${reads[i] - 1}`)),
    };
  } finally {
    await store.close();
  }
}

async function run(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), "semcache-bench-sqlite-"));
  try {
    const betterPath = join(dir, "better.db");
    const sqlite3Path = join(dir, "sqlite3.db");
    const started = Date.now();
    populate(betterPath);
    copyFileSync(betterPath, sqlite3Path);
    console.log(`populated ${ROWS} rows in ${((Date.now() - started) / 1000).toFixed(1)} s`);

    const better = betterDriver(betterPath);
    const betterStats = await runOps(better);
    await better.close();
    const node = await sqlite3Driver(sqlite3Path);
    const nodeStats = await runOps(node);
    await node.close();
    const store = await storeOps(betterPath);

    const results: DriverRow[] = Object.keys(betterStats).map((op) => {
      const b = betterStats[op];
      const s = nodeStats[op];
      return { op, better: b, sqlite3: s, ratio: op.startsWith("insert") ? b.perSecond / s.perSecond : s.p50 / b.p50 };
    });
    const sqliteVersion = (new Database(":memory:").prepare("SELECT sqlite_version() AS v").get() as { v: string }).v;
    const result: DriversResult = { ...environment(), sqliteVersion, rows: ROWS, dimension: DIMENSION, results, store };
    console.log(`\nSQLite drivers on the hit path: ${ROWS} rows, ${DIMENSION}-d embeddings, WAL, synchronous=NORMAL\n`);
    console.log(driversTable(result));
    console.log(`\ntotal ${((Date.now() - started) / 1000).toFixed(1)} s`);
    saveResult("sqlite-drivers", result, parseArgs().value("json"));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

await run();
