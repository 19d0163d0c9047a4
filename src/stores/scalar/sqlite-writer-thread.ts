/**
 * The SQLite store's writer thread: its own connection runs the write transactions posted to it, one at a time,
 * so a write that waits (for another process's lock, or on a disk that stopped answering) holds this thread, never
 * the event loop of the process. Started by ThreadWriter (sqlite-writer.ts).
 */
import { createRequire } from "node:module";
import { parentPort, workerData } from "node:worker_threads";
import type BetterSqlite3 from "better-sqlite3";
import { setUpDatabase, writeTransactions, type SqliteWrites } from "./sqlite-connection.js";
import type { WriterCall, WriterReply, WriterThreadData } from "./sqlite-writer.js";

const port = parentPort;
if (!port) throw new Error("sqlite-writer-thread runs as a worker thread (see sqlite-writer.ts)");
const data = workerData as WriterThreadData;

let db: BetterSqlite3.Database | undefined;
let writes: SqliteWrites | undefined;
try {
  // The driver the store resolved, by its path (this module also runs bundled into a script: see sqlite-writer.ts).
  const Database = createRequire(data.driver)(data.driver) as typeof BetterSqlite3;
  db = new Database(data.path, { timeout: data.busyTimeoutMs });
  setUpDatabase(db, data.tables);
  db.pragma(`wal_autocheckpoint = ${data.autoCheckpointPages}`);
  writes = writeTransactions(db, data.tables, data.maxReports);
  port.postMessage({ id: 0, result: "ready" } satisfies WriterReply);
} catch (error) {
  db?.close();
  port.postMessage({ id: 0, error: describe(error) } satisfies WriterReply);
}

function describe(error: unknown): WriterReply["error"] {
  const { message, code } = (error ?? {}) as { message?: unknown; code?: unknown };
  return { message: typeof message === "string" ? message : String(error), code: typeof code === "string" ? code : undefined };
}

port.on("message", (call: WriterCall | "close") => {
  if (call === "close") {
    db?.close();
    port.close();
    return;
  }
  let reply: WriterReply;
  try {
    if (!writes) throw new Error("the database did not open");
    // Its caller has given up and failed open: running it now would store what was reported as not stored.
    if (Date.now() > call.deadlineMs) throw new Error("skipped: its caller's deadline (timeoutMs) had passed before the thread got to it");
    const operation = writes[call.op] as (...args: unknown[]) => unknown;
    reply = { id: call.id, result: operation(...call.args) };
  } catch (error) {
    reply = { id: call.id, error: describe(error) };
  }
  port.postMessage(reply);
});
