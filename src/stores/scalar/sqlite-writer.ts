/**
 * Where the SQLite store's writes run. On a file they go to a writer thread with its own connection
 * (sqlite-writer-thread.ts): SQLite calls are synchronous, and a write that waits for another process's lock
 * (up to busyTimeoutMs) or on a disk that stopped answering would otherwise stop the whole event loop, /healthz
 * included. Every call has a deadline (timeoutMs) after which its caller fails open; reads stay on the store's
 * own connection (in WAL mode a reader never waits for a writer). A ":memory:" database cannot be shared between
 * connections and has no disk to wait on, so its writes run in place.
 */
import { createRequire } from "node:module";
import type { Worker } from "node:worker_threads";
import { StoreError } from "../../core/errors.js";
import { startModuleWorker } from "../../core/worker-thread.js";
import { withDeadline } from "../connection.js";
import type { SqliteWrites } from "./sqlite-connection.js";
import type { TableNames } from "./sqlite-schema.js";

type Op = keyof SqliteWrites;
type Args<K extends Op> = Parameters<SqliteWrites[K]>;
type Result<K extends Op> = ReturnType<SqliteWrites[K]>;

/** Runs the store's write transactions. */
export interface SqliteWriter {
  run<K extends Op>(op: K, ...args: Args<K>): Promise<Result<K>>;
  close(): Promise<void>;
}

/** What the writer thread is started with. */
export interface WriterThreadData {
  driver: string;
  path: string;
  tables: TableNames;
  maxReports: number;
  busyTimeoutMs: number;
  autoCheckpointPages: number;
}
/** A call posted to the thread (ids from 1; 0 is the thread's "ready"). */
export interface WriterCall {
  id: number;
  op: Op;
  args: unknown[];
  /** Epoch milliseconds after which the caller has given up: the thread then skips the call. */
  deadlineMs: number;
}
export interface WriterReply {
  id: number;
  result?: unknown;
  error?: { message: string; code?: string };
}

function fault(op: string, message: string, cause?: unknown): StoreError {
  return new StoreError("sqlite", `${op} failed: ${message}`, cause === undefined ? undefined : { cause });
}

/** Runs the transactions on the caller's thread (":memory:"): a driver fault becomes a rejected StoreError. */
export function inPlaceWriter(writes: SqliteWrites): SqliteWriter {
  return {
    async run(op, ...args) {
      try {
        return (writes[op] as (...a: typeof args) => Result<typeof op>)(...args);
      } catch (error) {
        throw fault(op, (error as Error).message, error);
      }
    },
    async close() {},
  };
}

/**
 * Writes waiting in the thread at most: past this the thread is behind (a disk that stopped answering), and a new
 * write fails at once instead of queueing records without bound.
 */
const MAX_PENDING = 1024;

interface Pending {
  resolve(value: unknown): void;
  reject(error: Error): void;
}

/** Set by a call once it is posted, so a caller that gives up can forget it. */
interface Ticket {
  id?: number;
}

/**
 * A running writer thread. It holds the process open only while a caller waits for it; a call whose caller gave up
 * still counts against MAX_PENDING until the thread answers it (it is in the thread's queue until then).
 */
class WriterThread {
  /** Resolves once the thread's connection has set the database up (tables created). */
  readonly ready: Promise<void>;
  private readonly worker: Worker;
  /** Callers waiting, by call id (0: the thread's "ready"). */
  private readonly waiting = new Map<number, Pending>();
  /** Calls posted and not answered yet, waited for or abandoned. */
  private queued = 0;
  private nextId = 1;
  private gone?: Error;

  constructor(data: WriterThreadData, onExit: (thread: WriterThread) => void) {
    this.worker = startModuleWorker(new URL("./sqlite-writer-thread.js", import.meta.url), ["better-sqlite3"], { workerData: data });
    this.ready = new Promise<void>((resolve, reject) => this.waiting.set(0, { resolve: () => resolve(), reject }));
    // A thread that could not set the database up is of no use: it stops, and the next write starts another.
    this.ready.catch(() => void this.worker.terminate());
    this.worker.on("message", (reply: WriterReply) => this.receive(reply));
    this.worker.on("error", (error) => this.fail(error));
    this.worker.on("exit", (code) => {
      this.fail(new Error(`the writer thread exited (code ${code})`));
      onExit(this);
    });
  }

