/**
 * Key functions for `SemanticCache`: LangChain hands a BaseCache the prompt as one string. For an LLM it is
 * the prompt itself; for a chat model it is the messages as `getBufferString` writes them (core 1.x,
 * `ChatPromptValue.toString()`): one `Role: text` line per message, joined by "\n", with the roles `Human`,
 * `AI`, `System`, `Tool`, or a `ChatMessage`'s own role (`user`, ...), a `name, ` after the role when the
 * message has a name, list content as its text parts (images as "[image]"), and an AI message's tool calls
 * as JSON right after its text.
 */

/** Where a human turn starts: at the start of a line (`user` is a ChatMessage with the OpenAI role). */
const HUMAN_PREFIXES = ["Human: ", "user: "] as const;

/** Index just past the last human-turn prefix that starts a line, or -1. */
function lastHumanTurnStart(prompt: string): number {
  let start = -1;
  for (const prefix of HUMAN_PREFIXES) {
    const inside = prompt.lastIndexOf(`\n${prefix}`);
    if (inside >= 0) start = Math.max(start, inside + 1 + prefix.length);
    else if (prompt.startsWith(prefix)) start = Math.max(start, prefix.length);
  }
  return start;
}

/**
 * The key of a chat prompt: the last human turn's text, so a lookup keys on the question rather than the
 * system prompt and earlier turns. When turns follow it (an agent's tool call and the tool's result), they
 * stay in the key: keyed on the question alone, the call that carries the tool result would be answered
 * with the cached tool call, and the agent would loop. Falls back to the whole prompt when there is no
 * human turn (an LLM prompt) or it has no text.
 */
export function lastHumanTurn(prompt: string): string {
  const start = lastHumanTurnStart(prompt);
  if (start < 0) return prompt;
  const turn = prompt.slice(start);
  return turn.trim() === "" ? prompt : turn;
}

/**
 * What a chat prompt says before its last human turn: the system messages and the earlier turns, which can
 * change the answer to the same question ("Answer in French.", "My name is Alice."). Empty for a prompt with
 * no human turn (an LLM prompt) and for a lone question.
 */
export function conversationContext(prompt: string): string {
  const start = lastHumanTurnStart(prompt);
  if (start < 0) return "";
  const lineStart = prompt.lastIndexOf("\n", start - 1) + 1;
  return prompt.slice(0, lineStart).trimEnd();
}

/**
 * What must match exactly for a chat prompt's answer to be reused: the turns before its last human turn, and,
 * when turns follow that turn (an agent's tool calls and the tools' results), the whole transcript: a tool's
 * result is data, never to be matched by meaning. Empty for a lone question.
 */
export function exactContext(prompt: string): string {
  return hasFollowingTurns(prompt) ? prompt : conversationContext(prompt);
}

/**
 * What must match exactly when answers are shared across contexts: the last human turn and the turns after
 * it, when any follow (tool calls and their results); empty otherwise.
 */
export function followingTurns(prompt: string): string {
  return hasFollowingTurns(prompt) ? lastHumanTurn(prompt) : "";
}

function hasFollowingTurns(prompt: string): boolean {
  return /\n(?:AI|Tool|Function)(?:, [^:\n]*)?: /.test(lastHumanTurn(prompt));
}

/**
 * The prompt without the ids of the tool calls written into its AI turns: providers make a new id for every
 * call, so an agent's second run (whose replayed tool calls get fresh ids) would otherwise never match the
 * turns stored by its first. What a tool call asked and what the tool answered stay in the prompt.
 */
export function withoutToolCallIds(prompt: string): string {
  if (!prompt.includes('"type":"tool_call"')) return prompt;
  return prompt.replace(/^AI: .*$/gm, (line) => line.replace(/"id":"(?:[^"\\]|\\.)*"/g, '"id":""'));
}

/** The whole prompt (every turn of a chat transcript) as the key. */
export function fullPrompt(prompt: string): string {
  return prompt;
}
