import { Embeddings } from "@langchain/core/embeddings";
import type { Worker } from "node:worker_threads";
import { EmbeddingError, ValidationError } from "../../src/core/errors.js";
import { cosineSimilarity } from "../../src/core/vector-math.js";
import { toEmbeddingFunction } from "../../src/core/embedding-source.js";
import { UniversalSentenceEncoderEmbeddings } from "../../src/embeddings/use.js";
import { DEFAULT_USE_WORKERS, useWorkers } from "../../src/embeddings/use-worker-pool.js";
import { testEmbeddingFunction } from "../../src/testing/embedding-contract.js";

for (const worker of [false, true]) {
  testEmbeddingFunction({
    name: `UniversalSentenceEncoderEmbeddings via toEmbeddingFunction${worker ? " (worker thread)" : ""}`,
    create: () => toEmbeddingFunction(new UniversalSentenceEncoderEmbeddings({ worker })),
  });
}

describe.each([
  ["in process", false],
  ["on a worker thread", true],
])("UniversalSentenceEncoderEmbeddings %s", (_where, worker) => {
  const model = new UniversalSentenceEncoderEmbeddings({ worker });

  it("is a LangChain Embeddings with 512-d unit vectors", async () => {
    expect(model).toBeInstanceOf(Embeddings);
    const vector = await model.embedQuery("How do I reset my password?");
    expect(vector).toHaveLength(512);
    expect(Math.hypot(...vector)).toBeCloseTo(1, 4);
  });

  it("puts a paraphrase closer than an unrelated question", async () => {
    const [question, paraphrase, unrelated] = await model.embedDocuments([
      "How can I lose weight quickly?",
      "What is the fastest way to lose weight?",
      "Which programming language should I learn first?",
    ]);
    const near = cosineSimilarity(Float32Array.from(question), Float32Array.from(paraphrase));
    const far = cosineSimilarity(Float32Array.from(question), Float32Array.from(unrelated));
    expect(near).toBeGreaterThan(far + 0.3);
  });

  it("coalesces concurrent embedQuery calls into one model call", async () => {
    const fresh = new UniversalSentenceEncoderEmbeddings({ worker });
    const texts = ["one question", "another question", "a third question", "a fourth one"];
    // On worker threads, one model call a worker: the calls are spread over the workers the pool has, then batched.
    const calls = worker ? Math.min(Math.max(useWorkers("test", 1).size, 1), texts.length) : 1;
    const vectors = await Promise.all(texts.map((text) => fresh.embedQuery(text)));
    expect(vectors).toHaveLength(4);
    expect(fresh.stats).toEqual({ batches: calls, texts: 4 });
  });

  it("splits large inputs into batches of batchSize, in order", async () => {
    const fresh = new UniversalSentenceEncoderEmbeddings({ batchSize: 2, worker });
    const texts = ["alpha question", "beta question", "gamma question", "delta question", "epsilon question"];
    const vectors = await fresh.embedDocuments(texts);
    expect(fresh.stats).toEqual({ batches: 3, texts: 5 });
    const alone = await model.embedQuery(texts[4]);
    expect(cosineSimilarity(Float32Array.from(vectors[4]), Float32Array.from(alone))).toBeGreaterThan(0.9999);
  });

  it("refuses text without words, without failing its batch mates", async () => {
    const fresh = new UniversalSentenceEncoderEmbeddings({ worker });
    const [good, blank] = await Promise.allSettled([fresh.embedQuery("a real question"), fresh.embedQuery("")]);
    expect(good.status).toBe("fulfilled");
    expect(blank.status).toBe("rejected");
    expect(ValidationError.isInstance((blank as PromiseRejectedResult).reason)).toBe(true);
    await expect(fresh.embedDocuments(["fine", ""])).rejects.toThrow(/texts\[1\] has no words/);
  });

  it("refuses a bad batchSize and non-strings; an empty list embeds to nothing", async () => {
    expect(() => new UniversalSentenceEncoderEmbeddings({ batchSize: 0, worker })).toThrow(ValidationError);
    await expect(model.embedDocuments([7 as unknown as string])).rejects.toThrow(/texts\[0\] is number, not a string/);
    await expect(model.embedDocuments([])).resolves.toEqual([]);
  });
});

