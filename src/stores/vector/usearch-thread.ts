/**
 * The thread a ThreadedUsearchIndex runs its UsearchIndex in: the native index's calls (a bulk add's slices, a
 * save, a load) hold this thread, never the event loop of the process. Started by ThreadedUsearchIndex
 * (threaded-usearch-index.ts), which holds the folder's lock for it.
 */
import { parentPort, workerData } from "node:worker_threads";
import { reportError } from "../../core/error-report.js";
import { UsearchIndex } from "./usearch-index.js";
import type { IndexCall, IndexReply, IndexThreadData } from "./threaded-usearch-index.js";

const port = parentPort;
if (!port) throw new Error("usearch-thread runs as a worker thread (see threaded-usearch-index.ts)");
const data = workerData as IndexThreadData;

/** The index as this thread runs it: the owner holds the folder's lock, and a slice may hold this thread less long. */
class HostedUsearchIndex extends UsearchIndex {
  // A lock is held per thread: taken here, the owner's would look stale, and be taken over.
  protected override lockTheFolder(): undefined {
    return undefined;
  }

  protected override addTurnBudgetMs(): number {
    return data.turnBudgetMs;
  }
}

// The owner made a UsearchIndex of these options already: they are valid.
const index = new HostedUsearchIndex(data.options);

function run(call: IndexCall): Promise<unknown> {
  switch (call.op) {
    case "add": {
      const dimension = call.vectors.length / call.ids.length;
      return index.add(Array.from(call.ids, (id, i) => ({ id, vector: call.vectors.subarray(i * dimension, (i + 1) * dimension) })));
    }
    case "search":
      return index.search(call.vector, call.topK);
    case "delete":
      return index.delete(call.ids);
    default:
      return index[call.op]();
  }
}

port.on("message", (call: IndexCall) => {
  const reply = (answer: Pick<IndexReply, "result" | "error">): void =>
    port.postMessage({ id: call.id, ...answer, dimension: index.dimension, quantization: index.quantization } satisfies IndexReply);
  // Calls start in the order they came, as they would on the owner's thread: searches answer between an add's slices.
  run(call).then(
    (result) => reply({ result }),
    (error: unknown) => reply({ error: reportError(error) }),
  );
});
