/**
 * The request flow (DESIGN section 4). Every surface (LangChain, OpenAI SDK, functions, the HTTP server, the
 * simple API) goes through `runCached` or `runCachedStream`: key, exact lookup, embedding, search, judgement,
 * answer; or the model call, whose answer is stored.
 */
import type { EmbeddingOutput } from "./contracts/embedding.js";
import type { PreEmbeddingResult } from "./contracts/processors.js";
import { normalizeScore } from "../similarity/score.js";
import type { EvaluationCandidate, LookupObserver } from "./contracts/evaluation.js";
import type { VectorHit } from "./contracts/vector-index.js";
import { cache as globalCache, Cache } from "./cache.js";
import { NotInitError, SemcacheError, ValidationError, ValueTooLongError } from "./errors.js";
import { digest, keyHash, keyText, partitionOf } from "./keys.js";
import { checkQuestionLength } from "./question-length.js";
import type { Stage } from "./report.js";
import { resolveContext, type CacheContext } from "./request-context.js";
import { Session } from "./session.js";
import type { AnswerType, CacheRecord, CacheRequest, QuestionDep } from "./types.js";

/** Per-request cache options (camelCase; request bodies use the snake_case forms). */
export interface RequestOptions {
  /** The cache to use instead of the global one. */
  cacheObj?: Cache;
  /** Per-stage arguments or overrides (see CacheContext). */
  cacheContext?: CacheContext;
  /** Do not read the cache (still embeds and stores the answer). */
  cacheSkip?: boolean;
  /** The conversation this request belongs to (a Session, or its name). */
  session?: Session | string;
  /** 0 to 2; above 0 the cache is skipped at random, at 2 always. Defaults to the request's temperature, else 0. */
  temperature?: number;
  /** Candidates fetched from the vector index (default config.topK). */
  topK?: number;
  /** Answer from the cache only: a miss returns null instead of calling the model. */
  searchOnly?: boolean;
}

/**
 * Per-request storage controls (HTTP `Cache-Control: no-store` and `max-age=N` map to them; `no-cache` is
 * `cacheSkip`). Every entry point of the flow accepts them next to the RequestOptions.
 */
export interface StorageControls {
  /** Look the request up, but never store its answer (nor write a next cache's hit back). */
  noStore?: boolean;
  /** A stored entry older than this many seconds is not a hit (0: only an entry stored this very millisecond). */
  maxAgeSeconds?: number;
}

/** What the flow accepts per request: the cache options plus the storage controls. */
export type FlowOptions = RequestOptions & StorageControls;

/** How the cache answered one request: from an entry, by calling the model after a lookup, or without a lookup. */
export type CacheStatus = "HIT" | "MISS" | "SKIP";

/** The outcome of one request, as a surface reports it (the HTTP server's `x-semcache` header). */
export interface CacheOutcome {
  status: CacheStatus;
  /**
   * A hit's normalised score in [0, 1]; on a miss, the best score a candidate got (under the threshold, or
   * turned down by the post function), when any candidate was judged: how near the miss came.
   */
  score?: number;
  /** A hit's entry id. */
  id?: number;
  /** Seconds since a hit's entry was stored. */
  ageSeconds?: number;
}

/**
 * A stored answer as a surface produces it: text, or text with its type (images: object-store keys) and deps
 * (`object` deps name the files the answer points to, deleted with the entry).
 */
export type StoredAnswer = string | { answer: string; answerType: AnswerType; deps?: QuestionDep[] };

/** A cache hit, handed to the surface to build its own result shape. */
export interface CacheHit {
  answer: string;
  answerType: AnswerType;
  /** Normalised score in [0, 1]. */
  score: number;
  id: number;
  /** The stored question that matched. */
  question: string;
  record: CacheRecord;
  /** The cache the entry came from (its object store holds any bytes the answer points to). */
  cache: Cache;
  /** Every hit the post function kept, best first (the chosen one included). */
  candidates: ReadonlyArray<{ score: number; record: CacheRecord }>;
}