  /** Posts a call that the thread skips (answering with an error) once `deadlineMs` (epoch) has passed. */
  call(op: Op, args: unknown[], deadlineMs: number, ticket: Ticket): Promise<unknown> {
    if (this.gone) return Promise.reject(this.gone);
    if (this.queued >= MAX_PENDING) {
      return Promise.reject(new Error(`${MAX_PENDING} writes are waiting for the database (is its disk answering?)`));
    }
    const id = (ticket.id = this.nextId++);
    return new Promise((resolve, reject) => {
      this.waiting.set(id, { resolve, reject });
      this.queued++;
      if (this.waiting.size === 1) this.worker.ref();
      this.worker.postMessage({ id, op, args, deadlineMs } satisfies WriterCall);
    });
  }

  /** Forgets a call whose caller gave up: its reply, when it comes, is dropped. */
  abandon(ticket: Ticket): void {
    if (ticket.id !== undefined) this.forget(ticket.id);
  }

  /** Asks the thread to finish its queue and stop; after `timeoutMs` (a disk that never answers) it is stopped. */
  async close(timeoutMs: number): Promise<void> {
    if (this.gone) return;
    const exited = new Promise<void>((resolve) => this.worker.once("exit", () => resolve()));
    this.worker.ref();
    this.worker.postMessage("close");
    const stop = setTimeout(() => void this.worker.terminate(), timeoutMs);
    await exited;
    clearTimeout(stop);
  }

  private receive(reply: WriterReply): void {
    if (reply.id !== 0) this.queued--;
    const call = this.forget(reply.id);
    if (!call) return;
    if (reply.error) call.reject(Object.assign(new Error(reply.error.message), { code: reply.error.code }));
    else call.resolve(reply.result);
  }

  private forget(id: number): Pending | undefined {
    const call = this.waiting.get(id);
    this.waiting.delete(id);
    if (this.waiting.size === 0) this.worker.unref();
    return call;
  }

  private fail(error: Error): void {
    this.gone ??= error;
    for (const [id, call] of this.waiting) {
      this.waiting.delete(id);
      call.reject(error);
    }
    this.queued = 0;
    this.worker.unref();
  }
}

/** The least time opening the writer thread may take (see ThreadWriter.open). */
const OPEN_TIMEOUT_MS = 30_000;

/**
 * Writes on a writer thread, started with the store and again after it stopped (the next write starts a new
 * one). A call that gets no answer within `timeoutMs` fails (the request fails open), and the thread skips it if
 * it has not started it by then; one that had started (its transaction waiting for the lock or the disk) may still
 * commit after its caller was told it failed.
 */
export class ThreadWriter implements SqliteWriter {
  private thread?: WriterThread;
  private closed = false;

  constructor(
    private readonly data: Omit<WriterThreadData, "driver">,
    private readonly timeoutMs: number,
  ) {}

  /**
   * Starts the thread and waits until its connection has set the database up; a failure stops it again. Starting a
   * thread (a new V8 isolate loading the driver) is not a write: on a loaded machine it takes longer than a short
   * `timeoutMs`, so opening waits at least OPEN_TIMEOUT_MS before it gives up on a disk that never answers.
   */
  async open(): Promise<void> {
    const thread = this.started();
    try {
      await withDeadline("sqlite", `opening ${this.data.path}`, Math.max(this.timeoutMs, OPEN_TIMEOUT_MS), () => thread.ready);
    } catch (error) {
      await this.close();
      throw error;
    }
  }

  async run<K extends Op>(op: K, ...args: Args<K>): Promise<Result<K>> {
    if (this.closed) throw fault(op, "the store is closed");
    const thread = this.started();
    const ticket: Ticket = {};
    const deadlineMs = Date.now() + this.timeoutMs;
    const work = async () => {
      try {
        await thread.ready;
        return (await thread.call(op, args, deadlineMs, ticket)) as Result<K>;
      } catch (error) {
        throw fault(op, (error as Error).message, error);
      }
    };
    return withDeadline("sqlite", op, this.timeoutMs, work, () => thread.abandon(ticket));
  }

  async close(): Promise<void> {
    this.closed = true;
    const thread = this.thread;
    this.thread = undefined;
    await thread?.close(this.timeoutMs);
  }

  private started(): WriterThread {
    if (!this.thread) {
      const driver = createRequire(import.meta.url).resolve("better-sqlite3");
      const thread = new WriterThread({ ...this.data, driver }, (ended) => {
        if (this.thread === ended) this.thread = undefined;
      });
      this.thread = thread;
    }
    return this.thread;
  }
}
