import type * as Streaming from "openai/streaming";
import { importOptional } from "../../core/optional-import.js";

let streamClass: Promise<typeof Streaming.Stream> | undefined;

/** The SDK's own Stream class, loaded the first time a wrapped client streams (the client's package is there). */
function loadStreamClass(): Promise<typeof Streaming.Stream> {
  streamClass ??= importOptional<typeof Streaming>("openai/streaming", "The OpenAI SDK adapter").then((module) => module.Stream);
  return streamClass;
}

/**
 * Chunks as the SDK's `Stream`: iterable once, `tee()`, `toReadableStream()`, and `controller.abort()`, which
 * ends the iteration quietly (as the SDK's own streams end) and stops the upstream request or the replay.
 */
export async function toSdkStream<T>(source: AsyncIterable<T>, controller: AbortController): Promise<Streaming.Stream<T>> {
  const Stream = await loadStreamClass();
  return new Stream<T>(() => source[Symbol.asyncIterator](), controller);
}
