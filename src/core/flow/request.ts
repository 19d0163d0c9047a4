/**
 * Everything the flow derives from a request before it looks anything up: the cache, the skip decision, the
 * partition, the resolved stages and the key; and the request's embedding, computed once for lookup and save.
 */
import type { CacheKernel } from "../cache.js";
import { globalCache } from "../global-cache.js";
import type { EmbeddingOutput } from "../contracts/embedding.js";
import type { LookupObserver } from "../contracts/evaluation.js";
import type { PreEmbeddingResult } from "../contracts/processors.js";
import { NotInitError, ValidationError } from "../errors.js";
import { digest, keyHash, keyText, partitionOf } from "../keys.js";
import { checkQuestionLength } from "../question-length.js";
import { resolveContext } from "../request-context.js";
import { Session } from "../session.js";
import type { CacheRequest } from "../types.js";
import { fault, timed } from "./faults.js";
import { decideSkip, validateOptions } from "./options.js";
import { resolveStages, type Stages } from "./stages.js";
import type { FlowOptions, SurfaceBase } from "./surface.js";

export interface RequestKey {
  raw: string | Uint8Array;
  text: string;
  hash: string;
  /** The question as stored (the pre-embedding function's store form, else the key text). */
  question: string;
}

export interface Prepared {
  cache: CacheKernel;
  options: FlowOptions;
  stages: Stages;
  session?: Session;
  temperature: number;
  skip: boolean;
  partition: string;
  /** Undefined when pre-embedding failed (the request then goes straight to the model, nothing stored). */
  key?: RequestKey;
  embedding?: Promise<EmbeddingOutput>;
  started: number;
  /** Given to evaluations (EvaluationContext.lookup) when a miss calls the model and stores its answer. */
  observer?: LookupObserver;
  /** Told the model's answer on a miss (the error budget compares it with the entry it did not serve). */
  answerListeners?: Array<(answer: string) => void>;
  /** The model itself answered (not a next cache): only such an answer is news to the listeners. */
  modelAnswered?: boolean;
  /** The best normalised score of the candidates judged in full so far (a miss reports it). */
  nearestScore?: number;
  /** Candidates whose evaluation's bound was under the threshold, with their full judgement left to run if a miss reports its score. */
  ruledOut?: Array<{ bound: number; judgeInFull: () => Promise<number> }>;
}

/** Validates options, applies the enable function and temperature rule, and computes the key. Null: the cache is off for this request. */
export async function prepare(
  request: CacheRequest,
  options: FlowOptions,
  surface: SurfaceBase,
  counted = true,
): Promise<Prepared | null> {
  if (typeof request !== "object" || request === null) throw new ValidationError("The request must be an object.");
  validateOptions(options);
  const cache = options.cacheObj ?? globalCache();
  if (!cache.initialized) throw new NotInitError();
  if (counted) cache.count("request");
  if (!cache.shouldUseCache(request, options)) return null;

  const temperature = options.temperature ?? (request.temperature as number | undefined) ?? 0;
  if (typeof temperature !== "number" || !(temperature >= 0 && temperature <= 2)) {
    throw new ValidationError(`temperature must be a number from 0 to 2, got ${String(temperature)}.`);
  }
  const skip = decideSkip(temperature, options.cacheSkip === true, cache.config.random);
  if (skip && counted) cache.count("skip");
  const prepared: Prepared = {
    cache,
    options,
    stages: resolveStages(cache, resolveContext(options.cacheContext)),
    session: typeof options.session === "string" ? new Session({ name: options.session, cache }) : options.session,
    temperature,
    skip,
    partition: withSurfacePartition(partitionOf(request, cache.config.partitionKeys), surface.partition),
    started: performance.now(),
  };
  try {
    const key = toKey(await timed(cache, "pre", () => prepared.stages.preEmbed(request)), prepared.partition);
    checkKeyLength(prepared, key);
    prepared.key = key;
  } catch (error) {
    fault(cache, surface, error);
  }
  return prepared;
}

/** The request's embedding, computed once (the lookup and the save share it). */
export function embeddingOf(prepared: Prepared): Promise<EmbeddingOutput> {
  const { cache, stages, key } = prepared;
  if (!key) return Promise.reject(new ValidationError("No key to embed."));
  prepared.embedding ??= timed(cache, "embedding", () => stages.embed(key.raw));
  return prepared.embedding;
}

/**
 * Refuses a key too long to store or to embed whole before the embedding does any work: embedding cost grows
 * with length (a 200,000-character message held the model for minutes), and a truncated embedding could match
 * another question. As a fault it skips the cache on lookups, and put/get throw it.
 */
function checkKeyLength(prepared: Prepared, key: RequestKey): void {
  const { cache, stages } = prepared;
  const limits = {
    configured: cache.config.maxQuestionLength,
    column: cache.dataManager.tableLen.question,
    // A per-request embedding function's input limit is not known here.
    embedding: stages.embeddingFunc?.maxInputLength,
  };
  checkQuestionLength(key.question, limits);
  if (typeof key.raw === "string" && key.raw !== key.question) checkQuestionLength(key.raw, limits);
}

/** The request's partition with the surface's own part mixed in (unchanged when the surface adds none). */
function withSurfacePartition(partition: string, extra: string | undefined): string {
  if (extra === undefined || extra === "") return partition;
  return digest("sha1", `${partition}\u0000${extra}`, "base64url").slice(0, 16);
}

function toKey(pre: PreEmbeddingResult, partition: string): RequestKey {
  const raw = typeof pre === "object" && !(pre instanceof Uint8Array) ? pre.key : pre;
  if (typeof raw !== "string" && !(raw instanceof Uint8Array)) {
    throw new ValidationError("The pre-embedding function must return a string, bytes, or { key, store }.");
  }
  const text = keyText(raw);
  const stored = typeof pre === "object" && !(pre instanceof Uint8Array) ? pre.store : undefined;
  return { raw, text, hash: keyHash(partition, text), question: stored ?? text };
}
