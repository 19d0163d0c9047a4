import { ValidationError } from "../../core/errors.js";
import type { CacheRequest } from "../../core/types.js";
import { messageRole, messageText, requestMessages } from "../../core/messages.js";
import type { PreEmbeddingContext } from "../../core/contracts/processors.js";

/** One turn of a conversation: its OpenAI role and its text. */
export interface Turn {
  role: string;
  text: string;
}

/** A conversation as the context processors read it. */
export interface Dialogue {
  /** The turns before (and, rarely, after) the question whose role is not in config.skipList, in order. */
  history: Turn[];
  /** The last user turn: the question, kept verbatim in every key. */
  question: Turn;
}

/**
 * Splits a chat request into its question (the last user turn, kept even when "user" is in skipList) and
 * the rest of the turns not in config.skipList. Turns without text (an image alone) are left out.
 */
export function readDialogue(request: CacheRequest, context: PreEmbeddingContext, caller: string): Dialogue {
  const messages = requestMessages(request, caller);
  const turns = messages.map((message) => ({ role: messageRole(message), text: messageText(message) }));
  let last = -1;
  turns.forEach((turn, i) => {
    if (turn.role === "user") last = i;
  });
  if (last < 0) throw new ValidationError(`${caller}: the conversation has no user turn to key on.`);
  const skip = context.config.skipList;
  const history = turns.filter((turn, i) => i !== last && turn.text !== "" && !skip.includes(turn.role));
  return { history, question: turns[last] };
}

/** Turns as "USER: ..." lines, the format concatAllQueries writes and SequenceMatchEvaluation splits. */
export function formatTurns(turns: readonly Turn[]): string {
  return turns.map((turn) => `${turn.role.toUpperCase()}: ${turn.text}`).join("\n");
}