interface SurfaceBase {
  /** Names the surface: concurrent identical misses share one model call only within one surface. */
  name: string;
  /** Put/get semantics: cache faults throw instead of failing open. */
  strict?: boolean;
  /**
   * Mixed into the request's partition: answers of another kind (a transcript, an image, a moderation result)
   * or about other attachments (the images of a vision question) never answer this request.
   */
  partition?: string;
  /** Told how the request was answered, once the cache has decided (again for a next cache's own answer). */
  onOutcome?(outcome: CacheOutcome): void;
}

/** Where an answer is about to be stored (images go to that cache's object store). */
export interface SaveContext {
  cache: Cache;
}

/** A surface whose model call returns one value. */
export interface ValueSurface<R> extends SurfaceBase {
  call(): Promise<R>;
  /** What to store from a result; falsy = store nothing. A throw is a cache fault: the result still returns. */
  answerOf(result: R, context: SaveContext): StoredAnswer | null | undefined | Promise<StoredAnswer | null | undefined>;
  /** Builds the result of a hit. A throw (say, the object an answer points to is gone) makes the request a miss. */
  fromCache(hit: CacheHit): R | Promise<R>;
}

/** A surface whose model call returns a stream of chunks. */
export interface StreamSurface<C> extends SurfaceBase {
  call(): AsyncIterable<C> | Promise<AsyncIterable<C>>;
  /** The text a chunk adds to the answer (joined and stored when the stream ends normally). */
  chunkText(chunk: C): string | null | undefined;
  /** What to store once the stream has ended normally, from the joined text; falsy = store nothing. Default: the text. */
  answerOf?(text: string): StoredAnswer | null | undefined;
  /** Replays a hit as chunks of the surface's own shape. */
  replay(hit: CacheHit): AsyncIterable<C>;
}

/** Everything the flow derives from a request before it looks anything up. */
interface Prepared {
  cache: Cache;
  options: FlowOptions;
  context: ReturnType<typeof resolveContext>;
  session?: Session;
  temperature: number;
  skip: boolean;
  partition: string;
  /** Undefined when pre-embedding failed (the request then goes straight to the model, nothing stored). */
  key?: { raw: string | Uint8Array; text: string; hash: string; question: string };
  embedding?: Promise<EmbeddingOutput>;
  started: number;
  /** Given to evaluations (EvaluationContext.lookup) when a miss calls the model and stores its answer. */
  observer?: LookupObserver;
  /** Told the model's answer on a miss (the error budget compares it with the entry it did not serve). */
  answerListeners?: Array<(answer: string) => void>;
  /** The model itself answered (not a next cache): only such an answer is news to the listeners. */
  modelAnswered?: boolean;
  /** The best normalised score of the candidates judged so far (a miss reports it). */
  nearestScore?: number;
}

export async function runCached<R>(
  request: CacheRequest,
  options: FlowOptions,
  surface: ValueSurface<R>,
): Promise<R | null> {
  const prepared = await prepare(request, options, surface);
  if (!prepared) {
    surface.onOutcome?.({ status: "SKIP" });
    return options.searchOnly ? null : surface.call();
  }
  const hit = await lookupOrSkip(prepared, surface);
  if (hit) {
    try {
      const value = await surface.fromCache(hit);
      answeredFromCache(prepared, surface, hit);
      return value;
    } catch (error) {
      // An entry the surface cannot turn into a result is a miss: the model answers instead.
      fault(prepared.cache, surface, error);
      prepared.cache.report.misses++;
      surface.onOutcome?.({ status: "MISS" });
    }
  }
  return shareFlight(prepared, surface, () => missValue(request, prepared, surface));
}

export async function runCachedStream<C>(
  request: CacheRequest,
  options: FlowOptions,
  surface: StreamSurface<C>,
): Promise<AsyncIterable<C> | null> {
  const prepared = await prepare(request, options, surface);
  if (!prepared) {
    surface.onOutcome?.({ status: "SKIP" });
    return options.searchOnly ? null : surface.call();
  }
  const hit = await lookupOrSkip(prepared, surface);
  if (hit) {
    answeredFromCache(prepared, surface, hit);
    return surface.replay(hit);
  }
  const cache = prepared.cache;
  if (cache.nextCache) {
    const upstream = await runCachedStream(request, forNextCache(prepared), surface);
    return upstream && storeWhenComplete(upstream, prepared, surface);
  }
  if (prepared.options.searchOnly) return null;
  const started = performance.now();
  const upstream = await surface.call();
  return storeWhenComplete(upstream, prepared, surface, started);
}

