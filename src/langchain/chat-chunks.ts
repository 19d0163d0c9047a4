/**
 * What CachedChatModel returns: a message as a ChatResult, and a stream's chunks, a hit replayed a few words at a
 * time (or as one chunk when it calls tools), a model's stream passed through.
 */
import { AIMessage, AIMessageChunk, type BaseMessage } from "@langchain/core/messages";
import { ChatGenerationChunk, type ChatResult } from "@langchain/core/outputs";
import { absorbFault, type CacheHit } from "../core/pipeline.js";
import { chunkOfMessage, messageFromHit } from "./chat-answers.js";
import { hitMarker, replayHit, ZERO_USAGE, type SemcacheMarker } from "./messages.js";

/** A result with the message's usage also as llmOutput.tokenUsage, as LangChain's streaming path reports it. */
export function resultOf(message: BaseMessage): ChatResult {
  const usage = AIMessage.isInstance(message) ? message.usage_metadata : undefined;
  const llmOutput = usage && {
    tokenUsage: { promptTokens: usage.input_tokens, completionTokens: usage.output_tokens, totalTokens: usage.total_tokens },
  };
  return { generations: [{ text: message.text, message }], llmOutput };
}

/** A stream chunk that cost no model call: the first of a replay (or a searchOnly miss) carries the marker. */
export function markedChunk(text: string, marker?: SemcacheMarker): ChatGenerationChunk {
  const message = new AIMessageChunk({
    content: text,
    response_metadata: marker ? { semcache: marker } : {},
    usage_metadata: marker ? { ...ZERO_USAGE } : undefined,
  });
  return new ChatGenerationChunk({ text, message });
}

/**
 * A hit as stream chunks: text a few words at a time, a message that calls tools as one chunk. An entry that
 * is not a message (a cache fault, counted) is answered by the model instead.
 */
export async function* replayChunks(
  hit: CacheHit,
  upstream: () => Promise<AsyncIterable<ChatGenerationChunk>>,
  signal?: AbortSignal,
): AsyncGenerator<ChatGenerationChunk> {
  if (hit.answerType !== "object") {
    yield* replayHit(hit, (text, first) => markedChunk(text, first ? hitMarker(hit) : undefined), signal);
    return;
  }
  let message: AIMessageChunk;
  try {
    message = chunkOfMessage(messageFromHit(hit));
  } catch (error) {
    absorbFault(hit.cache, error);
    yield* await upstream();
    return;
  }
  yield new ChatGenerationChunk({ text: message.text, message });
}

/** A model's message stream as generation chunks. */
export async function* generationChunks(source: AsyncIterable<AIMessageChunk>): AsyncGenerator<ChatGenerationChunk> {
  for await (const message of source) yield new ChatGenerationChunk({ text: message.text, message });
}
