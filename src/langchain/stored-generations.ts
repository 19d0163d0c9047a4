/**
 * LangChain generations <-> stored answers, shared by every LangChain surface: a plain text answer is stored
 * as text, anything else (a message with tool calls or metadata, several generations) as LangChain's own
 * serialised form; a hit is rebuilt as fresh generations with the hit marker and fresh tool-call ids.
 */
import { randomUUID } from "node:crypto";
import { deserializeStoredGeneration, serializeGeneration } from "@langchain/core/caches";
import { AIMessage, type StoredGeneration, type StoredMessage } from "@langchain/core/messages";
import type { ChatGeneration, Generation } from "@langchain/core/outputs";
import { StoreError } from "../core/errors.js";
import type { CacheHit, StoredAnswer } from "../core/pipeline.js";
import type { SemcacheMarker } from "./messages.js";

/** Set on every generation a hit returns (`generationInfo.semcache`, and a chat message's `response_metadata.semcache`). */
export type CacheHitMarker = Extract<SemcacheMarker, { hit: true }>;

/** A generation as stored: LangChain's own serialised form plus its generationInfo. */
type StoredEntry = StoredGeneration & { generationInfo?: Record<string, unknown> };

const MARKER = "semcache";

/**
 * What to store. One text generation without a message (an LLM's usual answer) is stored as text: the
 * answer column stays readable and the simple API, the server and report rows read it as is; its
 * generationInfo (finish reason, logprobs of that one sampling) is not kept. Anything else (chat messages
 * with metadata and tool calls, several generations) is LangChain's own serialised form as JSON.
 */
export function toStoredAnswer(generations: readonly Generation[]): StoredAnswer | null {
  if (!Array.isArray(generations) || generations.length === 0) return null;
  const [first] = generations;
  if (generations.length === 1 && !hasMessage(first)) return first.text || null;
  return { answer: JSON.stringify(generations.map(toEntry)), answerType: "object" };
}

function hasMessage(generation: Generation): boolean {
  return (generation as { message?: unknown }).message !== undefined;
}

function toEntry(generation: Generation): StoredEntry {
  const stored: StoredEntry = serializeGeneration(generation);
  if (stored.message) {
    const data = stored.message.data;
    stored.message = { ...stored.message, data: { ...data, response_metadata: withoutMarker(data.response_metadata) } };
  }
  const info = withoutMarker(generation.generationInfo);
  if (info && Object.keys(info).length > 0) stored.generationInfo = info;
  return stored;
}

/** A hit's own marker is not part of the answer (an L2 hit written back to L1 must not carry it). */
function withoutMarker<T extends Record<string, unknown> | undefined>(record: T): T {
  if (!record || !(MARKER in record)) return record;
  return Object.fromEntries(Object.entries(record).filter(([key]) => key !== MARKER)) as T;
}

/** Rebuilds fresh generations from a hit (a chat model gets messages even from a text entry). */
export function fromHit(hit: CacheHit, chat: boolean): Generation[] {
  const marker: CacheHitMarker = { hit: true, score: hit.score, id: hit.id };
  if (hit.answerType !== "object") {
    const generation = { text: hit.answer, generationInfo: { [MARKER]: marker } };
    if (!chat) return [generation];
    const message = new AIMessage({ content: hit.answer, response_metadata: { [MARKER]: marker } });
    const chatGeneration: ChatGeneration = { ...generation, message };
    return [chatGeneration];
  }
  const entries: unknown = JSON.parse(hit.answer);
  if (!Array.isArray(entries) || entries.length === 0 || !entries.every((entry) => isEntry(entry, chat))) {
    throw new StoreError("langchain", `entry ${hit.id} is not a list of LangChain ${chat ? "chat " : ""}generations.`);
  }
  return entries.map((entry: StoredEntry) => {
    const { generationInfo, message, text } = entry;
    const marked: StoredMessage | undefined = message && {
      ...message,
      // Without its id: a message id names one answer in a thread (LangGraph replaces a message by id).
      data: { ...withFreshToolCallIds(message.data), id: undefined, response_metadata: { ...message.data.response_metadata, [MARKER]: marker } },
    };
    return { ...deserializeStoredGeneration({ text, message: marked }), generationInfo: { ...generationInfo, [MARKER]: marker } };
  });
}

/**
 * A replayed tool call gets a new id (in `tool_calls` and the provider's raw `additional_kwargs.tool_calls`
 * alike): an agent matches each tool's result to its call by id, and two runs must not share one.
 */
function withFreshToolCallIds(data: StoredMessage["data"]): StoredMessage["data"] {
  const fresh = new Map<string, string>();
  const renew = <T extends { id?: unknown }>(call: T): T => {
    if (typeof call?.id !== "string") return call;
    if (!fresh.has(call.id)) fresh.set(call.id, `call_${randomUUID().replaceAll("-", "").slice(0, 24)}`);
    return { ...call, id: fresh.get(call.id) };
  };
  const { tool_calls: calls } = data as { tool_calls?: unknown };
  const raw = data.additional_kwargs?.tool_calls;
  if (!Array.isArray(calls) && !Array.isArray(raw)) return data;
  return {
    ...data,
    ...(Array.isArray(calls) && { tool_calls: calls.map(renew) }),
    ...(Array.isArray(raw) && { additional_kwargs: { ...data.additional_kwargs, tool_calls: raw.map(renew) } }),
  } as StoredMessage["data"];
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function isEntry(value: unknown, chat: boolean): value is StoredEntry {
  if (!isRecord(value) || typeof value.text !== "string") return false;
  if (value.generationInfo !== undefined && !isRecord(value.generationInfo)) return false;
  if (value.message === undefined) return !chat;
  return isRecord(value.message) && typeof value.message.type === "string" && isRecord(value.message.data);
}