/** Stores an answer for a request without reading the cache (the simple API's put). Strict: faults throw. */
export async function putAnswer(request: CacheRequest, options: FlowOptions, answer: StoredAnswer): Promise<void> {
  const surface = { name: "put", strict: true };
  const prepared = await prepare(request, { ...options, cacheSkip: true }, surface, false);
  if (prepared) await save(prepared, answer, surface);
}

async function missValue<R>(request: CacheRequest, prepared: Prepared, surface: ValueSurface<R>): Promise<R | null> {
  const cache = prepared.cache;
  let result: R | null;
  if (cache.nextCache) {
    result = await runCached(request, forNextCache(prepared), surface);
    if (result === null) return null;
  } else {
    if (prepared.options.searchOnly) return null;
    const started = performance.now();
    result = await surface.call();
    cache.report.time("llm", performance.now() - started);
    prepared.modelAnswered = true;
  }
  if (prepared.options.noStore || !prepared.key) return result;
  let answer: StoredAnswer | null | undefined;
  try {
    answer = await surface.answerOf(result, { cache });
  } catch (error) {
    fault(cache, surface, error);
  }
  if (answer) await save(prepared, answer, surface);
  return result;
}

/** The lookup, unless the request skips it (cacheSkip, temperature, no key); reports a skip or a miss. */
async function lookupOrSkip(prepared: Prepared, surface: SurfaceBase): Promise<CacheHit | null> {
  if (prepared.skip || !prepared.key) {
    surface.onOutcome?.({ status: "SKIP" });
    return null;
  }
  const hit = await lookup(prepared, surface);
  if (!hit) surface.onOutcome?.({ status: "MISS", score: prepared.nearestScore });
  return hit;
}

/** A hit the surface answered with: recorded, and reported to the surface. */
function answeredFromCache(prepared: Prepared, surface: SurfaceBase, hit: CacheHit): void {
  recordHit(prepared, hit);
  const ageSeconds = Math.max(0, (prepared.cache.dataManager.clock.now() - hit.record.createOn) / 1000);
  surface.onOutcome?.({ status: "HIT", score: hit.score, id: hit.id, ageSeconds });
}

/** The next cache sees the same request and options; what it answers is written back here. */
function forNextCache(prepared: Prepared): FlowOptions {
  return { ...prepared.options, cacheObj: prepared.cache.nextCache, cacheSkip: prepared.skip };
}

/** Concurrent identical misses (same cache, surface, partition and key) share one model call. */
async function shareFlight<R>(prepared: Prepared, surface: SurfaceBase, run: () => Promise<R>): Promise<R> {
  if (prepared.skip || !prepared.key) return run();
  const flights = prepared.cache.flights;
  // A no-store request shares only with its own kind: a storing request must not lose its save to it.
  const id = `${surface.name}\u0000${prepared.options.noStore ? "no-store" : ""}\u0000${prepared.key.hash}`;
  const existing = flights.get(id) as Promise<R> | undefined;
  // A waiter does not inherit the leader's abort: it makes its own call instead.
  if (existing) return existing.catch((error: unknown) => (isAbort(error) ? run() : Promise.reject(error)));
  const flight = run().finally(() => flights.delete(id));
  flights.set(id, flight);
  return flight;
}

function isAbort(error: unknown): boolean {
  const { name, message } = (error ?? {}) as { name?: unknown; message?: unknown };
  return name === "AbortError" || (typeof message === "string" && /^(?:aborted|aborterror)$/i.test(message.trim()));
}

