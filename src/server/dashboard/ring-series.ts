/**
 * A time series in fixed memory: `size` buckets of `bucketMs` each, in a ring. Every bucket is a row of
 * integer counters and a row of floating sums, allocated once; a bucket is zeroed when the clock reaches
 * its slot again, so recording never allocates and memory never grows.
 */

/** One bucket's counters and sums, read out of the ring (for the dashboard's JSON and the snapshot). */
export interface BucketRow {
  /** The bucket's number: its start is `index * bucketMs` milliseconds since the epoch. */
  index: number;
  counts: Uint32Array;
  sums: Float64Array;
}

/** What a snapshot keeps of a ring: its live buckets, the counters as sparse [position, value] pairs. */
export interface RingSnapshot {
  bucketMs: number;
  rows: Array<[index: number, counts: number[], sums: number[]]>;
}

export class RingSeries {
  readonly counts: Uint32Array;
  readonly sums: Float64Array;
  /** The bucket number each slot holds now (-1: never used). */
  private readonly indexes: Float64Array;

  constructor(
    readonly bucketMs: number,
    readonly size: number,
    readonly countFields: number,
    readonly sumFields: number,
  ) {
    this.counts = new Uint32Array(size * countFields);
    this.sums = new Float64Array(size * sumFields);
    this.indexes = new Float64Array(size).fill(-1);
  }

  /** The slot of the bucket holding `nowMs`, zeroed first when it held an older bucket. */
  slot(nowMs: number): number {
    const index = Math.floor(nowMs / this.bucketMs);
    const slot = index % this.size;
    if (this.indexes[slot] !== index) {
      this.counts.fill(0, slot * this.countFields, (slot + 1) * this.countFields);
      this.sums.fill(0, slot * this.sumFields, (slot + 1) * this.sumFields);
      this.indexes[slot] = index;
    }
    return slot;
  }

  /** Adds to counter `field` of the bucket holding `nowMs`. */
  count(nowMs: number, field: number, by = 1): void {
    this.counts[this.slot(nowMs) * this.countFields + field] += by;
  }

  /** The last `buckets` buckets up to the one holding `nowMs`, oldest first; a bucket never recorded is undefined. */
  *window(nowMs: number, buckets: number): Iterable<{ index: number; slot: number | undefined }> {
    const last = Math.floor(nowMs / this.bucketMs);
    const n = Math.min(buckets, this.size);
    for (let index = last - n + 1; index <= last; index++) {
      const slot = index % this.size;
      yield { index, slot: index >= 0 && this.indexes[slot] === index ? slot : undefined };
    }
  }

  /** Counter `field` of a slot. */
  countAt(slot: number, field: number): number {
    return this.counts[slot * this.countFields + field];
  }

  sumAt(slot: number, field: number): number {
    return this.sums[slot * this.sumFields + field];
  }

  snapshot(): RingSnapshot {
    const rows: RingSnapshot["rows"] = [];
    for (let slot = 0; slot < this.size; slot++) {
      const index = this.indexes[slot];
      if (index < 0) continue;
      const sparse: number[] = [];
      for (let field = 0; field < this.countFields; field++) {
        const value = this.counts[slot * this.countFields + field];
        if (value !== 0) sparse.push(field, value);
      }
      rows.push([index, sparse, Array.from(this.sums.subarray(slot * this.sumFields, (slot + 1) * this.sumFields))]);
    }
    return { bucketMs: this.bucketMs, rows };
  }

  /** Loads a snapshot's buckets (a snapshot of another shape is ignored: its buckets mean something else). */
  restore(snapshot: RingSnapshot, nowMs: number): void {
    if (snapshot?.bucketMs !== this.bucketMs || !Array.isArray(snapshot.rows)) return;
    const oldest = Math.floor(nowMs / this.bucketMs) - this.size + 1;
    for (const row of snapshot.rows) {
      const [index, sparse, sums] = row;
      if (!Number.isInteger(index) || index < oldest || !Array.isArray(sparse) || !Array.isArray(sums)) continue;
      const slot = this.slot(index * this.bucketMs);
      for (let i = 0; i + 1 < sparse.length; i += 2) {
        const field = sparse[i];
        if (Number.isInteger(field) && field >= 0 && field < this.countFields) this.counts[slot * this.countFields + field] = sparse[i + 1];
      }
      sums.slice(0, this.sumFields).forEach((value, field) => {
        if (Number.isFinite(value)) this.sums[slot * this.sumFields + field] = value;
      });
    }
  }
}
