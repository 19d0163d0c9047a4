/**
 * Ollama's `POST /api/generate` through the cache, streamed (NDJSON lines) or not: keyed on `prompt`, in a
 * namespace of its own; `system`, `template`, `raw`, `suffix`, `images`, `context`, `format`, the model and
 * the options that change the answer partition.
 */
import type { Cache } from "../../presets/cache.js";
import { getPrompt } from "../../processors/pre.js";
import type { TextKind } from "../openai/text.js";
import type { CachedCall, Marked, UpstreamSettings } from "../openai/types.js";
import { finishOf, hitBase, ollamaSettingsPartition, OLLAMA_NEUTRAL, readLine, runOllamaRequest, thinks, ZERO_METRICS } from "./ollama-request.js";
import type { CachedOllamaGenerateBody, OllamaGenerateRequest, OllamaGenerateResponse, OllamaGenerateUpstreamResult } from "./ollama-types.js";

const NEUTRAL = new Set(["prompt", ...OLLAMA_NEUTRAL]);

const generateKind: TextKind<Marked<OllamaGenerateResponse>, Marked<OllamaGenerateResponse>> = {
  name: "ollama.generate",
  key: getPrompt,
  // An empty prompt loads (or, with keep_alive 0, unloads) the model: nothing to cache.
  cachable: (body) => typeof body.prompt === "string" && body.prompt.length > 0 && !thinks(body) && body.logprobs !== true,
  // A generation continues a prompt through the model's template: it never answers a chat question.
  partition: (body) => ollamaSettingsPartition("ollama.generate", body, NEUTRAL),
  textOf: (result) => {
    const { response, thinking } = (result ?? {}) as Partial<OllamaGenerateResponse>;
    return finishOf(result) === "stop" && typeof response === "string" && !thinking ? response : null;
  },
  readChunk: (line) => readLine(line, line?.response, !line?.thinking),
  // No `context`: a hit ran no model, so there are no tokens to continue from.
  fromHit: (hit, body) => ({ ...hitBase(hit, body), response: hit.answer, done: true, done_reason: "stop", ...ZERO_METRICS }),
  replay: (hit, body) => {
    const base = hitBase(hit, body);
    return {
      piece: (text) => ({ ...base, response: text, done: false }),
      finish: () => ({ ...base, response: "", done: true, done_reason: "stop", ...ZERO_METRICS }),
    };
  },
};

/** Runs one `/api/generate` request through the cache (see `cachedOllamaChat`: the same settings and outcome). */
export function cachedOllamaGenerate(
  cache: Cache | undefined,
  body: CachedOllamaGenerateBody,
  settings: UpstreamSettings<OllamaGenerateRequest, OllamaGenerateUpstreamResult>,
): Promise<CachedCall<Marked<OllamaGenerateResponse> | AsyncIterable<Marked<OllamaGenerateResponse>> | null>> {
  return runOllamaRequest(generateKind, cache, body, settings as UpstreamSettings<never, unknown>);
}