/** Passes chunks through as they arrive; stores the joined text only when the stream ends normally. */
async function* storeWhenComplete<C>(
  upstream: AsyncIterable<C>,
  prepared: Prepared,
  surface: StreamSurface<C>,
  started?: number,
): AsyncIterable<C> {
  let text = "";
  for await (const chunk of upstream) {
    text += surface.chunkText(chunk) ?? "";
    yield chunk;
  }
  if (started !== undefined) {
    prepared.cache.report.time("llm", performance.now() - started);
    prepared.modelAnswered = true;
  }
  if (prepared.options.noStore) return;
  let answer: StoredAnswer | null | undefined;
  try {
    answer = surface.answerOf ? surface.answerOf(text) : text;
  } catch (error) {
    fault(prepared.cache, surface, error);
  }
  if (answer) await save(prepared, answer, surface);
}

/** Validates options, applies the enable function and temperature rule, and computes the key. */
async function prepare(
  request: CacheRequest,
  options: FlowOptions,
  surface: SurfaceBase,
  counted = true,
): Promise<Prepared | null> {
  if (typeof request !== "object" || request === null) throw new ValidationError("The request must be an object.");
  validateOptions(options);
  const cache = options.cacheObj ?? globalCache;
  if (!cache.hasInit) throw new NotInitError();
  if (counted) cache.report.requests++;
  if (!cache.cacheEnableFunc(request, options)) return null;

  const temperature = options.temperature ?? (request.temperature as number | undefined) ?? 0;
  if (typeof temperature !== "number" || !(temperature >= 0 && temperature <= 2)) {
    throw new ValidationError(`temperature must be a number from 0 to 2, got ${String(temperature)}.`);
  }
  const skip = decideSkip(temperature, options.cacheSkip === true, cache.config.random);
  if (skip && counted) cache.report.skips++;
  const prepared: Prepared = {
    cache,
    options,
    context: resolveContext(options.cacheContext),
    session: typeof options.session === "string" ? new Session({ name: options.session, cache }) : options.session,
    temperature,
    skip,
    partition: withSurfacePartition(partitionOf(request, cache.config.partitionKeys), surface.partition),
    started: performance.now(),
  };
  try {
    const pre = await timed(cache, "pre", async () => {
      const context = { config: cache.config, extra: prepared.context.preEmbeddingFunc.extra };
      return (prepared.context.preEmbeddingFunc.fn ?? cache.preEmbeddingFunc)(request, context);
    });
    const key = toKey(pre, prepared.partition);
    checkKeyLength(prepared, key);
    prepared.key = key;
  } catch (error) {
    fault(prepared.cache, surface, error);
  }
  return prepared;
}

/**
 * Refuses a key too long to store or to embed whole before the embedding does any work: embedding cost grows
 * with length (a 200,000-character message held the model for minutes), and a truncated embedding could match
 * another question. As a fault it skips the cache on lookups, and put/get throw it.
 */
function checkKeyLength(prepared: Prepared, key: NonNullable<Prepared["key"]>): void {
  const { cache, context } = prepared;
  const limits = {
    configured: cache.config.maxQuestionLength,
    column: cache.dataManager.scalar.tableLen.question_question,
    // A per-request embedding function's input limit is not known here.
    embedding: context.embeddingFunc.fn ? undefined : cache.embeddingFunc.maxInputLength,
  };
  checkQuestionLength(key.question, limits);
  if (typeof key.raw === "string" && key.raw !== key.question) checkQuestionLength(key.raw, limits);
}

/** The request's partition with the surface's own part mixed in (unchanged when the surface adds none). */
function withSurfacePartition(partition: string, extra: string | undefined): string {
  if (extra === undefined || extra === "") return partition;
  return digest("sha1", `${partition}\u0000${extra}`, "base64url").slice(0, 16);
}

function toKey(pre: PreEmbeddingResult, partition: string): NonNullable<Prepared["key"]> {
  const raw = typeof pre === "object" && !(pre instanceof Uint8Array) ? pre.key : pre;
  if (typeof raw !== "string" && !(raw instanceof Uint8Array)) {
    throw new ValidationError("The pre-embedding function must return a string, bytes, or { key, store }.");
  }
  const text = keyText(raw);
  const stored = typeof pre === "object" && !(pre instanceof Uint8Array) ? pre.store : undefined;
  return { raw, text, hash: keyHash(partition, text), question: stored ?? text };
}

