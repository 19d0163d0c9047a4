/**
 * Starting a worker thread with this process's Node options, less the ones a worker cannot take, from a module
 * of this package whether it runs built or from its TypeScript sources.
 */
import { existsSync } from "node:fs";
import { createRequire } from "node:module";
import { fileURLToPath, pathToFileURL } from "node:url";
import { Worker, type WorkerOptions } from "node:worker_threads";
import type * as Esbuild from "esbuild";

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

/** Thread modules bundled from their sources, by entry path: bundled once per process. */
const bundledFromSource = new Map<string, string>();

/**
 * Starts a thread module of this package, given as the URL of its built `.js` file. Built, the file is there; run
 * from the TypeScript sources (the tests, `tsx` scripts) there is none, so esbuild (a devDependency) bundles the
 * `.ts` module beside it into one CommonJS script, leaving the `external` packages (native addons) to be required.
 */
export function startModuleWorker(built: URL, external: readonly string[], options: Omit<WorkerOptions, "execArgv" | "eval">): Worker {
  if (existsSync(fileURLToPath(built))) return startWorker(built, options);
  const entry = fileURLToPath(built).replace(/\.js$/, ".ts");
  let script = bundledFromSource.get(entry);
  if (script === undefined) {
    script = bundleFromSource(entry, external);
    bundledFromSource.set(entry, script);
  }
  return startWorker(script, { ...options, eval: true });
}

/** The name a bundled script's `import.meta.url` is read from (a script run by `eval` has no `import.meta`). */
const IMPORT_META_URL = "__semcacheImportMetaUrl";

function bundleFromSource(entry: string, external: readonly string[]): string {
  const esbuild = createRequire(import.meta.url)("esbuild") as typeof Esbuild;
  const { outputFiles } = esbuild.buildSync({
    entryPoints: [entry],
    bundle: true,
    write: false,
    format: "cjs",
    platform: "node",
    target: "node20",
    external: [...external],
    // Modules that resolve packages from their own place (optional-import.ts) resolve them from the entry's.
    define: { "import.meta.url": IMPORT_META_URL },
    banner: { js: `const ${IMPORT_META_URL} = ${JSON.stringify(pathToFileURL(entry).href)};` },
  });
  return outputFiles[0].text;
}
