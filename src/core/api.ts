/** The simple API (GPTCache's gptcache.api): put, get, importData and flush on the global or a given cache. */
import type { CacheKernel, ImportOptions } from "./cache.js";
import { globalCache } from "./global-cache.js";
import { ValidationError } from "./errors.js";
import { putAnswer, runCached } from "./pipeline.js";
import type { Session } from "./session.js";

export interface ApiOptions {
  /** The cache to use instead of the global one. */
  cacheObj?: CacheKernel;
  session?: Session | string;
  /** Request settings the entry answers for (e.g. `{ model: "gpt-4o" }`), matched like partition keys. */
  partition?: Record<string, unknown>;
}

function requestOf(prompt: unknown, partition: Record<string, unknown> | undefined): Record<string, unknown> {
  if (typeof prompt !== "string" || prompt.length === 0) throw new ValidationError("prompt must be a non-empty string.");
  if (partition !== undefined && (typeof partition !== "object" || partition === null)) {
    throw new ValidationError("partition must be an object of request settings.");
  }
  return { ...partition, prompt };
}

/** Stores an answer for a prompt. Throws on a store fault or a too-long value. */
export async function put(prompt: string, answer: string, options: ApiOptions = {}): Promise<void> {
  const request = requestOf(prompt, options.partition);
  if (typeof answer !== "string" || answer.length === 0) throw new ValidationError("answer must be a non-empty string.");
  await putAnswer(request, { cacheObj: options.cacheObj, session: options.session }, answer);
}

/** The cached answer for a prompt, or null on a miss. */
export async function get(prompt: string, options: ApiOptions = {}): Promise<string | null> {
  const request = requestOf(prompt, options.partition);
  return runCached<string | null>(
    request,
    { cacheObj: options.cacheObj, session: options.session, searchOnly: true },
    { name: "get", strict: true, call: async () => null, answerOf: (answer) => answer, fromCache: (hit) => hit.answer },
  );
}

/** Stores many question/answer pairs at once (batch embedded, one transaction). */
export function importData(
  questions: readonly string[],
  answers: readonly string[],
  sessionIds?: ReadonlyArray<string | undefined>,
  options: ImportOptions & { cacheObj?: CacheKernel } = {},
): Promise<number[]> {
  return (options.cacheObj ?? globalCache()).importData(questions, answers, sessionIds, options);
}

/** Writes buffered state and saves file-backed stores. */
export function flush(options: { cacheObj?: CacheKernel } = {}): Promise<void> {
  return (options.cacheObj ?? globalCache()).flush();
}
