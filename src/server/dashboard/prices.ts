/**
 * The price table behind the dashboard's "cost saved": `server.prices` maps a model name (the proxy's `model`)
 * to its price per 1,000 input and output tokens; `default` prices the lookups that name no model (/get, the
 * plain map) and models not listed. Cost saved by a hit = its estimated input tokens x input price + output
 * tokens x output price. No table: costs are 0 and the page says prices are not set.
 */
import { ValidationError } from "../../core/errors.js";

export interface ModelPrice {
  /** Price of 1,000 input (prompt) tokens, in the table's currency. */
  inputPer1k: number;
  /** Price of 1,000 output (completion) tokens. */
  outputPer1k: number;
}

/** The key pricing lookups without a model, and models the table does not list. */
export const DEFAULT_PRICE_KEY = "default";

function isPrice(value: unknown): value is number {
  return typeof value === "number" && Number.isFinite(value) && value >= 0;
}

/** Checks a price table (camelCase, as buildServer's settings take it); `path` names it in messages. */
export function checkPrices(prices: unknown, path: string): asserts prices is Record<string, ModelPrice> | undefined {
  if (prices === undefined) return;
  if (typeof prices !== "object" || prices === null || Array.isArray(prices)) throw new ValidationError(`${path} must be a mapping of model names to prices.`);
  for (const [model, price] of Object.entries(prices)) {
    const at = `${path}.${model}`;
    if (model.length === 0) throw new ValidationError(`${path} has an empty model name.`);
    if (typeof price !== "object" || price === null) throw new ValidationError(`${at} must be a mapping with input_per_1k and output_per_1k.`);
    const { inputPer1k, outputPer1k } = price as Partial<ModelPrice>;
    if (!isPrice(inputPer1k)) throw new ValidationError(`${at}.input_per_1k must be a number of at least 0, got ${JSON.stringify(inputPer1k)}.`);
    if (!isPrice(outputPer1k)) throw new ValidationError(`${at}.output_per_1k must be a number of at least 0, got ${JSON.stringify(outputPer1k)}.`);
    const unknown = Object.keys(price).filter((key) => key !== "inputPer1k" && key !== "outputPer1k");
    if (unknown.length > 0) throw new ValidationError(`Unknown price key${unknown.length > 1 ? "s" : ""} in ${at}: ${unknown.join(", ")}`);
  }
}

/** Reads the YAML form (snake_case: `{ model: { input_per_1k, output_per_1k } }`) into the camelCase one. */
export function readPrices(value: unknown, path: string): Record<string, ModelPrice> | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== "object" || Array.isArray(value)) throw new ValidationError(`${path} must be a mapping of model names to prices.`);
  const prices: Record<string, ModelPrice> = {};
  for (const [model, price] of Object.entries(value as Record<string, unknown>)) {
    if (typeof price !== "object" || price === null || Array.isArray(price)) throw new ValidationError(`${path}.${model} must be a mapping with input_per_1k and output_per_1k.`);
    const { input_per_1k: inputPer1k, output_per_1k: outputPer1k, ...rest } = price as Record<string, unknown>;
    const unknown = Object.keys(rest);
    if (unknown.length > 0) throw new ValidationError(`Unknown price key${unknown.length > 1 ? "s" : ""} in ${path}.${model}: ${unknown.join(", ")}`);
    prices[model] = { inputPer1k, outputPer1k } as ModelPrice;
  }
  checkPrices(prices, path);
  return prices;
}

/** Prices hits by model; a model not listed takes `default`'s price, or none (cost 0). */
export class PriceTable {
  private readonly prices: ReadonlyMap<string, ModelPrice>;
  private readonly fallback?: ModelPrice;

  constructor(prices: Record<string, ModelPrice> = {}) {
    this.prices = new Map(Object.entries(prices));
    this.fallback = this.prices.get(DEFAULT_PRICE_KEY);
  }

  /** Whether any price is set (else the page says costs are not priced). */
  get configured(): boolean {
    return this.prices.size > 0;
  }

  /** The cost of `inputTokens` and `outputTokens` of `model` (undefined: no model named). */
  cost(model: string | undefined, inputTokens: number, outputTokens: number): number {
    const price = (model === undefined ? undefined : this.prices.get(model)) ?? this.fallback;
    return price === undefined ? 0 : (inputTokens * price.inputPer1k + outputTokens * price.outputPer1k) / 1000;
  }
}
