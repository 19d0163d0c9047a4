/**
 * The most frequent questions of a namespace in fixed memory: the space-saving sketch (Metwally et al., 2005).
 * `capacity` slots; a question not held takes the least counted slot and inherits its count as its error, so a
 * question asked more often than total/capacity times is always held, and no count is ever too low.
 */

export interface FrequentQuestion {
  question: string;
  /** Times asked (at most `error` more than the truth). */
  count: number;
  /** How much of `count` may come from the questions this slot held before. */
  error: number;
}

export class FrequentQuestions {
  private readonly slots = new Map<string, FrequentQuestion>();

  constructor(readonly capacity: number) {}

  add(question: string, by = 1): void {
    const held = this.slots.get(question);
    if (held) {
      held.count += by;
      return;
    }
    if (this.slots.size < this.capacity) {
      this.slots.set(question, { question, count: by, error: 0 });
      return;
    }
    let least: FrequentQuestion | undefined;
    for (const slot of this.slots.values()) if (!least || slot.count < least.count) least = slot;
    if (!least) return;
    // The slot object is reused: a full sketch allocates nothing per question.
    this.slots.delete(least.question);
    least.error = least.count;
    least.count += by;
    least.question = question;
    this.slots.set(question, least);
  }

  /** Forgets every question (a clear of the cache). */
  clear(): void {
    this.slots.clear();
  }

  /** The `limit` most counted, most first. */
  top(limit: number): FrequentQuestion[] {
    return [...this.slots.values()]
      .sort((a, b) => b.count - a.count || a.question.localeCompare(b.question))
      .slice(0, limit)
      .map((slot) => ({ ...slot }));
  }

  snapshot(): Array<[question: string, count: number, error: number]> {
    return [...this.slots.values()].map((slot) => [slot.question, slot.count, slot.error]);
  }

  restore(rows: unknown): void {
    if (!Array.isArray(rows)) return;
    for (const row of rows) {
      if (!Array.isArray(row)) continue;
      const [question, count, error] = row as unknown[];
      if (typeof question !== "string" || !Number.isInteger(count) || !Number.isInteger(error)) continue;
      this.add(question, count as number);
      const slot = this.slots.get(question);
      if (slot) slot.error += error as number;
    }
  }
}

/** A miss and how close it came: the nearest candidate's score (undefined when the cache reported none). */
export interface NearMiss {
  question: string;
  score?: number;
  /** Milliseconds since the epoch. */
  at: number;
}

/** The last `capacity` misses of a namespace, in a ring (the question strings are the requests' own). */
export class RecentMisses {
  private readonly questions: Array<string | undefined>;
  private readonly scores: Float64Array;
  private readonly times: Float64Array;
  private next = 0;

  constructor(readonly capacity: number) {
    this.questions = new Array<string | undefined>(capacity).fill(undefined);
    this.scores = new Float64Array(capacity).fill(Number.NaN);
    this.times = new Float64Array(capacity);
  }

  add(question: string, score: number | undefined, atMs: number): void {
    this.questions[this.next] = question;
    this.scores[this.next] = score ?? Number.NaN;
    this.times[this.next] = atMs;
    this.next = (this.next + 1) % this.capacity;
  }

  /** Forgets every question (a clear of the cache). */
  clear(): void {
    this.questions.fill(undefined);
    this.scores.fill(Number.NaN);
    this.next = 0;
  }

  /** Newest first. */
  list(): NearMiss[] {
    const out: NearMiss[] = [];
    for (let i = 1; i <= this.capacity; i++) {
      const slot = (this.next - i + this.capacity) % this.capacity;
      const question = this.questions[slot];
      if (question === undefined) break;
      const score = this.scores[slot];
      out.push(Number.isNaN(score) ? { question, at: this.times[slot] } : { question, score, at: this.times[slot] });
    }
    return out;
  }

  restore(rows: unknown): void {
    if (!Array.isArray(rows)) return;
    // Oldest first, so the newest ends up newest.
    for (const row of [...rows].reverse()) {
      const { question, score, at } = (row ?? {}) as Partial<NearMiss>;
      if (typeof question === "string" && typeof at === "number") this.add(question, typeof score === "number" ? score : undefined, at);
    }
  }
}
