/**
 * The server's cache operations, in one place: the HTTP routes call them for the caller's namespace, and
 * `CacheClient` without a uri calls the same methods in process.
 */
import { get, put } from "../core/api.js";
import { runCached, type CacheOutcome } from "../core/pipeline.js";
import type { Cache } from "../presets/cache.js";
import { ValidationError } from "../core/errors.js";
import type { CacheRecord, AnswerType } from "../core/types.js";
import type { Report } from "../core/report.js";
import { checkLength } from "../stores/scalar/limits.js";
import { ensureNamespaceKey, namespaceFields } from "./server-cache.js";

/** A question/answer pair to import. */
export interface QuestionAnswer {
  question: string;
  answer: string;
  /**
   * The entry's partition as `semcache export` wrote it: restored as is, so the entry answers the same
   * namespace, model and settings as before. Only without a namespace (it names one already).
   */
  partition?: string;
}

/** One exported entry (a line of `semcache export`, and what `semcache import` reads back). */
export interface ExportedEntry extends QuestionAnswer {
  /** Only when not plain text (images: object-store keys). */
  answer_type?: AnswerType;
  /** Opaque hash of the namespace, model and sampling settings; absent for the shared default partition. */
  partition?: string;
  create_on: number;
  hit_count: number;
}

/** What /stats answers. */
export interface CacheStats {
  entries: number;
  /** Hits recorded in the store's report table: every process, since the store was created. */
  recordedHits: number;
  cache: ReturnType<Report["toJSON"]>;
  [more: string]: unknown;
}

/** U+0000, or a surrogate with no pair (with the `u` flag, a whole pair is one code point, never matched). */
// eslint-disable-next-line no-control-regex -- U+0000 is the character refused
const UNSTORABLE = /[\u0000\ud800-\udfff]/u;

/**
 * Refuses text no store can keep as sent: PostgreSQL refuses U+0000 (which would surface as a store outage),
 * and UTF-8 cannot encode a lone surrogate (two different prompts would become one key). The JSON routes
 * refuse both in the body already (json-body.ts); this covers the plain map and in-process calls.
 */
export function checkStorableText(field: string, text: string): void {
  if (UNSTORABLE.test(text)) {
    throw new ValidationError(`${field} holds U+0000 or a lone surrogate (\\ud800-\\udfff with no pair): neither can be stored.`);
  }
}

function exported(record: CacheRecord): ExportedEntry {
  const entry: ExportedEntry = { question: record.question, answer: record.answer, create_on: record.createdAtMs, hit_count: record.hitCount };
  if (record.answerType !== "str") entry.answer_type = record.answerType;
  if (record.partition !== "") entry.partition = record.partition;
  return entry;
}

export class CacheService {
  constructor(readonly cache: Cache) {
    ensureNamespaceKey(cache);
  }

  /** A prompt longer than the question column can be neither stored nor matched: ValueTooLongError (413). */
  checkPrompt(prompt: string): void {
    if (typeof prompt !== "string" || prompt.length === 0) throw new ValidationError("prompt must be a non-empty string.");
    checkStorableText("prompt", prompt);
    checkLength("question", prompt, this.cache.dataManager.tableLen);
  }

  async put(prompt: string, answer: string, namespace?: string): Promise<void> {
    this.checkPrompt(prompt);
    if (typeof answer === "string") checkStorableText("answer", answer);
    await put(prompt, answer, { cacheObj: this.cache, partition: namespaceFields(namespace) });
  }

  /** The answer, or null on a miss. `onOutcome` hears how the cache answered (a hit's score). */
  async get(prompt: string, namespace?: string, onOutcome?: (outcome: CacheOutcome) => void): Promise<string | null> {
    this.checkPrompt(prompt);
    if (!onOutcome) return get(prompt, { cacheObj: this.cache, partition: namespaceFields(namespace) });
    // The simple API's get, with the outcome told (core/api.ts keeps its signature GPTCache's).
    return runCached<string | null>(
      { ...namespaceFields(namespace), prompt },
      { cacheObj: this.cache, searchOnly: true },
      { name: "get", strict: true, call: async () => null, answerOf: (answer) => answer, fromCache: (hit) => hit.answer, onOutcome },
    );
  }

  /** Makes every write durable and visible to other replicas; deletes nothing. */
  flush(): Promise<void> {
    return this.cache.flush();
  }

  /** Deletes every entry of every namespace. */
  async clear(): Promise<void> {
    await this.cache.dataManager.clear();
    await this.cache.flush();
  }

  /** Stores pairs in one transaction (batch embedded); returns how many. */
  async importPairs(pairs: readonly QuestionAnswer[], namespace?: string): Promise<number> {
    if (!Array.isArray(pairs)) throw new ValidationError("pairs must be a list of { question, answer }.");
    pairs.forEach((pair, i) => {
      if (typeof pair?.question === "string") checkStorableText(`pairs[${i}].question`, pair.question);
      if (typeof pair?.answer === "string") checkStorableText(`pairs[${i}].answer`, pair.answer);
    });
    const restoring = pairs.some((pair) => pair?.partition);
    if (restoring && namespace !== undefined) {
      throw new ValidationError("Pairs with a partition from an export are restored into it (it names its namespace): import them without a namespace.");
    }
    const ids = await this.cache.importData(
      pairs.map((pair) => pair?.question),
      pairs.map((pair) => pair?.answer),
      undefined,
      { partition: namespaceFields(namespace), storedPartitions: restoring ? pairs.map((pair) => pair.partition) : undefined },
    );
    return ids.length;
  }

  /** Every live entry, oldest first. */
  async *entries(): AsyncIterable<ExportedEntry> {
    for await (const record of this.cache.dataManager.entries()) yield exported(record);
  }

  async stats(): Promise<CacheStats> {
    const { dataManager } = this.cache;
    return { entries: await dataManager.count(), recordedHits: await dataManager.countReports(), cache: this.cache.report.toJSON() };
  }
}
