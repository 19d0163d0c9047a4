import { EmbeddingError, SemcacheError, ValidationError } from "../core/errors.js";
import type { EmbeddingFunction, EmbeddingInput } from "./types.js";

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

/**
 * Shared by the adapters: validates what user code returns (a non-empty finite vector whose length never
 * changes) and turns foreign failures into EmbeddingError, so the pipeline can count and survive them.
 */
abstract class AdaptedEmbeddingFunction implements EmbeddingFunction {
  #dimension: number;

  protected constructor(
    protected readonly label: string,
    options: AdaptedEmbeddingOptions = {},
  ) {
    const dimension = options.dimension;
    if (dimension !== undefined && !(Number.isInteger(dimension) && dimension > 0)) {
      throw new ValidationError(`${label}: \`dimension\` must be a positive integer.`);
    }
    this.#dimension = dimension ?? 0;
  }

  /** The vector length; 0 until `init()` or the first embedding when not given up front. */
  get dimension(): number {
    return this.#dimension;
  }

  /** Learns the dimension with one probe call when it is not known yet. Idempotent. */
  async init(): Promise<void> {
    if (this.#dimension === 0) await this.embed(PROBE_TEXT);
  }

  abstract embed(data: EmbeddingInput, extra?: unknown): Promise<Float32Array>;

  protected async call<T>(run: () => T | Promise<T>): Promise<T> {
    try {
      return await run();
    } catch (error) {
      if (SemcacheError.isInstance(error)) throw error;
      const reason = error instanceof Error ? error.message : String(error);
      throw new EmbeddingError(`${this.label} failed: ${reason}`, { cause: error });
    }
  }

  protected toVector(output: unknown): Float32Array {
    if (!isVectorLike(output)) {
      throw new EmbeddingError(`${this.label} returned ${output === null ? "null" : typeof output}, not a vector.`);
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

/** Any LangChain `Embeddings` as the cache's embedding: lookups use embedQuery, batches embedDocuments. */
export class LangChainEmbeddingFunction extends AdaptedEmbeddingFunction {
  constructor(
    readonly embeddings: EmbeddingsLike,
    options?: AdaptedEmbeddingOptions,
  ) {
    if (!isLangChainEmbeddings(embeddings)) {
      throw new ValidationError("LangChainEmbeddingFunction needs a LangChain Embeddings (embedQuery and embedDocuments).");
    }
    super(embeddings.constructor?.name || "LangChain embeddings", options);
  }

  async embed(data: EmbeddingInput): Promise<Float32Array> {
    const text = requireText(data, this.label);
    return this.toVector(await this.call(() => this.embeddings.embedQuery(text)));
  }

  async embedBatch(data: readonly EmbeddingInput[]): Promise<Float32Array[]> {
    const texts = data.map((item) => requireText(item, this.label));
    if (texts.length === 0) return [];
    const outputs: unknown = await this.call(() => this.embeddings.embedDocuments(texts));
    if (!Array.isArray(outputs) || outputs.length !== texts.length) {
      throw new EmbeddingError(`${this.label}.embedDocuments returned ${Array.isArray(outputs) ? outputs.length : "no"} vectors for ${texts.length} texts.`);
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
 * `Embeddings` or a plain function is wrapped, with its output checked on every call.
 */
export function toEmbeddingFunction(source: EmbeddingSource, options?: AdaptedEmbeddingOptions): EmbeddingFunction {
  const candidate = source as Partial<EmbeddingFunction> | null | undefined;
  if (typeof candidate?.embed === "function") {
    if (typeof candidate.dimension !== "number") {
      throw new ValidationError("An EmbeddingFunction needs a numeric `dimension` (0 for string keys).");
    }
    return source as EmbeddingFunction;
  }
  if (isLangChainEmbeddings(source)) return new LangChainEmbeddingFunction(source, options);
  if (typeof source === "function") return new CallbackEmbeddingFunction(source as EmbeddingCallback, options);
  throw new ValidationError(
    "The embedding must be an EmbeddingFunction (embed), a LangChain Embeddings (embedQuery/embedDocuments) or a function returning a vector.",
  );
}
