/** What every SDK-shaped hit carries: the hit marker, a fresh response id, the time, and zero token usage. */
import { randomUUID } from "node:crypto";
import type { CacheHit } from "../../core/pipeline.js";
import { splitIntoChunks } from "../../core/replay.js";
import type { OpenAIHitMarker } from "./types.js";

export function hitMarker(hit: CacheHit): OpenAIHitMarker {
  return { hit: true, score: hit.score, id: hit.id };
}

/** Usage of an answer that cost no tokens (chat and completion shapes). */
export const ZERO_USAGE = Object.freeze({ prompt_tokens: 0, completion_tokens: 0, total_tokens: 0 });

/** A response id in the provider's style (`chatcmpl-...`), marked as the cache's. */
export function responseId(prefix: string): string {
  return `${prefix}-semcache-${randomUUID().replaceAll("-", "")}`;
}

export function nowSeconds(): number {
  return Math.floor(Date.now() / 1000);
}

/** How a surface builds the chunks of a replayed hit: an opening chunk, one per piece of text, the finish, usage. */
export interface ReplayShape<C> {
  start?: () => C;
  piece: (text: string) => C;
  finish: () => C;
  usage?: () => C;
}

/** Replays a hit as chunks of a few words each; an abort ends the replay quietly, as the SDK's own streams end. */
export async function* replayAs<C>(hit: CacheHit, shape: ReplayShape<C>, signal?: AbortSignal): AsyncGenerator<C> {
  const chunks = [
    ...(shape.start ? [shape.start()] : []),
    ...splitIntoChunks(hit.answer).map(shape.piece),
    shape.finish(),
    ...(shape.usage ? [shape.usage()] : []),
  ];
  for (const chunk of chunks) {
    if (signal?.aborted) return;
    yield chunk;
  }
}
