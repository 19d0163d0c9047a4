/**
 * Concurrent identical misses share one model call: the first request (the leader) calls, the others wait for its
 * answer. A Cache holds one SingleFlight; the flow names each call (surface, storage kind, key).
 */
export class SingleFlight {
  private readonly calls = new Map<string, Promise<unknown>>();

  /** `run`'s result, shared with every caller that asks for the same id while it is in flight. */
  share<R>(id: string, run: () => Promise<R>): Promise<R> {
    const existing = this.calls.get(id) as Promise<R> | undefined;
    // A waiter does not inherit the leader's abort: it makes its own call instead.
    if (existing) return existing.catch((error: unknown) => (isAbort(error) ? run() : Promise.reject(error)));
    const flight = run().finally(() => this.calls.delete(id));
    this.calls.set(id, flight);
    return flight;
  }
}

function isAbort(error: unknown): boolean {
  const { name, message } = (error ?? {}) as { name?: unknown; message?: unknown };
  return name === "AbortError" || (typeof message === "string" && /^(?:aborted|aborterror)$/i.test(message.trim()));
}
