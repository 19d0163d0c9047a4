/**
 * The text surfaces (chat completions and completions) share one flow: a request whose answer is one plain
 * text is cached, streamed or not; any other (tools, several choices, log probabilities) goes upstream as is.
 */
import type { Cache } from "../../presets/cache.js";
import type { CacheHit } from "../../core/pipeline.js";
import type { PreEmbeddingFunc } from "../../core/contracts/processors.js";
import { replayAs, type ReplayShape } from "./marker.js";
import { splitBody } from "./options.js";
import { asStream, passThrough, runStream, runValue } from "./run.js";
import type { CachedCall, UpstreamSettings } from "./types.js";

/** A request body as the surfaces read it (the SDK's params type, plus any field). */
export type Body = Record<string, unknown>;

/** What one stream chunk adds: its text, the finish reason it carries, and whether it is plain text. */
export interface ChunkReading {
  text?: string | null;
  finish?: string | null;
  plain: boolean;
}

/** One text endpoint: how its requests are keyed and partitioned, and how its results and chunks are read and built. */
export interface TextKind<R, C> {
  name: string;
  /** The key function, unless the request's cache context names one; default the cache's own. */
  key?: PreEmbeddingFunc;
  /** Body fields that are the provider's settings although a cache option has their name (see `splitBody`). */
  providerFields?: ReadonlySet<string>;
  /** Whether the answer is one text the cache can hold (one choice, no tools, no log probabilities). */
  cachable(body: Body): boolean;
  /** What the surface adds to the partition (see `settingsPartition`); `shareAcrossContexts` leaves the context out. */
  partition(body: Body, shareAcrossContexts: boolean): string | undefined;
  /** The text to store from a whole result, or null (not one finished plain text). */
  textOf(result: R): string | null;
  readChunk(chunk: C): ChunkReading;
  fromHit(hit: CacheHit, body: Body): R;
  replay(hit: CacheHit, body: Body): ReplayShape<C>;
}

/** Only an answer that ended on its own is stored: not one cut by max_tokens, a content filter or a tool call. */
const FINISHED = "stop";

/** Runs one text request; `cache` (when given) is the cache it uses, over any the body or defaults name. */
export async function runTextRequest<R, C>(
  kind: TextKind<R, C>,
  cache: Cache | undefined,
  body: unknown,
  settings: UpstreamSettings<Body, R | AsyncIterable<C>>,
): Promise<CachedCall<R | AsyncIterable<C> | null>> {
  const split = splitBody<Body, R | AsyncIterable<C>>(body, cache, settings, true, kind.providerFields);
  const sent = split.upstream;
  if (!kind.cachable(sent)) return passThrough(split.options, () => split.call(sent));
  const partition = kind.partition(sent, split.shareAcrossContexts);
  const signal = settings.signal;
  if (sent.stream === true) {
    let finished = false;
    let plain = true;
    return runStream<C>(
      sent,
      split.options,
      {
        name: kind.name,
        key: kind.key,
        partition,
        chunkText: (chunk) => {
          const reading = kind.readChunk(chunk);
          plain &&= reading.plain;
          if (reading.finish) finished = reading.finish === FINISHED;
          return reading.text;
        },
        // The SDK ends an aborted stream quietly, as if it were complete: the signal tells the two apart.
        answerOf: (text) => (finished && plain && !signal?.aborted ? text : null),
        replay: (hit) => replayAs(hit, kind.replay(hit, sent), signal),
      },
      () => asStream<C>(split.call(sent)),
    );
  }
  return runValue<R>(
    sent,
    split.options,
    { name: kind.name, key: kind.key, partition, answerOf: (result) => kind.textOf(result), fromCache: (hit) => kind.fromHit(hit, sent) },
    () => split.call(sent) as Promise<R>,
  );
}

/** True when a choice ended on its own (see FINISHED). */
export function finishedNormally(reason: unknown): boolean {
  return reason === FINISHED;
}

/** A list with at least one item. */
export function hasItems(value: unknown): boolean {
  return Array.isArray(value) && value.length > 0;
}
