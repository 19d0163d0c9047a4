import type { CacheRequest } from "../../core/types.js";
import { messageRole, messageText, requestMessages } from "../../core/messages.js";
import type { PreEmbeddingContext } from "../../core/contracts/processors.js";
import { formatTurns } from "./dialogue.js";

/**
 * Keys a conversation on its recent turns: the last config.contextLen messages whose role is not in
 * config.skipList, as "USER: ..." lines (the format SequenceMatchEvaluation splits into rounds). Skipped
 * roles are dropped before counting, so contextLen always means that many kept turns.
 */
export function concatAllQueries(request: CacheRequest, context: PreEmbeddingContext): string {
  const { contextLen, skipList } = context.config;
  const kept = requestMessages(request, "concatAllQueries").filter((message) => !skipList.includes(messageRole(message)));
  return formatTurns(kept.slice(-contextLen).map((message) => ({ role: messageRole(message), text: messageText(message) })));
}