/** GPTCache's rule: T <= 0 reads unless cacheSkip; T >= 2 never reads; between, skips with 1/(1+e^(1/T)). */
export function decideSkip(temperature: number, cacheSkip: boolean, random: () => number): boolean {
  if (cacheSkip || temperature >= 2) return true;
  if (temperature <= 0) return false;
  return random() < 1 / (1 + Math.exp(1 / temperature));
}

/** Checks per-request options and the cache context, as every request does first (for requests a surface passes through uncached). */
export function assertFlowOptions(options: FlowOptions): void {
  validateOptions(options);
  resolveContext(options.cacheContext);
}

function validateOptions(options: FlowOptions): void {
  if (typeof options !== "object" || options === null) throw new ValidationError("Cache options must be an object.");
  const { cacheObj, cacheSkip, searchOnly, topK, session, temperature, noStore, maxAgeSeconds } = options;
  if (noStore !== undefined && typeof noStore !== "boolean") throw new ValidationError("noStore must be a boolean.");
  if (maxAgeSeconds !== undefined && !(typeof maxAgeSeconds === "number" && Number.isFinite(maxAgeSeconds) && maxAgeSeconds >= 0)) {
    throw new ValidationError("maxAgeSeconds must be a number of seconds, 0 or more.");
  }
  if (cacheObj !== undefined && !(cacheObj instanceof Cache)) throw new ValidationError("cacheObj must be a Cache.");
  if (cacheSkip !== undefined && typeof cacheSkip !== "boolean") throw new ValidationError("cacheSkip must be a boolean.");
  if (searchOnly !== undefined && typeof searchOnly !== "boolean") throw new ValidationError("searchOnly must be a boolean.");
  if (topK !== undefined && !(Number.isInteger(topK) && topK >= 1)) throw new ValidationError("topK must be a positive integer.");
  if (temperature !== undefined && !(typeof temperature === "number" && temperature >= 0 && temperature <= 2)) {
    throw new ValidationError(`temperature must be a number from 0 to 2, got ${String(temperature)}.`);
  }
  if (session !== undefined && !(session instanceof Session) && !(typeof session === "string" && session.length > 0)) {
    throw new ValidationError("session must be a Session or a non-empty string.");
  }
}

/** Exact key first (no embedding needed), then the vector search. Faults fail open (null) unless strict. */
async function lookup(prepared: Prepared, surface: SurfaceBase): Promise<CacheHit | null> {
  const { cache, key } = prepared;
  if (!key) return null;
  try {
    const scored: Array<{ score: number; record: CacheRecord }> = [];
    const exact = await timed(cache, "data", () => cache.dataManager.findExact(key.hash));
    const admitted = exact !== null && admissible(prepared, exact);
    // Awaited only when a session decides: an exact hit's path stays free of an extra microtask.
    if (exact && (admitted === true || (admitted !== false && (await admitted)))) {
      await judge(prepared, toCandidate(exact, 0), exact.embedding ?? key.text, scored);
    }
    if (scored.length === 0) await searchAndJudge(prepared, exact?.id, scored);
    const hit = pick(prepared, scored);
    if (hit) return hit;
  } catch (error) {
    fault(cache, surface, error);
  }
  cache.report.misses++;
  return null;
}

