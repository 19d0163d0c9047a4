/**
 * The glue between a LangChain call and the request flow, shared by `CachedChatModel` and `CachedLLM`: the
 * cache call options (split from the model's own), the model settings the cache partitions on, and a call's
 * outcome (hit, the caller's own model call, or a concurrent identical call it shared).
 */
import { BaseCallbackHandler } from "@langchain/core/callbacks/base";
import { CallbackManager, type CallbackManagerForLLMRun } from "@langchain/core/callbacks/manager";
import type { Cache } from "../presets/cache.js";
import { ValidationError } from "../core/errors.js";
import { runCached, type CacheHit, type RequestOptions, type ValueSurface } from "../core/pipeline.js";
import type { Session } from "../core/session.js";
import type { CacheRequest } from "../core/types.js";
import { withoutSecrets } from "./secrets.js";

/**
 * Cache options a wrapper call accepts next to the model's own (camelCase, as LangChain call options are):
 * the request flow's options. They are removed before the wrapped model is called.
 */
export type CacheCallOptions = RequestOptions;

/** The cache call options' names (they are taken out of a call's options before the model sees them). */
export const CACHE_CALL_KEYS = [
  "cacheObj",
  "cacheContext",
  "cacheSkip",
  "session",
  "topK",
  "searchOnly",
  "temperature",
] as const satisfies ReadonlyArray<keyof RequestOptions>;

type CacheCallKey = (typeof CACHE_CALL_KEYS)[number];
/** Compile-time check that CACHE_CALL_KEYS lists every request option. */
type _AllKeysListed<Missing extends never = Exclude<keyof RequestOptions, CacheCallKey>> = Missing;

/**
 * Call options LangChain adds for its own bookkeeping (the prompt's index in a batch): not the model's
 * settings, and absent from streams, so they must not reach the partition.
 */
const BOOKKEEPING_KEYS = ["promptIndex"];

/** The defaults a wrapper applies to every call (its cache, its session, its cacheOptions). */
export interface WrapperCacheDefaults {
  cache?: Cache;
  session?: Session | string;
  cacheOptions?: RequestOptions;
  /**
   * Apply GPTCache's random skip by the model's temperature (at temperature T a lookup is skipped with
   * probability 1/(1+e^(1/T)); at 2, always). Default false: LangChain caches are deterministic, so a repeat is
   * a hit whatever the model's temperature (which still partitions the entries). A `temperature` call option
   * applies the rule at that temperature either way.
   */
  temperatureSkip?: boolean;
}

/** Checks a wrapper's temperatureSkip field. */
export function checkTemperatureSkip(wrapper: string, value: unknown): void {
  if (value !== undefined && typeof value !== "boolean") throw new ValidationError(`${wrapper}: \`temperatureSkip\` must be a boolean.`);
}

/** Splits parsed call options into the cache's (over the wrapper's defaults) and the wrapped model's. */
export function splitCallOptions<O extends object>(
  options: O,
  defaults: WrapperCacheDefaults,
): { cacheOptions: RequestOptions; modelOptions: Omit<O, CacheCallKey> } {
  // Deterministic unless asked: the rule then reads the model's own temperature from the request.
  const cacheOptions: Record<string, unknown> = { ...(defaults.temperatureSkip ? {} : { temperature: 0 }), ...defaults.cacheOptions };
  if (defaults.cache !== undefined) cacheOptions.cacheObj = defaults.cache;
  if (defaults.session !== undefined) cacheOptions.session = defaults.session;
  const modelOptions: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(options)) {
    if ((CACHE_CALL_KEYS as readonly string[]).includes(key)) {
      if (value !== undefined) cacheOptions[key] = value;
    } else if (!BOOKKEEPING_KEYS.includes(key)) {
      modelOptions[key] = value;
    }
  }
  return { cacheOptions: cacheOptions as RequestOptions, modelOptions: modelOptions as Omit<O, CacheCallKey> };
}

