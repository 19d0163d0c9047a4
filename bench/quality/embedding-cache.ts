/**
 * Sentence embeddings of benchmark texts, computed once and kept on disk (bench/results/cache/, git-ignored),
 * keyed by the SHA-1 of the text: embedding the QQP data takes many minutes, a rerun reads it back in seconds.
 * The file is a sequence of records [20-byte SHA-1][dimension float32s], appended after every batch so an
 * interrupted run keeps what it computed.
 */
import { createHash } from "node:crypto";
import { appendFileSync, existsSync, mkdirSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { Worker } from "node:worker_threads";

const HERE = dirname(fileURLToPath(import.meta.url));
export const CACHE_DIR = join(HERE, "..", "results", "cache");
const HASH_BYTES = 20;
const BATCH = 64;

function textHash(text: string): string {
  return createHash("sha1").update(text).digest("hex");
}

/** Vectors by text, backed by one append-only file per model. */
export class EmbeddingCache {
  private readonly vectors = new Map<string, Float32Array>();
  readonly file: string;

  constructor(
    readonly model: string,
    readonly dimension: number,
  ) {
    this.file = join(CACHE_DIR, `${model}-${dimension}.bin`);
    if (!existsSync(this.file)) return;
    const bytes = readFileSync(this.file);
    const record = HASH_BYTES + dimension * 4;
    for (let offset = 0; offset + record <= bytes.length; offset += record) {
      const key = bytes.subarray(offset, offset + HASH_BYTES).toString("hex");
      const copy = new Uint8Array(bytes.subarray(offset + HASH_BYTES, offset + record));
      this.vectors.set(key, new Float32Array(copy.buffer));
    }
  }

  get size(): number {
    return this.vectors.size;
  }

  get(text: string): Float32Array | undefined {
    return this.vectors.get(textHash(text));
  }

  /** The vector of a text known to be cached. */
  require(text: string): Float32Array {
    const vector = this.get(text);
    if (!vector) throw new RangeError(`not embedded yet: ${JSON.stringify(text.slice(0, 80))}`);
    return vector;
  }

  add(texts: readonly string[], vectors: Float32Array): void {
    const chunks: Buffer[] = [];
    texts.forEach((text, i) => {
      const key = textHash(text);
      const vector = vectors.slice(i * this.dimension, (i + 1) * this.dimension);
      this.vectors.set(key, vector);
      chunks.push(Buffer.from(key, "hex"), Buffer.from(vector.buffer));
    });
    mkdirSync(CACHE_DIR, { recursive: true });
    appendFileSync(this.file, Buffer.concat(chunks));
  }

  /** Texts not cached yet, without repeats. */
  missing(texts: Iterable<string>): string[] {
    return [...new Set(texts)].filter((text) => !this.vectors.has(textHash(text)));
  }
}

/**
 * Embeds every missing text with the offline USE model in `workers` threads (two measured ~170-200 texts/s
 * on 2 cores) and stores the vectors in the cache. Logs progress to stderr.
 */
export async function fillUseCache(cache: EmbeddingCache, texts: Iterable<string>, workers = 2): Promise<void> {
  const todo = cache.missing(texts);
  if (todo.length === 0) return;
  const batches: string[][] = [];
  for (let i = 0; i < todo.length; i += BATCH) batches.push(todo.slice(i, i + BATCH));
  const started = Date.now();
  let done = 0;
  const run = (worker: Worker) =>
    new Promise<void>((resolve, reject) => {
      const next = () => {
        const texts = batches.shift();
        if (!texts) return resolve();
        worker.once("message", ({ vectors }: { vectors: Float32Array }) => {
          cache.add(texts, vectors);
          done += texts.length;
          if (done % (BATCH * 20) < BATCH) {
            const rate = done / ((Date.now() - started) / 1000);
            process.stderr.write(`  embedded ${done}/${todo.length} (${rate.toFixed(0)} texts/s)\n`);
          }
          next();
        });
        worker.postMessage({ id: 0, texts });
      };
      worker.once("error", reject);
      worker.once("message", next);
    });
  const pool = Array.from({ length: Math.min(workers, batches.length) }, () => new Worker(join(HERE, "use-worker.mjs")));
  try {
    await Promise.all(pool.map(run));
  } finally {
    await Promise.all(pool.map((worker) => worker.terminate()));
  }
}