async function searchAndJudge(
  prepared: Prepared,
  alreadyJudged: number | undefined,
  scored: Array<{ score: number; record: CacheRecord }>,
): Promise<void> {
  const { cache, context } = prepared;
  const custom = context.searchFunc.fn;
  if (!custom && !cache.dataManager.vector) return;
  const embedding = await embeddingOf(prepared);
  if (typeof embedding === "string") return;
  const topK = prepared.options.topK ?? cache.config.topK;
  const hits: VectorHit[] = await timed(cache, "search", async () =>
    custom ? custom(embedding, topK, context.searchFunc.extra) : cache.dataManager.search(embedding, topK),
  );
  const candidates = hits.filter((hit) => hit.id !== alreadyJudged);
  const records = await timed(cache, "data", () =>
    Promise.all(
      candidates.map((hit) =>
        context.getScalarData.fn
          ? context.getScalarData.fn(hit.id, context.getScalarData.extra)
          : cache.dataManager.getScalarData(hit.id),
      ),
    ),
  );
  const visible = await Promise.all(records.map((record) => (record ? admissible(prepared, record) : false)));
  const judged = records.flatMap((record, i) => (record && visible[i] ? [toCandidate(record, candidates[i].distance)] : []));
  await Promise.all(
    judged.map((candidate) => judge(prepared, candidate, embedding, scored, judged.filter((other) => other !== candidate))),
  );
}

/** Whether this request may be answered from the record at all: its partition, age and (asynchronously) session. */
function admissible(prepared: Prepared, record: CacheRecord): boolean | Promise<boolean> {
  if (record.partition !== prepared.partition) return false;
  const maxAge = prepared.options.maxAgeSeconds;
  if (maxAge !== undefined && prepared.cache.dataManager.clock.now() - record.createOn > maxAge * 1000) return false;
  const { session } = prepared;
  if (!session) return true;
  return prepared.cache.dataManager
    .sessionsOf(record.id)
    .then((sessions) => session.checkHit(session.name, sessions, record.question, record.answer));
}

type Candidate = EvaluationCandidate & { record: CacheRecord };

function toCandidate(record: CacheRecord, distance: number): Candidate {
  return { question: record.question, answer: record.answer, embedding: record.embedding, distance, createOn: record.createOn, record };
}

/** Scores one admissible candidate (against the others this lookup judges) and keeps it when it passes the threshold. */
async function judge(
  prepared: Prepared,
  candidate: Candidate,
  queryEmbedding: EmbeddingOutput,
  scored: Array<{ score: number; record: CacheRecord }>,
  neighbours: readonly EvaluationCandidate[] = [],
): Promise<void> {
  const { cache, context, key } = prepared;
  if (!key) return;
  const source = { question: key.question, embedding: queryEmbedding };
  const evaluation = cache.similarityEvaluation;
  const raw = await timed(cache, "evaluation", async () =>
    context.evaluationFunc.fn
      ? context.evaluationFunc.fn(source, candidate, context.evaluationFunc.extra)
      : evaluation.evaluation(source, candidate, {
          extra: context.evaluationFunc.extra,
          search: (vector, topK) => cache.dataManager.search(vector, topK),
          // Lets an evaluation reuse the stored vectors when it embeds with the same function.
          embeddingFunc: context.embeddingFunc.fn ? undefined : cache.embeddingFunc,
          now: cache.dataManager.clock.now(),
          neighbours,
          lookup: observerOf(prepared),
        }),
  );
  const score = normalizeScore(evaluation, raw);
  if (prepared.nearestScore === undefined || score > prepared.nearestScore) prepared.nearestScore = score;
  if (score >= cache.config.similarityThreshold) scored.push({ score, record: candidate.record });
}

function pick(prepared: Prepared, scored: Array<{ score: number; record: CacheRecord }>): CacheHit | null {
  if (scored.length === 0) return null;
  const cache = prepared.cache;
  const started = performance.now();
  scored.sort((a, b) => b.score - a.score);
  const picked = cache.postProcessMessagesFunc(scored, { temperature: prepared.temperature, random: cache.config.random });
  cache.report.time("post", performance.now() - started);
  const list = Array.isArray(picked) ? (picked as typeof scored) : picked ? [picked as (typeof scored)[number]] : [];
  if (list.length === 0) return null;
  const { score, record } = list[0];
  return {
    answer: record.answer,
    answerType: record.answerType,
    score,
    id: record.id,
    question: record.question,
    record,
    cache,
    candidates: Array.isArray(picked) ? list : scored,
  };
}

