/**
 * The one key policy of every surface that sees LangChain messages (CachedChatModel, the agent middleware):
 * the question is matched by meaning, and everything else that can change its answer must match exactly,
 * as digests joined to the model's identity (llm_key): the system messages and earlier turns, the tools bound
 * (their schemas) and the tool choice, and, once tool calls and results follow the question, the whole
 * transcript (a tool's result is data, never to be matched by meaning).
 */
import { convertToOpenAITool } from "@langchain/core/utils/function_calling";
import { AIMessage, ToolMessage, type BaseMessage } from "@langchain/core/messages";
import { contextDigest } from "../core/conversation-context.js";
import type { CacheRequest } from "../core/types.js";
import { contentText, roleOf, toRequestMessages } from "./messages.js";

/** Call settings that give the model tools or shape its output: they partition as one digest. */
export const TOOL_SETTINGS = ["tools", "tool_choice", "functions", "function_call", "response_format", "parallel_tool_calls", "strict"] as const;

/**
 * The messages as the exact part of the key reads them: what each says and asks. A provider makes up a new id
 * for every tool call, so ids become the call's position in the exchange: two runs of it match, and the
 * results of two calls to one tool still tell which call each answers. (Callers have checked the messages
 * are text only.)
 */
function turnsOf(messages: readonly BaseMessage[]): Record<string, unknown>[] {
  const position = new Map<string, number>();
  return messages.map((message) => {
    // Text given as a string or as text blocks is the same text.
    const turn: Record<string, unknown> = { role: roleOf(message), content: contentText(message.content) };
    if (message.name) turn.name = message.name;
    if (AIMessage.isInstance(message) && message.tool_calls?.length) {
      turn.tool_calls = message.tool_calls.map(({ id, name, args }) => {
        if (id) position.set(id, position.size);
        return { name, args };
      });
    }
    if (ToolMessage.isInstance(message)) turn.answers_call = position.get(message.tool_call_id) ?? null;
    const functionCall = message.additional_kwargs?.function_call;
    if (functionCall) turn.function_call = functionCall;
    return turn;
  });
}

function isHumanTurn(message: BaseMessage): boolean {
  return roleOf(message) === "user";
}

/**
 * The turns that must match exactly for the keyed (last) message's answer to be reused: the messages before
 * it, or, when turns follow the last human turn (an agent's tool calls and their results), the whole
 * transcript. `shareAcrossContexts` drops what comes before the question, never what follows it.
 */
export function exactTurns(messages: readonly BaseMessage[], shareAcrossContexts = false): Record<string, unknown>[] {
  const last = messages.length - 1;
  const question = messages.findLastIndex(isHumanTurn);
  if (question >= 0 && question < last) return turnsOf(messages.slice(shareAcrossContexts ? question : 0));
  return shareAcrossContexts ? [] : turnsOf(messages.slice(0, last));
}

/** A tool as the provider sees it (name, description, JSON schema), whatever form it was bound in. */
function toolDefinition(tool: unknown): unknown {
  try {
    return convertToOpenAITool(tool as Parameters<typeof convertToOpenAITool>[0]);
  } catch {
    // A provider's built-in tool ({ type: "web_search" }) is its own definition.
    return tool;
  }
}

/** The tool settings of a call (bound ones and call options) as one digest, or undefined when it has none. */
export function toolSettingsDigest(...sources: ReadonlyArray<Readonly<Record<string, unknown>> | undefined>): string | undefined {
  const settings: Record<string, unknown> = {};
  for (const source of sources) {
    for (const key of TOOL_SETTINGS) {
      const value = source?.[key];
      if (value === undefined || value === null || (Array.isArray(value) && value.length === 0)) continue;
      settings[key] = key === "tools" || key === "functions" ? (value as unknown[]).map(toolDefinition) : value;
    }
  }
  return Object.keys(settings).length === 0 ? undefined : contextDigest([JSON.parse(JSON.stringify(settings)) as unknown]);
}

/** A record without its tool settings (they enter the key as a digest instead: a zod schema is no key). */
export function withoutToolSettings<T extends Record<string, unknown>>(record: T): T {
  return Object.fromEntries(Object.entries(record).filter(([key]) => !(TOOL_SETTINGS as readonly string[]).includes(key))) as T;
}

/**
 * The cache request of a chat call: the messages (OpenAI-style, for the cache's pre-embedding function), the
 * model's settings, and llm_key with the tools and the exact turns as digests. Undefined (the call passes
 * through uncached) when a message holds anything but text: the key functions read only text.
 */
export function chatRequest(
  messages: readonly BaseMessage[],
  settings: CacheRequest,
  tools: string | undefined,
  shareAcrossContexts: boolean,
): CacheRequest | undefined {
  const chat = toRequestMessages(messages);
  if (!chat) return undefined;
  const context = contextDigest(exactTurns(messages, shareAcrossContexts));
  const identity = withoutToolSettings((settings.llm_key ?? {}) as Record<string, unknown>);
  return { ...settings, messages: chat, llm_key: { ...identity, ...(tools && { tools }), ...(context && { context }) } };
}
