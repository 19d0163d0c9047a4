/** Shared data shapes of the cache: requests, stored records, hits. */

/** A chat message as the OpenAI wire format and LangChain's serialised messages carry it. */
export interface ChatMessageLike {
  role: string;
  content: string | ReadonlyArray<Record<string, unknown>> | null | undefined;
  [field: string]: unknown;
}

/**
 * What a surface hands to the pipeline: an OpenAI-style request body (`messages`, `prompt`, `input`, `file`,
 * `model`, sampling settings, ...). Pre-embedding functions pick the key from it; partition keys read it.
 */
export type CacheRequest = Record<string, unknown>;

/** How a stored answer is to be read back. Images live in the object store; the answer holds their key. */
export type AnswerType = "str" | "image_base64" | "image_url" | "object";

/**
 * Extra data an entry depends on (GPTCache's QuestionDep), e.g. the image of a vision question. Type `object`:
 * the key of a file in the cache's object store that the answer points to (a generated image); the data
 * manager deletes that file when it purges the entry.
 */
export interface QuestionDep {
  name: string;
  data: string;
  type: "str" | "image_base64" | "image_url" | "object";
}

/** One stored question/answer pair as the scalar store keeps it. Times are epoch milliseconds. */
export interface CacheRecord {
  id: number;
  /** The question as stored (the key text, or the pre-embedding function's separate store form). */
  question: string;
  answer: string;
  answerType: AnswerType;
  /** Hash of partition + key text: the exact-match lookup goes through it (see `keyHash`). */
  keyHash: string;
  /** Hash of the request settings that must match exactly (model, sampling settings). */
  partition: string;
  deps?: QuestionDep[];
  /** The L2-normalised key embedding; absent for exact-match caches. */
  embedding?: Float32Array;
  createdAtMs: number;
  lastAccessedAtMs: number;
  hitCount: number;
}

/** What the data manager hands the scalar store to insert; the store adds id, lastAccessedAtMs and hitCount. */
export interface NewRecord {
  question: string;
  answer: string;
  answerType: AnswerType;
  keyHash: string;
  partition: string;
  deps?: QuestionDep[];
  embedding?: Float32Array;
  createdAtMs: number;
  /** Session that created the entry, linked in the session table. */
  session?: string;
}

/** One row of the report table: a cache hit, for later analysis of what the cache answered. */
export interface ReportRow {
  userQuestion: string;
  cacheQuestionId: number;
  cacheQuestion: string;
  cacheAnswer: string;
  similarity: number;
  /** Milliseconds the cached lookup took (GPTCache's cache_delta_time, the report table's column). */
  lookupMs: number;
  /** Epoch milliseconds of the hit (GPTCache's cache_time). */
  hitAtMs: number;
  extra?: string;
}
