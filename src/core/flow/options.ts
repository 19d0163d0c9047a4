/** The checks every request's options pass first, and the temperature rule that decides a skip. */
import { CacheKernel } from "../cache.js";
import { ValidationError } from "../errors.js";
import { isNonNegativeNumber, isNumberBetween, isPositiveInteger } from "../validation.js";
import { resolveContext } from "../request-context.js";
import { Session } from "../session.js";
import type { FlowOptions } from "./surface.js";

/** GPTCache's rule: T <= 0 reads unless cacheSkip; T >= 2 never reads; between, skips with 1/(1+e^(1/T)). */
export function decideSkip(temperature: number, cacheSkip: boolean, random: () => number): boolean {
  if (cacheSkip || temperature >= 2) return true;
  if (temperature <= 0) return false;
  return random() < 1 / (1 + Math.exp(1 / temperature));
}

/** Checks per-request options and the cache context, as every request does first (for requests a surface passes through uncached). */
export function assertFlowOptions(options: FlowOptions): void {
  validateOptions(options);
  resolveContext(options.cacheContext);
}

export function validateOptions(options: FlowOptions): void {
  if (typeof options !== "object" || options === null) throw new ValidationError("Cache options must be an object.");
  const { cacheObj, cacheSkip, searchOnly, topK, session, temperature, noStore, maxAgeSeconds } = options;
  if (noStore !== undefined && typeof noStore !== "boolean") throw new ValidationError("noStore must be a boolean.");
  if (maxAgeSeconds !== undefined && !isNonNegativeNumber(maxAgeSeconds)) {
    throw new ValidationError("maxAgeSeconds must be a number of seconds, 0 or more.");
  }
  if (cacheObj !== undefined && !(cacheObj instanceof CacheKernel)) throw new ValidationError("cacheObj must be a Cache.");
  if (cacheSkip !== undefined && typeof cacheSkip !== "boolean") throw new ValidationError("cacheSkip must be a boolean.");
  if (searchOnly !== undefined && typeof searchOnly !== "boolean") throw new ValidationError("searchOnly must be a boolean.");
  if (topK !== undefined && !isPositiveInteger(topK)) throw new ValidationError("topK must be a positive integer.");
  if (temperature !== undefined && !isNumberBetween(temperature, 0, 2)) {
    throw new ValidationError(`temperature must be a number from 0 to 2, got ${String(temperature)}.`);
  }
  if (session !== undefined && !(session instanceof Session) && !(typeof session === "string" && session.length > 0)) {
    throw new ValidationError("session must be a Session or a non-empty string.");
  }
}