describe("UniversalSentenceEncoderEmbeddings on a worker thread", () => {
  it("gives the vectors the model gives in process", async () => {
    const texts = ["How do I reset my password?", "What is the boiling point of water?"];
    const [inProcess, inWorker] = await Promise.all([
      new UniversalSentenceEncoderEmbeddings().embedDocuments(texts),
      new UniversalSentenceEncoderEmbeddings({ worker: true }).embedDocuments(texts),
    ]);
    inWorker.forEach((vector, i) => expect(cosineSimilarity(Float32Array.from(vector), Float32Array.from(inProcess[i]))).toBeGreaterThan(0.9999));
  });

  it("keeps the event loop turning while it embeds, which the model in process blocks", async () => {
    const texts = Array.from({ length: 128 }, (_, i) => `question number ${i} about the history of bridges and comets`);
    const ticksDuring = async (embeddings: UniversalSentenceEncoderEmbeddings) => {
      await embeddings.init();
      let ticks = 0;
      const timer = setInterval(() => ticks++, 5);
      await embeddings.embedDocuments(texts);
      clearInterval(timer);
      return ticks;
    };
    const blocked = await ticksDuring(new UniversalSentenceEncoderEmbeddings());
    const free = await ticksDuring(new UniversalSentenceEncoderEmbeddings({ worker: true }));
    expect(free).toBeGreaterThanOrEqual(10);
    expect(free).toBeGreaterThan(4 * blocked);
  });

  it("fails the calls in flight with an EmbeddingError when the thread dies, and starts a new one for the next", async () => {
    const embeddings = new UniversalSentenceEncoderEmbeddings({ worker: true });
    await embeddings.init();
    const texts = Array.from({ length: 64 }, (_, i) => `question ${i} asked while the thread dies`);
    const inFlight = embeddings.embedDocuments(texts);
    // Reached past TypeScript's privacy: nothing public ends the shared thread, as a crash would.
    const pool = useWorkers("test", 1) as unknown as { workers: Array<{ worker: Worker }> };
    await pool.workers[0].worker.terminate();
    await expect(inFlight).rejects.toBeInstanceOf(EmbeddingError);
    const vector = await embeddings.embedQuery("asked after the crash");
    expect(vector).toHaveLength(512);
  });

  it("refuses a non-boolean worker option, and a workers count that is not a positive integer or comes without worker", () => {
    expect(() => new UniversalSentenceEncoderEmbeddings({ worker: "yes" as unknown as boolean })).toThrow(/`worker` must be a boolean/);
    expect(() => new UniversalSentenceEncoderEmbeddings({ worker: true, workers: 0 })).toThrow(/`workers` must be a positive integer/);
    expect(() => new UniversalSentenceEncoderEmbeddings({ workers: 2 })).toThrow(/`workers` needs `worker: true`/);
    expect(new UniversalSentenceEncoderEmbeddings({ worker: true }).workers).toBe(DEFAULT_USE_WORKERS);
  });

  it("the pool grows under load, then cuts a batch into one slice a worker and answers the vectors in order", async () => {
    const texts = Array.from({ length: 16 }, (_, i) => `pooled question number ${i}`);
    const first = new UniversalSentenceEncoderEmbeddings({ worker: true, workers: 2, batchSize: 8 });
    await first.init();
    // More texts than one batch: another worker starts loading, and takes calls once its model is ready.
    await first.embedDocuments(texts);
    const pool = useWorkers("test", 2);
    await pool.grown();
    expect(pool.size).toBeGreaterThanOrEqual(2);
    const pooled = new UniversalSentenceEncoderEmbeddings({ worker: true, workers: 2, batchSize: 8 });
    const size = pool.size;
    const vectors = await pooled.embedDocuments(texts);
    // One slice a worker (8 texts or fewer each: one batch), side by side.
    expect(pooled.stats).toEqual({ batches: size, texts: 16 });
    const alone = await new UniversalSentenceEncoderEmbeddings().embedDocuments(texts);
    vectors.forEach((vector, i) => vector.forEach((value, j) => expect(value).toBeCloseTo(alone[i][j], 4)));
  });
});
