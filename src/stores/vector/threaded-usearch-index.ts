/**
 * The usearch index run in a thread of its own (usearch-thread.ts). usearch's calls are synchronous: in process,
 * a bulk add holds the event loop in slices of ~20 ms and a load or save at a million entries for most of a second,
 * and every other request of a server waits for them. In its thread the index holds only that thread; this
 * process posts each call to it and awaits the answer (a search pays the round trip, ~0.1 ms on a 2-core machine).
 */
import { errorFromReport, type ErrorReport } from "../../core/error-report.js";
import { DimensionMismatchError, StoreError } from "../../core/errors.js";
import { startModuleWorker } from "../../core/worker-thread.js";
import { Lazy } from "../connection.js";
import { lockFolder, type FolderLock } from "../data-dir-lock.js";
import { checkItems } from "./file-backed-index.js";
import { loadUsearch, UsearchIndex, USEARCH_IDS, type UsearchIndexOptions, type UsearchQuantization } from "./usearch-index.js";
import type { TransferListItem, Worker } from "node:worker_threads";
import type { VectorHit, VectorIndex, VectorIndexCapabilities } from "../../core/contracts/vector-index.js";

/**
 * The longest a bulk add holds the index's thread at a time: a search waits at most this long during an import.
 * Shorter than in process (ADD_TURN_BUDGET_MS), since a turn of that thread costs nothing else.
 */
export const THREAD_ADD_TURN_BUDGET_MS = 5;

/** What the index's thread is started with. */
export interface IndexThreadData {
  options: UsearchIndexOptions;
  turnBudgetMs: number;
}

/** A call posted to the thread; an add's vectors travel packed in one buffer. */
export type IndexCall = { id: number } & (
  | { op: "init" | "count" | "clear" | "flush" | "close" | "lastId" }
  | { op: "add"; ids: Float64Array; vectors: Float32Array }
  | { op: "search"; vector: Float32Array; topK: number }
  | { op: "delete"; ids: number[] }
);

/** The thread's answer, with the index's state after the call. */
export interface IndexReply {
  id: number;
  result?: unknown;
  error?: ErrorReport;
  dimension: number;
  quantization: UsearchQuantization;
}

/** Calls spread over IndexCall's variants: the op and the fields that go with it. */
type CallBody = IndexCall extends infer C ? (C extends IndexCall ? Omit<C, "id"> : never) : never;

const KIND = "usearch";

interface Waiting {
  resolve(value: unknown): void;
  reject(error: Error): void;
}

/**
 * A UsearchIndex in a worker thread, behind the same VectorIndex contract and options. The process keeps the
 * folder's lock; the thread keeps the native index and saves it. A thread that stops (killed, out of memory) fails
 * every call from then on; close() then says that changes since the last flush were not saved.
 */
export class ThreadedUsearchIndex implements VectorIndex {
  readonly specificationVersion = "v1";
  readonly kind = KIND;
  private readonly options: UsearchIndexOptions;
  private dim: number;
  private quant: UsearchQuantization;
  private worker?: Worker;
  private lock?: FolderLock;
  private readonly waiting = new Map<number, Waiting>();
  private nextId = 1;
  private readonly opening = new Lazy(() => this.open());
  private ready = false;
  private closed = false;
  /** Why the thread stopped, once it has. */
  private gone?: StoreError;

  constructor(options: UsearchIndexOptions) {
    // Checked here, as in process (a ValidationError now, not at init); making one touches no native code.
    const checked = new UsearchIndex(options);
    this.options = { ...options };
    this.dim = checked.dimension;
    this.quant = checked.quantization;
  }

  get capabilities(): VectorIndexCapabilities {
    return { persistent: this.options.path !== undefined, shared: false, roundedDistances: this.quant !== "f32" };
  }

  get dimension(): number {
    return this.dim;
  }

  /** How vectors are stored: the option, or what the saved index was built with (known after init). */
  get quantization(): UsearchQuantization {
    return this.quant;
  }

  init(): Promise<void> {
    // As in process: a failed init (the folder locked by another process) is not remembered, and is retried.
    return this.opening.get();
  }

  private async open(): Promise<void> {
    // Here first: a missing package or native build fails with its own error before a thread starts.
    await loadUsearch();
    const { path } = this.options;
    if (path !== undefined) this.lock = lockFolder(path, KIND);
    try {
      this.start();
      await this.call({ op: "init" });
    } catch (error) {
      const failed = this.worker;
      this.worker = undefined;
      await failed?.terminate();
      this.lock?.release();
      this.lock = undefined;
      throw error;
    }
    this.ready = true;
  }

