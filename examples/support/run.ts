/**
 * Runs an example's main function: cleanups registered with `defer` (servers, caches, temp folders) run in
 * reverse order whether it succeeds or fails, and a failure sets a non-zero exit code.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

export interface ExampleScope {
  /** Registers a cleanup (close a cache or a server), run when the example ends. */
  defer(cleanup: () => unknown): void;
  /** A fresh temporary folder, removed when the example ends. */
  tempDir(): string;
}

export async function runExample(main: (scope: ExampleScope) => Promise<void>): Promise<void> {
  const cleanups: Array<() => unknown> = [];
  const scope: ExampleScope = {
    defer: (cleanup) => void cleanups.push(cleanup),
    tempDir: () => {
      const path = mkdtempSync(join(tmpdir(), "semcache-example-"));
      cleanups.push(() => rmSync(path, { recursive: true, force: true }));
      return path;
    },
  };
  try {
    await main(scope);
  } catch (error) {
    console.error(error);
    process.exitCode = 1;
  } finally {
    for (const cleanup of cleanups.reverse()) await cleanup();
  }
}

