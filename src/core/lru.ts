/**
 * A small least-recently-used map for the per-process memos of evaluations and context processors
 * (embeddings of recent texts, judge verdicts, dialogue summaries). A Map iterates in insertion order, so
 * its first key is the least recently used one. Capacity 0 keeps nothing.
 */
export class Lru<K, V> {
  readonly #entries = new Map<K, V>();

  constructor(readonly capacity: number) {}

  get size(): number {
    return this.#entries.size;
  }

  get(key: K): V | undefined {
    const value = this.#entries.get(key);
    if (value !== undefined) {
      this.#entries.delete(key);
      this.#entries.set(key, value);
    }
    return value;
  }

  set(key: K, value: V): void {
    if (this.capacity <= 0) return;
    this.#entries.delete(key);
    this.#entries.set(key, value);
    if (this.#entries.size > this.capacity) this.#entries.delete(this.#entries.keys().next().value as K);
  }

  /** The value remembered under `key`, or `make()` remembered under it. */
  through(key: K, make: () => V): V {
    const known = this.get(key);
    if (known !== undefined) return known;
    const made = make();
    this.set(key, made);
    return made;
  }

  /**
   * The promise remembered under `key`, or `make()` remembered under it: concurrent callers share one call,
   * and a promise that rejects is forgotten, so the next call tries again.
   */
  remember<T>(this: Lru<K, Promise<T>>, key: K, make: () => Promise<T>): Promise<T> {
    return this.through(key, () => {
      const made = make();
      made.catch(() => this.delete(key, made));
      return made;
    });
  }

  /** Removes `key`; with `expected`, only while it still maps to that value (a newer value stays). */
  delete(key: K, expected?: V): void {
    if (expected === undefined || this.#entries.get(key) === expected) this.#entries.delete(key);
  }
}
