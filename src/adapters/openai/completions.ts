/** Text completions (`completions.create`) through the cache, streamed or not. */
import type { Completion, CompletionCreateParams } from "openai/resources/completions";
import type { Cache } from "../../presets/cache.js";
import type { CacheHit } from "../../core/pipeline.js";
import { getPrompt } from "../../processors/pre.js";
import { hitMarker, nowSeconds, responseId, ZERO_USAGE } from "./marker.js";
import { asRecords, settingsPartition } from "./options.js";
import { finishedNormally, runTextRequest, type Body, type TextKind } from "./text.js";
import type { CacheBodyOptions, CachedCall, Marked, UpstreamSettings } from "./types.js";

/** What a completion request's upstream (or `llm`) returns: a completion, or a stream of them for `stream: true`. */
export type CompletionUpstreamResult = Completion | AsyncIterable<Completion>;

/** A completion request body with the cache's options. */
export type CachedCompletionBody = CompletionCreateParams & CacheBodyOptions<CompletionCreateParams, CompletionUpstreamResult>;

const NEUTRAL = new Set(["prompt", "stream", "stream_options", "user"]);

/** One prompt, as a string (or a list holding one): a list of several asks for one answer each. */
function singlePrompt(prompt: unknown): boolean {
  return typeof prompt === "string" || (Array.isArray(prompt) && prompt.length === 1 && typeof prompt[0] === "string");
}

const completionKind: TextKind<Marked<Completion>, Marked<Completion>> = {
  name: "openai.completions",
  key: getPrompt,
  cachable: (body) =>
    singlePrompt(body.prompt) &&
    !(typeof body.n === "number" && body.n > 1) &&
    !(typeof body.best_of === "number" && body.best_of > 1) &&
    (body.logprobs === undefined || body.logprobs === null),
  // A completion continues its prompt: it never answers a chat question with the same text.
  partition: (body) => settingsPartition("completions", body, NEUTRAL),
  textOf: (result) => {
    const choices = (result as Partial<Completion> | null)?.choices;
    if (!Array.isArray(choices) || choices.length !== 1) return null;
    const [choice] = choices;
    return finishedNormally(choice.finish_reason) && typeof choice.text === "string" ? choice.text : null;
  },
  readChunk: (chunk) => {
    const choice = (chunk as Partial<Completion> | null)?.choices?.[0];
    return choice ? { text: choice.text, finish: choice.finish_reason, plain: choice.index === 0 } : { plain: true };
  },
  fromHit: (hit, body) => ({ ...shell(hit, body), choices: [choice(hit.answer, "stop")], usage: { ...ZERO_USAGE } }),
  replay: (hit, body) => {
    const base = shell(hit, body);
    return {
      piece: (text: string) => ({ ...base, choices: [choice(text, null)] }),
      finish: () => ({ ...base, choices: [choice("", "stop")] }),
    };
  },
};

function shell(hit: CacheHit, body: Body) {
  return { id: responseId("cmpl"), object: "text_completion" as const, created: nowSeconds(), model: String(body.model), semcache: hitMarker(hit) };
}

function choice(text: string, finish: "stop" | null): Completion["choices"][number] {
  return { text, index: 0, logprobs: null, finish_reason: finish as "stop" };
}

/** Runs one completion request through the cache (see `cachedChatCompletion`: same settings, same outcome). */
export function cachedCompletion(
  cache: Cache | undefined,
  body: CachedCompletionBody,
  settings: UpstreamSettings<CompletionCreateParams, CompletionUpstreamResult>,
): Promise<CachedCall<Marked<Completion> | AsyncIterable<Marked<Completion>> | null>> {
  return runTextRequest(completionKind, cache, body, asRecords(settings) as UpstreamSettings<Body, Marked<Completion> | AsyncIterable<Marked<Completion>>>);
}
