/**
 * Ollama's HTTP API as the adapter reads it (`POST /api/chat`, `POST /api/generate`): the fields it uses, and
 * any other field the server accepts or answers, passed on untouched. No dependency on the `ollama` package.
 */
import type { CacheBodyOptions } from "../openai/types.js";

/** A chat message. */
export interface OllamaMessage {
  role: "system" | "user" | "assistant" | "tool" | (string & {});
  content: string;
  /** Base64 images (vision models). */
  images?: string[];
  thinking?: string;
  tool_calls?: unknown[];
  tool_name?: string;
}

/** The model's options (`num_predict`, `temperature`, `seed`, `top_k`, `stop`, `num_ctx`, ...). */
export interface OllamaModelOptions {
  temperature?: number;
  seed?: number;
  num_predict?: number;
  top_k?: number;
  top_p?: number;
  stop?: string[];
  num_ctx?: number;
  [option: string]: unknown;
}

/** Fields `/api/chat` and `/api/generate` share. */
interface OllamaRequestBase {
  model: string;
  /**
   * Ollama streams unless told `false`: the low-level functions read a body as the server does (absent is
   * true); `cachedOllama()`'s methods as the `ollama` package does (absent is false).
   */
  stream?: boolean;
  /** "json", or a JSON schema. */
  format?: string | Record<string, unknown>;
  options?: OllamaModelOptions;
  keep_alive?: string | number;
  think?: boolean | "high" | "medium" | "low";
  [field: string]: unknown;
}

export interface OllamaChatRequest extends OllamaRequestBase {
  messages?: OllamaMessage[];
  tools?: unknown[];
}

export interface OllamaGenerateRequest extends OllamaRequestBase {
  prompt?: string;
  suffix?: string;
  system?: string;
  template?: string;
  raw?: boolean;
  images?: string[];
  /** The token context of an earlier answer (deprecated by Ollama). */
  context?: number[];
}

/** The timings and token counts of an answer (nanoseconds); a hit's are all 0. */
export interface OllamaMetrics {
  total_duration?: number;
  load_duration?: number;
  prompt_eval_count?: number;
  prompt_eval_duration?: number;
  eval_count?: number;
  eval_duration?: number;
}

/** `/api/chat`'s answer, or one line of its stream (the last has `done: true`, `done_reason` and the metrics). */
export interface OllamaChatResponse extends OllamaMetrics {
  model: string;
  created_at: string;
  message: OllamaMessage;
  done: boolean;
  /** "stop", "length" (cut by `num_predict`), "load", "unload". */
  done_reason?: string;
}

/** `/api/generate`'s answer, or one line of its stream. */
export interface OllamaGenerateResponse extends OllamaMetrics {
  model: string;
  created_at: string;
  response: string;
  thinking?: string;
  done: boolean;
  done_reason?: string;
  context?: number[];
}

/** What a chat request's upstream (or `llm`) returns: an answer, or its stream of lines for `stream: true`. */
export type OllamaChatUpstreamResult = OllamaChatResponse | AsyncIterable<OllamaChatResponse>;
export type OllamaGenerateUpstreamResult = OllamaGenerateResponse | AsyncIterable<OllamaGenerateResponse>;

/** A chat body with the cache's options (GPTCache's names, removed before the upstream call). */
export type CachedOllamaChatBody = OllamaChatRequest & CacheBodyOptions<OllamaChatRequest, OllamaChatUpstreamResult>;
export type CachedOllamaGenerateBody = OllamaGenerateRequest & CacheBodyOptions<OllamaGenerateRequest, OllamaGenerateUpstreamResult>;
