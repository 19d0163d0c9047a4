/**
 * A request body split into what goes upstream and what the cache reads: the cache options (snake_case in
 * bodies), the `llm` function and its `cache_args`, the key function a surface uses by default, and the
 * settings that partition a surface's answers beyond the configured partition keys.
 */
import { Cache } from "../../presets/cache.js";
import { DEFAULT_PARTITION_KEYS } from "../../core/config.js";
import { ValidationError } from "../../core/errors.js";
import { stableStringify } from "../../core/keys.js";
import type { FlowOptions } from "../../core/pipeline.js";
import type { PreEmbeddingFunc } from "../../core/contracts/processors.js";
import type { LlmFunction, UpstreamSettings } from "./types.js";

/** Body fields that are the cache's options, and their camelCase names in the request flow. */
const BODY_OPTIONS = {
  cache_obj: "cacheObj",
  cache_context: "cacheContext",
  cache_skip: "cacheSkip",
  session: "session",
  top_k: "topK",
  search_only: "searchOnly",
} as const satisfies Record<string, keyof FlowOptions>;

export interface SplitBody<B, R> {
  /** The body as the provider gets it: the cache's fields removed, every other field untouched. */
  upstream: B;
  /** The cache options: the defaults, the body's own, then the overrides. */
  options: FlowOptions;
  /** Calls the provider (or the body's `llm`) with an upstream body. */
  call: (body: B) => Promise<R>;
  /** Whether chat answers are shared across contexts (the body's `share_across_contexts`, or the default). */
  shareAcrossContexts: boolean;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

const NO_FIELDS: ReadonlySet<string> = new Set();

/**
 * Splits a request body; `cache`, when given, is the cache used (over any the body or the defaults name).
 * `keepTemperature`: the endpoint has a `temperature` setting of its own, so it is sent upstream as well as
 * read by the cache (dropping it, as GPTCache does, would change the answer asked for). `providerFields`: body
 * fields that are the provider's own settings although a cache option has their name (llama.cpp's `top_k`
 * samples): sent upstream untouched, never read by the cache.
 */
export function splitBody<B, R>(
  body: unknown,
  cache: Cache | undefined,
  settings: UpstreamSettings<B, R>,
  keepTemperature: boolean,
  providerFields: ReadonlySet<string> = NO_FIELDS,
): SplitBody<B, R> {
  if (!isPlainObject(body)) throw new ValidationError("The request body must be an object.");
  if (typeof settings?.upstream !== "function") throw new ValidationError("`upstream` must be a function that calls the provider.");
  if (cache !== undefined && !(cache instanceof Cache)) throw new ValidationError("cache must be a Cache.");
  const upstream: Record<string, unknown> = {};
  const fromBody: Record<string, unknown> = {};
  let llm: unknown;
  let cacheArgs: unknown;
  let shareAcrossContexts: unknown = settings.shareAcrossContexts ?? false;
  for (const [field, value] of Object.entries(body)) {
    if (Object.hasOwn(BODY_OPTIONS, field) && !providerFields.has(field)) {
      if (value !== undefined) fromBody[BODY_OPTIONS[field as keyof typeof BODY_OPTIONS]] = value;
    } else if (field === "llm") {
      llm = value;
    } else if (field === "cache_args") {
      cacheArgs = value;
    } else if (field === "share_across_contexts") {
      if (value !== undefined) shareAcrossContexts = value;
    } else {
      if (field === "temperature" && value !== undefined && value !== null) fromBody.temperature = value;
      if (field !== "temperature" || keepTemperature) upstream[field] = value;
    }
  }
  if (llm !== undefined && typeof llm !== "function") throw new ValidationError("llm must be a function of the request body.");
  if (cacheArgs !== undefined && !isPlainObject(cacheArgs)) throw new ValidationError("cache_args must be an object.");
  if (typeof shareAcrossContexts !== "boolean") throw new ValidationError("share_across_contexts must be a boolean.");
  const { signal } = settings;
  const userLlm = llm as LlmFunction<B, R> | undefined;
  const args = cacheArgs as Record<string, unknown> | undefined;
  return {
    upstream: upstream as B,
    options: { ...settings.defaults, ...fromBody, ...settings.cacheOptions, ...(cache ? { cacheObj: cache } : {}) },
    call: userLlm
      ? async (sent) => userLlm(sent, { cacheArgs: args, signal })
      : (sent) => settings.upstream(sent, signal),
    shareAcrossContexts,
  };
}

/**
 * The options with the surface's own key function, unless the request names one in its cache context (a
 * function replaces the key function; any other value is an argument for the cache's own).
 */
export function withDefaultKey(options: FlowOptions, key: PreEmbeddingFunc | undefined): FlowOptions {
  const context = options.cacheContext;
  if (!key) return options;
  if (context === undefined) return { ...options, cacheContext: { preEmbeddingFunc: key } };
  // Not an object: left as is, for the flow to refuse with a ValidationError.
  if (!isPlainObject(context) || "preEmbeddingFunc" in context || "pre_embedding_func" in context) return options;
  return { ...options, cacheContext: { ...context, preEmbeddingFunc: key } };
}

const PARTITION_KEYS = new Set(DEFAULT_PARTITION_KEYS);

/**
 * The part of a surface's partition its settings add: the surface's namespace and every setting that may
 * change the answer and is not a partition key already (those follow `config.partitionKeys`). `neutral`
 * lists the fields that are the key itself or cannot change the answer (stream, user, metadata, ...); any
 * other field, including one the provider adds later, keeps answers apart.
 */
export function settingsPartition(namespace: string, body: Readonly<Record<string, unknown>>, neutral: ReadonlySet<string>): string | undefined {
  const settings = Object.entries(body).filter(
    ([field, value]) => value !== undefined && value !== null && !neutral.has(field) && !PARTITION_KEYS.has(field),
  );
  if (settings.length === 0) return namespace || undefined;
  return `${namespace}${stableStringify(Object.fromEntries(settings))}`;
}

/** The settings of a typed surface as the flow reads bodies: records (the provider gets them back unchanged). */
export function asRecords<B, R>(settings: UpstreamSettings<B, R>): UpstreamSettings<Record<string, unknown>, R> {
  return settings as unknown as UpstreamSettings<Record<string, unknown>, R>;
}

/** The body without some fields (a copy). */
export function without<T extends Record<string, unknown>>(body: T, ...fields: string[]): Record<string, unknown> {
  const copy: Record<string, unknown> = { ...body };
  for (const field of fields) delete copy[field];
  return copy;
}
