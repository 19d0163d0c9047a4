/**
 * What Ollama's chat and generate endpoints share in the cache: the body as the server reads it (streaming
 * unless `stream: false`), the settings that partition (`options` without the ones about the machine), the
 * temperature in `options` for the cache's temperature rule, and a hit's fields.
 */
import type { Cache } from "../../presets/cache.js";
import type { CacheHit } from "../../core/pipeline.js";
import { hitMarker } from "../openai/marker.js";
import { settingsPartition } from "../openai/options.js";
import { runTextRequest, type Body, type ChunkReading, type TextKind } from "../openai/text.js";
import type { CachedCall, Marked, UpstreamSettings } from "../openai/types.js";
import type { OllamaMetrics } from "./ollama-types.js";

/**
 * Options about where and how fast the model runs, not what it answers: they never partition (an answer
 * computed on the GPU is reused on the CPU). `num_ctx` is not one of them: a shorter context cuts the prompt.
 */
const MACHINE_OPTIONS = new Set(["num_thread", "num_gpu", "main_gpu", "num_batch", "use_mmap", "use_mlock", "numa", "low_vram", "vocab_only"]);

/** Body fields that are the key, or cannot change the answer (how long the model stays loaded, streaming). */
export const OLLAMA_NEUTRAL = ["stream", "keep_alive"];

/** Options that change the answer, or undefined when none does (`{}` and no options share answers). */
function answerOptions(options: unknown): Record<string, unknown> | undefined {
  // Not an object: kept as is (it partitions; the server refuses it).
  if (typeof options !== "object" || options === null || Array.isArray(options)) return options as Record<string, unknown> | undefined;
  const kept = Object.entries(options).filter(([name, value]) => value !== undefined && value !== null && !MACHINE_OPTIONS.has(name));
  return kept.length > 0 ? Object.fromEntries(kept) : undefined;
}

/** The settings part of an Ollama request's partition (see `settingsPartition`), `options` read option by option. */
export function ollamaSettingsPartition(namespace: string, body: Body, neutral: ReadonlySet<string>): string | undefined {
  return settingsPartition(namespace, { ...body, options: answerOptions(body.options) }, neutral);
}

/** A thinking request's answer is two texts (the thinking and the answer): it goes to the model uncached. */
export function thinks(body: Body): boolean {
  return body.think !== undefined && body.think !== null && body.think !== false;
}

/** The finish a line carries: its `done_reason` once done (Ollama before 0.1.33 sent none: taken as "stop"). */
export function finishOf(line: { done?: unknown; done_reason?: unknown } | null | undefined): string | null {
  if (line?.done !== true) return null;
  return typeof line.done_reason === "string" ? line.done_reason : "stop";
}

export function readLine(line: { done?: unknown; done_reason?: unknown } | null, text: unknown, plain: boolean): ChunkReading {
  return { text: typeof text === "string" ? text : null, finish: finishOf(line), plain };
}

/** A hit's metrics: no model ran, so no time and no tokens. */
export const ZERO_METRICS: Readonly<Required<OllamaMetrics>> = Object.freeze({
  total_duration: 0,
  load_duration: 0,
  prompt_eval_count: 0,
  prompt_eval_duration: 0,
  eval_count: 0,
  eval_duration: 0,
});

/** The fields every line of a hit carries: the model asked for, the time, the hit marker. */
export function hitBase(hit: CacheHit, body: Body) {
  return { model: String(body.model), created_at: new Date().toISOString(), semcache: hitMarker(hit) };
}

/** The temperature in `options`, for the cache's temperature rule (kept within the rule's 0 to 2). */
function optionsTemperature(body: Body): number | undefined {
  const temperature = (body.options as { temperature?: unknown } | null | undefined)?.temperature;
  return typeof temperature === "number" && Number.isFinite(temperature) ? Math.min(2, Math.max(0, temperature)) : undefined;
}

/**
 * Runs one Ollama request through the cache. The body is read as Ollama reads it: it streams unless `stream`
 * is false (the upstream gets `stream` said explicitly). `options.temperature` drives the cache's temperature
 * rule as a chat request's `temperature` does (over the defaults; a body's or the call's cache `temperature`
 * wins).
 */
export function runOllamaRequest<R, C>(
  kind: TextKind<Marked<R>, Marked<C>>,
  cache: Cache | undefined,
  body: unknown,
  settings: UpstreamSettings<never, unknown>,
): Promise<CachedCall<Marked<R> | AsyncIterable<Marked<C>> | null>> {
  const record = typeof body === "object" && body !== null && !Array.isArray(body) ? (body as Body) : undefined;
  const sent = record ? { ...record, stream: record.stream !== false } : body;
  const temperature = record ? optionsTemperature(record) : undefined;
  const withRule = temperature === undefined ? settings : { ...settings, defaults: { ...settings.defaults, temperature } };
  return runTextRequest(kind, cache, sent, withRule as unknown as UpstreamSettings<Body, Marked<R> | AsyncIterable<Marked<C>>>);
}
