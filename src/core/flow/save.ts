/** Saving an answer: from a value, from a stream once it ends normally, or given directly (put). */
import type { CacheRequest } from "../types.js";
import { fault, timed } from "./faults.js";
import { embeddingOf, prepare, type Prepared } from "./request.js";
import type { FlowOptions, StoredAnswer, StreamSurface, SurfaceBase, ValueSurface } from "./surface.js";

/** Stores an answer for a request without reading the cache (the simple API's put). Strict: faults throw. */
export async function putAnswer(request: CacheRequest, options: FlowOptions, answer: StoredAnswer): Promise<void> {
  const surface = { name: "put", strict: true };
  const prepared = await prepare(request, { ...options, cacheSkip: true }, surface, false);
  if (prepared) await save(prepared, answer, surface);
}

/** Stores what the surface makes of a model's (or a next cache's) result, unless the request stores nothing. */
export async function saveResult<R>(prepared: Prepared, surface: ValueSurface<R>, result: R): Promise<void> {
  if (prepared.options.noStore || !prepared.key) return;
  let answer: StoredAnswer | null | undefined;
  try {
    answer = await surface.answerOf(result, { cache: prepared.cache });
  } catch (error) {
    fault(prepared.cache, surface, error);
  }
  if (answer) await save(prepared, answer, surface);
}

/** Passes chunks through as they arrive; stores the joined text only when the stream ends normally. */
export async function* storeWhenComplete<C>(
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
    prepared.cache.timeStage("llm", performance.now() - started);
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
  await cache.recordSave().catch((error: unknown) => cache.absorbFault(error));
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
      prepared.cache.absorbFault(error);
    }
  }
}
