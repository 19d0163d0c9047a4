import { EmbeddingError, SemcacheError, ValidationError } from "./errors.js";
import type { EmbeddingFunction, EmbeddingInput } from "./contracts/embedding.js";

/** A vector as user code returns it. */
export type VectorLike = readonly number[] | Float32Array;

/** A plain function used as the embedding: text or bytes in, a vector out. */
export type EmbeddingCallback = (data: EmbeddingInput, extra?: unknown) => VectorLike | Promise<VectorLike>;

/** The part of LangChain's `Embeddings` the cache uses; any integration (OpenAI, Ollama, HF, ...) has it. */
export interface EmbeddingsLike {
  embedQuery(text: string): Promise<number[]>;
  embedDocuments(texts: string[]): Promise<number[][]>;
}

/** Everything the cache accepts as its embedding. */
export type EmbeddingSource = EmbeddingFunction | EmbeddingsLike | EmbeddingCallback;

export interface AdaptedEmbeddingOptions {
  /** The vector length, when known up front; otherwise it is learnt from the first vector (or `init()`). */
  dimension?: number;
  /**
   * Milliseconds one embedding call may take before it fails with EmbeddingError, so a stalled provider
   * (LangChain retries 6 times with backoff by default) costs a lookup this long before it fails open.
   * It stops the waiting, not the request: set the client's own timeout too where it has one. Default none.
   */
  timeoutMs?: number;
}

/**
 * Which LangChain method embeds the cache's questions. A cache compares questions with questions, so imported
 * entries and lookups must be embedded the same way, whatever the provider does with the two methods.
 */
export type EmbedAs = "documents" | "queries";

export interface LangChainEmbeddingOptions extends AdaptedEmbeddingOptions {
  /**
   * "documents" (default): everything goes through `embedDocuments`, a lookup being a batch of one, so a batch
   * is one request (or the integration's own chunks) and the provider's batching, limits and retries apply.
   * "queries": everything goes through `embedQuery`, a batch being concurrent single calls. Either way a text
   * gets the same vector imported or looked up; they differ only for providers that embed queries and
   * documents differently (Cohere v3: input_type search_query vs search_document).
   */
  embedAs?: EmbedAs;
  /**
   * Texts per `embedDocuments` call in `embedBatch` (with "queries": per group of concurrent `embedQuery` calls).
   * Default: all at once (OpenAI and Cohere split by their own limits); set it for integrations that send
   * everything in one request (Ollama, Hugging Face).
   */
  batchSize?: number;
}

const PROBE_TEXT = "dimension probe";

/** True for objects shaped like a LangChain `Embeddings` (checked by shape: peer copies of the class differ). */
export function isLangChainEmbeddings(x: unknown): x is EmbeddingsLike {
  const candidate = x as Partial<EmbeddingsLike> | null | undefined;
  return typeof candidate?.embedQuery === "function" && typeof candidate.embedDocuments === "function";
}

function isVectorLike(x: unknown): x is ArrayLike<number> {
  return Array.isArray(x) || (ArrayBuffer.isView(x) && !(x instanceof DataView));
}

function kindOf(value: unknown): string {
  return value === null ? "null" : Array.isArray(value) ? "a list" : typeof value;
}

/**
 * Shared by the adapters: validates what user code returns (a non-empty finite vector whose length never
 * changes) and turns foreign failures and stalls into EmbeddingError, so the pipeline can count and survive them.
 */
abstract class AdaptedEmbeddingFunction implements EmbeddingFunction {
  #dimension: number;
  #probe?: Promise<void>;
  readonly #timeoutMs?: number;

  protected constructor(
    protected readonly label: string,
    options: AdaptedEmbeddingOptions = {},
  ) {
    const { dimension, timeoutMs } = options;
    if (dimension !== undefined && !(Number.isInteger(dimension) && dimension > 0)) {
      throw new ValidationError(`${label}: \`dimension\` must be a positive integer.`);
    }
    if (timeoutMs !== undefined && !(typeof timeoutMs === "number" && timeoutMs > 0 && Number.isFinite(timeoutMs))) {
      throw new ValidationError(`${label}: \`timeoutMs\` must be a positive number of milliseconds.`);
    }
    this.#dimension = dimension ?? 0;
    this.#timeoutMs = timeoutMs;
  }