  private start(): void {
    const workerData: IndexThreadData = { options: this.options, turnBudgetMs: THREAD_ADD_TURN_BUDGET_MS };
    const worker = startModuleWorker(new URL("./usearch-thread.js", import.meta.url), ["usearch"], { workerData });
    worker.unref();
    worker.on("message", (reply: IndexReply) => this.receive(reply));
    // A thread given up after a failed init may stop after the next one started: its stop is not the new one's.
    worker.on("error", (error) => this.worker === worker && this.stopped(`failed: ${error.message}`, error));
    worker.on("exit", (code) => this.worker === worker && this.stopped(`exited (code ${code})`));
    this.worker = worker;
    this.gone = undefined;
  }

  async add(items: ReadonlyArray<{ id: number; vector: Float32Array }>): Promise<void> {
    this.assertReady();
    if (items.length === 0) return;
    const dimension = (this.dim = checkItems(items, this.dim, USEARCH_IDS));
    // Packed, the vectors cross as one buffer handed over, not copied.
    const ids = Float64Array.from(items, (item) => item.id);
    const vectors = new Float32Array(items.length * dimension);
    items.forEach(({ vector }, i) => vectors.set(vector, i * dimension));
    await this.call({ op: "add", ids, vectors }, [ids.buffer, vectors.buffer]);
  }

  async search(vector: Float32Array, topK: number): Promise<VectorHit[]> {
    this.assertReady();
    if (this.dim !== 0 && vector.length !== this.dim) throw new DimensionMismatchError(this.dim, vector.length);
    // Posting a view clones the whole buffer under it (a batch's, a data set's): the vector's own elements only.
    const own = vector.byteOffset === 0 && vector.byteLength === vector.buffer.byteLength ? vector : vector.slice();
    return (await this.call({ op: "search", vector: own, topK })) as VectorHit[];
  }

  async delete(ids: readonly number[]): Promise<void> {
    this.assertReady();
    await this.call({ op: "delete", ids: [...ids] });
  }

  async lastId(): Promise<number> {
    this.assertReady();
    return (await this.call({ op: "lastId" })) as number;
  }

  async count(): Promise<number> {
    this.assertReady();
    return (await this.call({ op: "count" })) as number;
  }

  async clear(): Promise<void> {
    this.assertReady();
    await this.call({ op: "clear" });
  }

  async flush(): Promise<void> {
    this.assertReady();
    await this.call({ op: "flush" });
  }

  /**
   * Saves pending changes (with a path) and stops the thread, then releases the folder. A failed save leaves the
   * index open, as in process: close() can be called again.
   */
  async close(): Promise<void> {
    if (this.closed) return;
    if (this.opening.started) await this.opening.get().catch(() => undefined);
    if (this.closed) return;
    if (this.worker === undefined) {
      this.closed = true;
      return;
    }
    // A save that failed leaves the index open (close() may be called again); a thread that stopped cannot save.
    await this.call({ op: "close" }).catch((error: unknown) => {
      if (this.gone === undefined) throw error;
    });
    const gone = this.gone;
    this.closed = true;
    // Calls still waiting were posted after close(): the thread answers them as it would in process, then stops.
    if (this.waiting.size === 0) void this.worker.terminate();
    this.lock?.release();
    this.lock = undefined;
    if (gone !== undefined) throw new StoreError(KIND, `changes since the last flush were not saved: ${gone.message}`, { cause: gone });
  }

  private assertReady(): void {
    if (this.closed) throw new StoreError(KIND, "the index is closed");
    if (!this.ready) throw new StoreError(KIND, "call init() before using the index");
  }

  private call(body: CallBody, transfer: TransferListItem[] = []): Promise<unknown> {
    if (this.gone) return Promise.reject(this.gone);
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.waiting.set(id, { resolve, reject });
      // The thread holds the process open only while a caller waits for it.
      if (this.waiting.size === 1) this.worker!.ref();
      this.worker!.postMessage({ id, ...body } as IndexCall, transfer);
    });
  }

  private receive(reply: IndexReply): void {
    // The thread's dimension once it has one (an answer to a call posted before an add here may still say 0).
    if (reply.dimension !== 0) this.dim = reply.dimension;
    this.quant = reply.quantization;
    const call = this.waiting.get(reply.id);
    this.waiting.delete(reply.id);
    if (this.waiting.size === 0) {
      this.worker?.unref();
      if (this.closed) void this.worker?.terminate();
    }
    if (reply.error) call?.reject(errorFromReport(reply.error));
    else call?.resolve(reply.result);
  }

  private stopped(how: string, cause?: Error): void {
    if (this.closed && this.waiting.size === 0) return;
    this.gone ??= new StoreError(KIND, `the index's thread ${how}`, cause === undefined ? undefined : { cause });
    for (const call of this.waiting.values()) call.reject(this.gone);
    this.waiting.clear();
  }
}