/** What the wrappers read from a LangChain model (both BaseChatModel and BaseLLM have these). */
export interface DescribedModel {
  invocationParams(options?: never): unknown;
  _identifyingParams(): Record<string, unknown>;
  _llmType(): string;
}

/** The wrapped model's invocation params for a call, the cache's options removed: what traces show. */
export function wrappedInvocationParams(model: DescribedModel, options?: object): unknown {
  return model.invocationParams(options && (splitCallOptions(options, {}).modelOptions as never));
}

/**
 * The request settings of a call: the model's invocation params (OpenAI-style `model`, `temperature`,
 * `top_p`, ... — the default partition keys and the temperature rule read these), plus `llm_key`, the
 * model's identity and call options as LangChain's own cache keys them, so providers whose settings are
 * named or nested differently (Ollama's `options.temperature`) still never share answers across settings.
 * API keys, base URLs and routing settings are removed from both.
 */
export function modelSettings(model: DescribedModel, modelOptions: object): CacheRequest {
  const params = model.invocationParams(modelOptions as never);
  const settings = withoutSecrets(typeof params === "object" && params !== null ? params : {}) as CacheRequest;
  const identity = { ...model._identifyingParams(), ...modelOptions, _type: model._llmType() };
  return { ...settings, llm_key: withoutSecrets(identity) };
}

/**
 * True for a model loaded by name (`initChatModel`'s ConfigurableModel): it says which model it is only once
 * resolved for a run, so keyed as it is, every model it may become would share answers.
 */
export function isUnresolvedModel(model: unknown): boolean {
  return typeof (model as { _getModelInstance?: unknown } | null)?._getModelInstance === "function";
}

/**
 * The options of the wrapped model's call on a miss: the call's model options (abort signal included), and
 * callbacks. The wrapper's run is the one run handlers see, hit or miss (its tokens and its end: usage
 * counted once, streamed text reported once); only LangSmith's tracer also sees the model's own run, nested
 * under the wrapper's. An explicit (even empty) manager also keeps the model call from attaching itself to
 * an enclosing run through LangChain's async-local config.
 */
export function modelCallConfig<C>(
  modelOptions: object,
  runManager?: CallbackManagerForLLMRun,
  options: { relayTokens?: boolean } = {},
): Partial<C> {
  const callbacks = new CallbackManager(runManager?.runId);
  for (const handler of runManager?.handlers ?? []) if (handler.name === "langchain_tracer") callbacks.addHandler(handler);
  // A non-streaming call (invoke) to a model built with `streaming: true` emits its tokens on its own run:
  // pass them on to the wrapper's run, so handlers see them as on the wrapped model.
  if (options.relayTokens && runManager) {
    callbacks.addHandler(
      BaseCallbackHandler.fromMethods({
        handleLLMNewToken: (token, idx, _runId, _parentRunId, _tags, fields) =>
          runManager.handleLLMNewToken(token, idx, undefined, undefined, undefined, fields),
      }),
    );
  }
  return { ...modelOptions, callbacks } as unknown as Partial<C>;
}

/**
 * How a call was answered: `hit` (from the cache), `miss` (this caller's own model call), `shared` (a
 * concurrent identical call's model answer, at no cost of its own), `none` (searchOnly miss).
 */
export type CallOutcome = "hit" | "miss" | "shared" | "none";

/** `runCached`, telling the caller how its answer came. */
export async function runWithOutcome<R>(
  request: CacheRequest,
  options: RequestOptions,
  surface: ValueSurface<R>,
): Promise<{ value: R | null; outcome: CallOutcome }> {
  let own: R | undefined;
  let hit = false;
  const value = await runCached<R>(request, options, {
    ...surface,
    call: async () => (own = await surface.call()),
    fromCache: (cacheHit: CacheHit) => {
      hit = true;
      return surface.fromCache(cacheHit);
    },
  });
  const outcome: CallOutcome = value === null ? "none" : hit ? "hit" : value === own ? "miss" : "shared";
  return { value, outcome };
}
