/**
 * A small least-recently-used map for the per-process memos of evaluations and context processors
 * (embeddings of recent texts, judge verdicts, dialogue summaries). A Map iterates in insertion order, so
 * its first key is the one written (or moved) longest ago, the first forgotten. Capacity 0 keeps nothing.
 *
 * Nearly least recently used: a read moves its key to the newest end only from the older half (capacity / 2 or more
 * writes after it), since moving costs a delete and an insert, and the judge's word memo is read thousands of times a
 * lookup, nearly always for a key written recently. So a key read is kept for at least capacity / 2 more writes;
 * within the newer half, keys are forgotten in the order they were written.
 */
export class Lru<K, V> {
  readonly #entries = new Map<K, { value: V; written: number }>();
  /** How many times a key was written or moved to the newest end: the newest key's `written`. */
  #writes = 0;

  constructor(readonly capacity: number) {}

  get size(): number {
    return this.#entries.size;
  }

  get(key: K): V | undefined {
    const entry = this.#entries.get(key);
    if (entry === undefined) return undefined;
    if (this.#writes - entry.written >= this.capacity / 2) {
      this.#entries.delete(key);
      entry.written = ++this.#writes;
      this.#entries.set(key, entry);
    }
    return entry.value;
  }

  set(key: K, value: V): void {
    if (this.capacity <= 0) return;
    this.#entries.delete(key);
    this.#entries.set(key, { value, written: ++this.#writes });
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
    if (expected === undefined || this.#entries.get(key)?.value === expected) this.#entries.delete(key);
  }
}
