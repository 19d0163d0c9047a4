/**
 * A chat model's answer as stored and as a hit gives it back, on the surfaces that see messages
 * (CachedChatModel, the agent middleware): plain text as text; a message that calls tools as LangChain's own
 * serialised form, replayed with fresh tool-call ids (an agent matches each tool's result to its call by id).
 */
import { AIMessage, AIMessageChunk, type BaseMessage } from "@langchain/core/messages";
import type { ChatGeneration } from "@langchain/core/outputs";
import type { CacheHit, StoredAnswer } from "../core/pipeline.js";
import { contentText, hitMarker, isPlainText, markedMessage } from "./messages.js";
import { fromHit, toStoredAnswer } from "./stored-generations.js";

/** True for a message whose only non-text part is well-formed tool calls. */
function callsToolsOnly(message: BaseMessage): message is AIMessage {
  if (!AIMessage.isInstance(message) && !AIMessageChunk.isInstance(message)) return false;
  const { tool_calls: calls, invalid_tool_calls: invalid, additional_kwargs: extra } = message;
  return Boolean(calls?.length) && !invalid?.length && !extra?.audio && !extra?.function_call && contentText(message.content) !== null;
}

/** What to store from an answer: its text, the whole message when it calls tools, else nothing (audio, images). */
export function storableAnswer(message: BaseMessage): StoredAnswer | null {
  if (isPlainText(message)) return contentText(message.content);
  if (!callsToolsOnly(message)) return null;
  const stored = new AIMessage({
    content: message.content,
    tool_calls: message.tool_calls,
    additional_kwargs: message.additional_kwargs,
    response_metadata: message.response_metadata,
    id: message.id,
  });
  const generation: ChatGeneration = { text: stored.text, message: stored };
  return toStoredAnswer([generation]);
}

/** A hit as a message with the hit marker and zero usage (a tool call with a fresh id). */
export function messageFromHit(hit: CacheHit): AIMessage {
  if (hit.answerType !== "object") return markedMessage(hitMarker(hit), hit.answer);
  const [generation] = fromHit(hit, true) as Array<{ message?: BaseMessage }>;
  return markedMessage(hitMarker(hit), generation.message as BaseMessage);
}

/** A message as one stream chunk: its text and its tool calls as tool-call chunks. */
export function chunkOfMessage(message: AIMessage): AIMessageChunk {
  return new AIMessageChunk({
    content: message.content,
    additional_kwargs: message.additional_kwargs,
    response_metadata: message.response_metadata,
    usage_metadata: message.usage_metadata,
    id: message.id,
    tool_call_chunks: message.tool_calls?.map((call, index) => ({ type: "tool_call_chunk", name: call.name, args: JSON.stringify(call.args), id: call.id, index })),
  });
}