  /** The vector length; 0 until `init()` or the first embedding when not given up front. */
  get dimension(): number {
    return this.#dimension;
  }

  /** Learns the dimension with one probe call when it is not known yet; concurrent calls share the probe. */
  async init(): Promise<void> {
    if (this.#dimension > 0) return;
    this.#probe ??= this.embed(PROBE_TEXT).then(
      () => undefined,
      (error: unknown) => {
        this.#probe = undefined;
        throw error;
      },
    );
    return this.#probe;
  }

  abstract embed(data: EmbeddingInput, extra?: unknown): Promise<Float32Array>;

  /** Runs one call into user or provider code: its failures, and a wait past `timeoutMs`, become EmbeddingError. */
  protected async call<T>(run: () => T | Promise<T>): Promise<T> {
    let timer: NodeJS.Timeout | undefined;
    try {
      const result = Promise.resolve().then(run);
      const timeoutMs = this.#timeoutMs;
      if (timeoutMs === undefined) return await result;
      const timeout = new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new EmbeddingError(`${this.label} did not answer within ${timeoutMs} ms.`)), timeoutMs);
      });
      return await Promise.race([result, timeout]);
    } catch (error) {
      if (SemcacheError.isInstance(error)) throw error;
      const reason = error instanceof Error ? error.message : String(error);
      throw new EmbeddingError(`${this.label} failed: ${reason}`, { cause: error });
    } finally {
      clearTimeout(timer);
    }
  }

  protected toVector(output: unknown): Float32Array {
    if (!isVectorLike(output)) {
      throw new EmbeddingError(`${this.label} returned ${kindOf(output)}, not a vector.`);
    }
    if (Array.isArray(output)) {
      // Checked before conversion: Float32Array.from turns null (a NaN sent as JSON) into 0 without a trace.
      const bad = output.findIndex((value) => typeof value !== "number");
      if (bad >= 0 && Array.isArray(output[bad])) {
        throw new EmbeddingError(`${this.label} returned a list of vectors (token embeddings?), not one vector: use a sentence-embedding model.`);
      }
      if (bad >= 0) throw new EmbeddingError(`${this.label} returned ${kindOf(output[bad])} at index ${bad}, not a number.`);
    }
    const vector = Float32Array.from(output);
    if (vector.length === 0) throw new EmbeddingError(`${this.label} returned an empty vector.`);
    const bad = vector.findIndex((value) => !Number.isFinite(value));
    if (bad >= 0) throw new EmbeddingError(`${this.label} returned a non-finite number at index ${bad}.`);
    if (this.#dimension === 0) this.#dimension = vector.length;
    else if (vector.length !== this.#dimension) {
      throw new EmbeddingError(`${this.label} returned a ${vector.length}-d vector; it embeds to ${this.#dimension}-d.`);
    }
    return vector;
  }
}

function requireText(data: EmbeddingInput, label: string): string {
  if (typeof data !== "string") {
    throw new ValidationError(`${label} embeds text only; use an embedding for bytes (audio, images) as the cache's embedding.`);
  }
  return data;
}

/**
 * Any LangChain `Embeddings` as the cache's embedding. Lookups and imports take the same method (`embedAs`),
 * so a question stored by `importData` and the same question asked later get the same vector.
 */
export class LangChainEmbeddingFunction extends AdaptedEmbeddingFunction {
  readonly embedAs: EmbedAs;
  readonly batchSize: number;

