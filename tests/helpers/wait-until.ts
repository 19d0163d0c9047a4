/**
 * Waiting on a condition instead of sleeping: for what the test cannot be told about (a driver reconnecting, a
 * database server dropping connections), it polls, and fails with `what` once the deadline passes.
 */

const POLL_MS = 10;

/** Resolves once `condition` holds; rejects naming `what` after `timeoutMs`. */
export async function waitUntil(condition: () => boolean | Promise<boolean>, what: string, timeoutMs = 10_000): Promise<void> {
  const deadline = performance.now() + timeoutMs;
  while (!(await condition())) {
    if (performance.now() > deadline) throw new Error(`waited ${timeoutMs} ms for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
}

/** `fn`'s result once it resolves, retried until `timeoutMs`; then its last error. */
export async function eventually<T>(fn: () => Promise<T>, timeoutMs = 10_000, pollMs = 50): Promise<T> {
  const deadline = performance.now() + timeoutMs;
  for (;;) {
    try {
      return await fn();
    } catch (error) {
      if (performance.now() > deadline) throw error;
      await new Promise((resolve) => setTimeout(resolve, pollMs));
    }
  }
}
