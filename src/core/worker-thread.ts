/**
 * Starting a worker thread with this process's Node options, less the ones a worker cannot take.
 */
import { Worker, type WorkerOptions } from "node:worker_threads";

/** The start of Node's message for execArgv flags a worker refuses; the flags follow it, comma-separated. */
const REFUSED_PREFIX = "invalid execArgv flags: ";

/**
 * A new Worker that keeps the process's Node options (loaders, conditions, source maps...) except:
 * - `--input-type`, which would run the worker's own code as another kind of module (under
 *   `node --input-type=module -e`, a CommonJS source fails with "require is not defined");
 * - per-process flags such as `--max-old-space-size`, `--expose-gc` or `--stack-size`, which Node refuses in a
 *   worker's execArgv (ERR_WORKER_INVALID_EXEC_ARGV) and which the worker has anyway: they are the process's.
 * Node names the refused ones in its error, so they are dropped and the worker started again.
 */
export function startWorker(source: string | URL, options: Omit<WorkerOptions, "execArgv">): Worker {
  const execArgv = process.execArgv.filter((arg, i, all) => !arg.startsWith("--input-type") && all[i - 1] !== "--input-type");
  try {
    return new Worker(source, { ...options, execArgv });
  } catch (error) {
    const { code, message } = error as { code?: string; message?: string };
    const at = message?.indexOf(REFUSED_PREFIX) ?? -1;
    if (code !== "ERR_WORKER_INVALID_EXEC_ARGV" || at < 0) throw error;
    const refused = new Set(message!.slice(at + REFUSED_PREFIX.length).split(", "));
    return new Worker(source, { ...options, execArgv: execArgv.filter((arg) => !refused.has(arg)) });
  }
}
