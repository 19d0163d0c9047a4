/**
 * The Universal Sentence Encoder on a pool of worker threads, one model each, shared by every instance in the
 * process. One worker runs the model on one core (TF.js's WASM backend is single-threaded), so without a pool a
 * server with more cores embeds at the speed of one. Each worker holds its own copy of the model (~120 MB of
 * memory), so the pool starts with one and grows only under load: when a call finds every worker busy, or needs
 * more than one model batch, another starts loading (in the background; calls go to it once it is ready), up to the largest `workers` any instance
 * asked for. A call of one text (a lookup) goes to the worker with the fewest texts waiting; a call of many (an
 * import, a batch) is cut into one slice a worker, answered in order. Each worker keeps batching and taking turns
 * among its callers (use-worker.ts).
 */
import { availableParallelism } from "node:os";
import { UseWorker, type BatchCounter } from "./use-worker.js";

/** The most workers by default: one per core, at most 4. */
export const DEFAULT_USE_WORKERS = Math.max(1, Math.min(availableParallelism(), 4));

class UseWorkerPool {
  // Workers that answer calls. Not #private: a test reaches one to end its thread, as a crash would.
  private readonly workers: UseWorker[] = [];
  /** A worker loading its model, not yet given calls. */
  #starting?: { worker: UseWorker; ready: Promise<void> };
  #limit = 1;

  constructor(private readonly feature: string) {}

  /** Workers answering calls now. */
  get size(): number {
    return this.workers.length;
  }

  /** Lets the pool grow to `limit` workers under load (the largest limit asked for wins; it never shrinks). */
  allow(limit: number): this {
    this.#limit = Math.max(this.#limit, limit);
    return this;
  }

  /** Resolves once the first worker has loaded its model (or rejects if it cannot). */
  ready(): Promise<void> {
    return this.#first().ready();
  }

  /** Resolves once no worker is loading (a test or a benchmark waits for the pool to have grown). */
  async grown(): Promise<void> {
    await this.#starting?.ready;
  }

  embed(texts: readonly string[], batchSize: number, counter: BatchCounter): Promise<number[][]> {
    this.#first();
    const byLoad = [...this.workers].sort((a, b) => a.pendingTexts - b.pendingTexts);
    // Load: every worker has texts waiting, or one call needs more than one model batch (an import).
    if (byLoad[0].pendingTexts > 0 || texts.length > batchSize) this.#grow();
    const slices = Math.min(byLoad.length, texts.length);
    if (slices <= 1) return byLoad[0].embed(texts, batchSize, counter);
    const sliceLength = Math.ceil(texts.length / slices);
    const parts = byLoad.slice(0, slices).map((worker, i) => worker.embed(texts.slice(i * sliceLength, (i + 1) * sliceLength), batchSize, counter, i * sliceLength));
    return Promise.all(parts).then((vectors) => vectors.flat());
  }

  async terminate(): Promise<void> {
    const starting = this.#starting?.worker;
    this.#starting = undefined;
    await Promise.all([...this.workers.splice(0), ...(starting ? [starting] : [])].map((worker) => worker.terminate()));
  }

  /** The first worker, started (and given calls, which wait for its model) when there is none. */
  #first(): UseWorker {
    if (this.workers.length === 0) this.workers.push(this.#start());
    return this.workers[0];
  }

  /** Starts one more worker, when the limit allows and none is loading; it takes calls once its model is ready. */
  #grow(): void {
    if (this.#starting || this.workers.length >= this.#limit) return;
    const worker = this.#start();
    const starting = {
      worker,
      ready: worker.ready().then(
        () => {
          if (this.#starting === starting) this.workers.push(worker);
        },
        () => undefined, // it could not load: the pool keeps its size, and a later busy call tries again
      ),
    };
    this.#starting = starting;
    void starting.ready.finally(() => {
      if (this.#starting === starting) this.#starting = undefined;
    });
  }

  #start(): UseWorker {
    return new UseWorker(this.feature, (gone) => {
      const at = this.workers.indexOf(gone);
      if (at >= 0) this.workers.splice(at, 1);
    });
  }
}

let shared: UseWorkerPool | undefined;

/** The process's model workers, allowed to grow to `workers` under load; the first starts on first use. */
export function useWorkers(feature: string, workers: number): UseWorkerPool {
  shared ??= new UseWorkerPool(feature);
  return shared.allow(workers);
}

/**
 * Stops the process's model workers, if any run; the next use starts new ones. The threads are unref'd, so they
 * never keep a process alive, but a host that loads this module many times (a test runner's module copies)
 * would otherwise keep threads and models per copy.
 */
export async function stopUseWorkers(): Promise<void> {
  const pool = shared;
  shared = undefined;
  await pool?.terminate();
}