  constructor(
    readonly embeddings: EmbeddingsLike,
    options: LangChainEmbeddingOptions = {},
  ) {
    if (!isLangChainEmbeddings(embeddings)) {
      throw new ValidationError("LangChainEmbeddingFunction needs a LangChain Embeddings (embedQuery and embedDocuments).");
    }
    const label = embeddings.constructor?.name || "LangChain embeddings";
    super(label, options);
    const { embedAs = "documents", batchSize } = options;
    if (embedAs !== "documents" && embedAs !== "queries") {
      throw new ValidationError(`${label}: \`embedAs\` must be "documents" or "queries".`);
    }
    if (batchSize !== undefined && !(Number.isInteger(batchSize) && batchSize > 0)) {
      throw new ValidationError(`${label}: \`batchSize\` must be a positive integer.`);
    }
    this.embedAs = embedAs;
    this.batchSize = batchSize ?? Number.POSITIVE_INFINITY;
  }

  /** The wrapped Embeddings' own input limit, where it declares one (UniversalSentenceEncoderEmbeddings does). */
  get maxInputLength(): number | undefined {
    const limit = (this.embeddings as { maxInputLength?: unknown }).maxInputLength;
    return typeof limit === "number" ? limit : undefined;
  }

  async embed(data: EmbeddingInput): Promise<Float32Array> {
    const [vector] = await this.embedTexts([requireText(data, this.label)]);
    return vector;
  }

  async embedBatch(data: readonly EmbeddingInput[]): Promise<Float32Array[]> {
    const texts = data.map((item) => requireText(item, this.label));
    const vectors: Float32Array[] = [];
    for (let start = 0; start < texts.length; start += this.batchSize) {
      vectors.push(...(await this.embedTexts(texts.slice(start, start + this.batchSize))));
    }
    return vectors;
  }

  private async embedTexts(texts: string[]): Promise<Float32Array[]> {
    const embeddings = this.embeddings;
    const outputs: unknown = await this.call(() =>
      this.embedAs === "queries" ? Promise.all(texts.map((text) => embeddings.embedQuery(text))) : embeddings.embedDocuments(texts),
    );
    if (!Array.isArray(outputs) || outputs.length !== texts.length) {
      const method = this.embedAs === "queries" ? "embedQuery" : "embedDocuments";
      throw new EmbeddingError(`${this.label}.${method} returned ${Array.isArray(outputs) ? outputs.length : "no"} vectors for ${texts.length} texts.`);
    }
    return outputs.map((output) => this.toVector(output));
  }
}

/** A plain function as the cache's embedding. */
class CallbackEmbeddingFunction extends AdaptedEmbeddingFunction {
  constructor(
    private readonly callback: EmbeddingCallback,
    options?: AdaptedEmbeddingOptions,
  ) {
    super(callback.name ? `embedding function ${callback.name}` : "embedding function", options);
  }

  async embed(data: EmbeddingInput, extra?: unknown): Promise<Float32Array> {
    return this.toVector(await this.call(() => this.callback(data, extra)));
  }
}

/**
 * Adapts what a user passes as the cache's embedding: an EmbeddingFunction is used as is; a LangChain
 * `Embeddings` or a plain function is wrapped, with its output checked on every call. Options apply to the
 * wrapped kinds (`embedAs` and `batchSize` to LangChain Embeddings only).
 */
export function toEmbeddingFunction(source: EmbeddingSource, options?: LangChainEmbeddingOptions): EmbeddingFunction {
  const candidate = source as Partial<EmbeddingFunction> | null | undefined;
  const hasEmbed = typeof candidate?.embed === "function";
  if (hasEmbed && typeof candidate.dimension === "number") return source as EmbeddingFunction;
  // Checked after the EmbeddingFunction shape: some integrations (CohereEmbeddings) also have an `embed` method.
  if (isLangChainEmbeddings(source)) return new LangChainEmbeddingFunction(source, options);
  if (hasEmbed) throw new ValidationError("An EmbeddingFunction needs a numeric `dimension` (0 for string keys).");
  if (typeof source === "function") return new CallbackEmbeddingFunction(source as EmbeddingCallback, options);
  throw new ValidationError(
    "The embedding must be an EmbeddingFunction (embed), a LangChain Embeddings (embedQuery/embedDocuments) or a function returning a vector.",
  );
}
