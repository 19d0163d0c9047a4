/**
 * llama.cpp's server, its native `POST /completion`, through the cache, streamed (Server-Sent Events, the last
 * with `stop: true`) or not. Keyed on `prompt`, in a namespace of its own; the model and every sampling
 * setting partition. (Its OpenAI-compatible `/v1/chat/completions` is the OpenAI adapter's: see `wrapOpenAI`.)
 */
import type { Cache } from "../../presets/cache.js";
import type { CacheHit } from "../../core/pipeline.js";
import { getPrompt } from "../../processors/pre.js";
import { hitMarker } from "../openai/marker.js";
import { settingsPartition } from "../openai/options.js";
import { runTextRequest, type Body, type TextKind } from "../openai/text.js";
import type { CacheBodyOptions, CachedCall, Marked, UpstreamSettings } from "../openai/types.js";

/** A `/completion` request: `prompt` and the sampling settings (`n_predict`, `temperature`, `seed`, `top_k`, `stop`, `grammar`, ...). */
export interface LlamaCppCompletionRequest {
  prompt: string | unknown[] | Record<string, unknown>;
  stream?: boolean;
  n_predict?: number;
  temperature?: number;
  seed?: number;
  /** llama.cpp's sampling setting (not the cache's `top_k`: set that as `cacheOptions: { topK }`). */
  top_k?: number;
  top_p?: number;
  stop?: string[];
  grammar?: string;
  json_schema?: Record<string, unknown>;
  n_probs?: number;
  cache_prompt?: boolean;
  [field: string]: unknown;
}

/** How a generation stopped: the end-of-sequence token, a `stop` word, the `n_predict` limit, or not at all. */
export type LlamaCppStopType = "eos" | "word" | "limit" | "none";

/** `/completion`'s answer, or one event of its stream (the last has `stop: true`, `stop_type` and the timings). */
export interface LlamaCppCompletionResponse {
  index?: number;
  content: string;
  tokens?: number[];
  id_slot?: number;
  stop: boolean;
  model?: string;
  tokens_predicted?: number;
  tokens_evaluated?: number;
  generation_settings?: Record<string, unknown>;
  prompt?: string;
  has_new_line?: boolean;
  truncated?: boolean;
  stop_type?: LlamaCppStopType;
  /** How servers before `stop_type` (2024) said it. */
  stopped_eos?: boolean;
  stopped_word?: boolean;
  stopped_limit?: boolean;
  stopping_word?: string;
  tokens_cached?: number;
  timings?: Record<string, number>;
}

export type LlamaCppCompletionUpstreamResult = LlamaCppCompletionResponse | AsyncIterable<LlamaCppCompletionResponse>;

/** A `/completion` body with the cache's options (GPTCache's names, removed before the upstream call; `top_k` is llama.cpp's). */
export type CachedLlamaCppCompletionBody = LlamaCppCompletionRequest &
  Omit<CacheBodyOptions<LlamaCppCompletionRequest, LlamaCppCompletionUpstreamResult>, "top_k">;

/** Fields that are the key, or cannot change the answer (streaming, the server's prompt cache and slot, timings). */
const NEUTRAL = new Set(["prompt", "stream", "cache_prompt", "id_slot", "timings_per_token", "return_progress"]);

/** A hit's timings: no model ran. */
const ZERO_TIMINGS = Object.freeze({
  prompt_n: 0,
  prompt_ms: 0,
  prompt_per_token_ms: 0,
  prompt_per_second: 0,
  predicted_n: 0,
  predicted_ms: 0,
  predicted_per_token_ms: 0,
  predicted_per_second: 0,
});

/** How an event stopped, as the flow reads it: "stop" (eos or a stop word) is a complete answer; "length" is cut. */
function finishOf(event: Partial<LlamaCppCompletionResponse> | null | undefined): string | null {
  if (event?.stop !== true) return null;
  switch (event.stop_type) {
    case "eos":
    case "word":
      return "stop";
    case "limit":
      return "length";
    case undefined:
      // Servers before stop_type (2024) said it with three flags.
      if (event.stopped_eos === true || event.stopped_word === true) return "stop";
      return event.stopped_limit === true ? "length" : null;
    default:
      return String(event.stop_type);
  }
}

/** A hit's event fields: no slot, no tokens, no time. */
function hitEvent(hit: CacheHit, content: string) {
  return { index: 0, content, tokens: [], id_slot: -1, tokens_predicted: 0, tokens_evaluated: 0, semcache: hitMarker(hit) };
}

/** The last event of a hit (and a whole non-stream hit): as llama.cpp's final result, `stop_type` "eos". */
function finalEvent(hit: CacheHit, body: Body, content: string): Marked<LlamaCppCompletionResponse> {
  return {
    ...hitEvent(hit, content),
    stop: true,
    ...(body.model === undefined ? {} : { model: String(body.model) }),
    prompt: String(body.prompt),
    has_new_line: hit.answer.includes("\n"),
    truncated: false,
    stop_type: "eos",
    stopping_word: "",
    tokens_cached: 0,
    timings: { ...ZERO_TIMINGS },
  };
}

const completionKind: TextKind<Marked<LlamaCppCompletionResponse>, Marked<LlamaCppCompletionResponse>> = {
  name: "llamacpp.completion",
  key: getPrompt,
  providerFields: new Set(["top_k"]),
  // One text prompt (token lists, several prompts and multimodal prompts go upstream as is); no token
  // probabilities, token ids or picked fields asked for, which a hit cannot give back.
  cachable: (body) =>
    typeof body.prompt === "string" &&
    !(typeof body.n_probs === "number" && body.n_probs > 0) &&
    body.return_tokens !== true &&
    body.response_fields === undefined,
  partition: (body) => settingsPartition("llamacpp.completion", body, NEUTRAL),
  textOf: (result) => (finishOf(result) === "stop" && typeof result?.content === "string" ? result.content : null),
  readChunk: (event) => ({ text: event?.content, finish: finishOf(event), plain: true }),
  fromHit: (hit, body) => finalEvent(hit, body, hit.answer),
  // In a stream the last event's content is empty: the text came in the events before it.
  replay: (hit, body) => ({
    piece: (text) => ({ ...hitEvent(hit, text), stop: false }),
    finish: () => finalEvent(hit, body, ""),
  }),
};

/**
 * Runs one `/completion` request through the cache (see `cachedOllamaChat`: the same settings and outcome). A
 * body's `top_k` is llama.cpp's sampling setting and goes upstream; the cache's own is `cacheOptions.topK`.
 */
export function cachedLlamaCppCompletion(
  cache: Cache | undefined,
  body: CachedLlamaCppCompletionBody,
  settings: UpstreamSettings<LlamaCppCompletionRequest, LlamaCppCompletionUpstreamResult>,
): Promise<CachedCall<Marked<LlamaCppCompletionResponse> | AsyncIterable<Marked<LlamaCppCompletionResponse>> | null>> {
  return runTextRequest(completionKind, cache, body, settings as unknown as UpstreamSettings<Body, Marked<LlamaCppCompletionResponse> | AsyncIterable<Marked<LlamaCppCompletionResponse>>>);
}