/** Bookkeeping of a hit: counters, the buffered last-access update, a report row, the session link. */
function recordHit(prepared: Prepared, hit: CacheHit): void {
  const { cache, session, key } = prepared;
  const now = cache.dataManager.clock.now();
  cache.report.hits++;
  cache.report.savedTokens += Math.ceil(hit.answer.length / 4);
  cache.dataManager.hit(hit.id, now);
  cache.dataManager.report({
    userQuestion: key?.question ?? "",
    cacheQuestionId: hit.id,
    cacheQuestion: hit.question,
    cacheAnswer: hit.answer,
    similarity: hit.score,
    cacheDeltaTime: performance.now() - prepared.started,
    cacheTime: now,
  });
  if (session) void cache.dataManager.addSession(hit.id, session.name).catch(() => cache.report.errors++);
}

/** The request's embedding, computed once (the lookup and the save share it). */
function embeddingOf(prepared: Prepared): Promise<EmbeddingOutput> {
  const { cache, context, key } = prepared;
  if (!key) return Promise.reject(new ValidationError("No key to embed."));
  prepared.embedding ??= timed(cache, "embedding", async () => {
    const custom = context.embeddingFunc.fn;
    const output = custom
      ? await custom(key.raw, context.embeddingFunc.extra)
      : await cache.embeddingFunc.embed(key.raw, context.embeddingFunc.extra);
    return Array.isArray(output) ? Float32Array.from(output) : output;
  });
  return prepared.embedding;
}

/** The request's LookupObserver, when a miss will call the model and store its answer. */
function observerOf(prepared: Prepared): LookupObserver | undefined {
  const { options } = prepared;
  if (options.searchOnly || options.noStore) return undefined;
  prepared.observer ??= { onModelAnswer: (listener) => (prepared.answerListeners ??= []).push(listener) };
  return prepared.observer;
}

/** Tells the listeners the model's answer; a throwing listener is a fault, never the request's failure. */
function tellModelAnswer(prepared: Prepared, answer: string): void {
  const listeners = prepared.answerListeners;
  if (!listeners || !prepared.modelAnswered) return;
  prepared.answerListeners = undefined;
  for (const listener of listeners) {
    try {
      listener(answer);
    } catch (error) {
      absorbFault(prepared.cache, error);
    }
  }
}

/** Stores an answer. Faults are counted and swallowed (the caller still gets its answer) unless strict. */
async function save(prepared: Prepared, answer: StoredAnswer, surface: SurfaceBase): Promise<void> {
  const { cache, key } = prepared;
  if (!key) return;
  const { answer: text, answerType, deps } = typeof answer === "string" ? { answer, answerType: "str" as const, deps: undefined } : answer;
  if (!text) return;
  tellModelAnswer(prepared, text);
  try {
    const embedding = await embeddingOf(prepared);
    await timed(cache, "save", () =>
      cache.dataManager.save([
        {
          question: key.question,
          keyHash: key.hash,
          partition: prepared.partition,
          answer: text,
          answerType,
          deps,
          embedding,
          session: prepared.session?.name,
        },
      ]),
    );
  } catch (error) {
    fault(cache, surface, error);
    return;
  }
  // The answer is stored: a failing auto flush is counted, never thrown, or a put retried after it would store
  // the answer twice.
  await cache.afterSave().catch((error: unknown) => absorbFault(cache, error));
}

/** A cache fault: rethrown on strict surfaces, otherwise absorbed (the model answer still flows). */
function fault(cache: Cache, surface: SurfaceBase, error: unknown): void {
  if (surface.strict) throw error;
  absorbFault(cache, error);
}

/** Absorbs a cache fault: counted (a too-long value also as a skipped save) and handed to `onError`. */
export function absorbFault(cache: Cache, error: unknown): void {
  if (ValueTooLongError.isInstance(error)) cache.report.savesSkipped++;
  cache.report.errors++;
  cache.onError?.(error instanceof Error ? error : new SemcacheError("SEMCACHE_STORE", String(error)));
}

async function timed<T>(cache: Cache, stage: Stage, run: () => Promise<T>): Promise<T> {
  const started = performance.now();
  try {
    return await run();
  } finally {
    cache.report.time(stage, performance.now() - started);
  }
}
