/**
 * A wrapper's constructor fields taken apart, the same for `CachedChatModel` and `CachedLLM`: the wrapped
 * model (checked), the cache defaults every call gets, and the rest, LangChain's own model params.
 */
import { ValidationError } from "../core/errors.js";
import { checkTemperatureSkip, type WrapperCacheDefaults } from "./call-options.js";

/** The wrapped model, what a wrapper applies to every call, and the params for LangChain's base class. */
export interface WrapperParts<F extends WrapperCacheDefaults & { model: unknown }> {
  model: F["model"];
  defaults: WrapperCacheDefaults;
  params: Omit<F, "model" | keyof WrapperCacheDefaults>;
}

/**
 * Splits and checks a wrapper's fields. `isModel` tells the model kind the wrapper takes; `needs` names it
 * in the error ("a LangChain chat model").
 */
export function wrapperFields<F extends WrapperCacheDefaults & { model: unknown }>(
  wrapper: string,
  fields: F,
  isModel: (model: unknown) => boolean,
  needs: string,
): WrapperParts<F> {
  const { model, cache, session, cacheOptions, temperatureSkip, ...params } = fields ?? ({} as F);
  if (!isModel(model)) throw new ValidationError(`${wrapper} needs \`model\`, ${needs}.`);
  checkTemperatureSkip(wrapper, temperatureSkip);
  return { model, defaults: { cache, session, cacheOptions, temperatureSkip }, params };
}
