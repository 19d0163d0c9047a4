/**
 * `cachedStability()`: Stability AI's text-to-image APIs through the cache, over `fetch` (no SDK): the v2beta
 * Stable Image endpoints (`/v2beta/stable-image/generate/{core|ultra|sd3}`, multipart form in, image bytes or
 * JSON out) and the v1 engines (`/v1/generation/{engine_id}/text-to-image`, JSON). Error answers are thrown as
 * `ModelServerError`; a CONTENT_FILTERED (or ERROR) image is handed back but never stored.
 */
import { ValidationError } from "../../core/errors.js";
import { callFlowOptions, callResponseFormat, checkPrompt, checkSettings, defaultFlowOptions, type CacheSettings, type ImageCallOptions, type SearchOnlyCall } from "./call-options.js";
import { runImageGeneration, type CachedImages, type GeneratedImages } from "./image-generation.js";
import { checkResponseFormat, type ImageResponseFormat } from "./image-store.js";
import { providerConnection, throwUnlessOk, unexpectedAnswer, type ProviderConnection, type ProviderConnectionOptions } from "./provider-http.js";

export const DEFAULT_STABILITY_URL = "https://api.stability.ai";

/** The v2beta Stable Image services (another name is sent as given, for services added later). */
export type StabilityService = "core" | "ultra" | "sd3" | (string & {});

/** A v2beta form: `prompt` is the key; every other field (seed, aspect ratio, model, negative prompt, ...) partitions. */
export interface StabilityGenerateParams {
  prompt: string;
  negative_prompt?: string;
  aspect_ratio?: string;
  /** 0 (the default) draws a random seed. */
  seed?: number;
  output_format?: "png" | "jpeg" | "webp";
  /** sd3 only: "sd3.5-large", "sd3.5-medium", ... */
  model?: string;
  style_preset?: string;
  cfg_scale?: number;
  [field: string]: string | number | boolean | undefined;
}

/** One v1 prompt; a negative weight makes it a negative prompt. */
export interface StabilityTextPrompt {
  text: string;
  weight?: number;
}

/** A v1 text-to-image body: the positive prompts are the key; the rest (negative prompts and weights included) partitions. */
export interface StabilityV1TextToImageBody {
  text_prompts: StabilityTextPrompt[];
  cfg_scale?: number;
  height?: number;
  width?: number;
  samples?: number;
  steps?: number;
  seed?: number;
  sampler?: string;
  style_preset?: string;
  clip_guidance_preset?: string;
  [field: string]: unknown;
}

export interface CachedStabilityOptions extends CacheSettings, ProviderConnectionOptions {
  /** Default: the STABILITY_API_KEY environment variable. */
  apiKey?: string;
  /** Default https://api.stability.ai. */
  baseUrl?: string;
  /** How images come back unless a call says otherwise. Default "bytes". */
  responseFormat?: ImageResponseFormat;
  /** v2beta's answer on the wire: the image's bytes ("image/*", the default: a third smaller) or base64 in JSON. */
  accept?: "image/*" | "application/json";
}

export interface CachedStability {
  /** v2beta: `POST /v2beta/stable-image/generate/{service}`. Image metadata: `{ finish_reason, seed }`. */
  generate(service: StabilityService, params: StabilityGenerateParams, call: ImageCallOptions & SearchOnlyCall): Promise<CachedImages | null>;
  generate(service: StabilityService, params: StabilityGenerateParams, call?: ImageCallOptions): Promise<CachedImages>;
  /** v1: `POST /v1/generation/{engineId}/text-to-image`. Image metadata: `{ seed, finishReason }`. */
  textToImage(engineId: string, body: StabilityV1TextToImageBody, call: ImageCallOptions & SearchOnlyCall): Promise<CachedImages | null>;
  textToImage(engineId: string, body: StabilityV1TextToImageBody, call?: ImageCallOptions): Promise<CachedImages>;
}

/** Stored only when every image finished normally. */
const cacheableReason = (reason: unknown) => reason === undefined || reason === null || reason === "SUCCESS";

const PATH_PART = /^[A-Za-z0-9._-]+$/;

function checkPathPart(where: string, what: string, value: unknown): string {
  if (typeof value !== "string" || !PATH_PART.test(value)) throw new ValidationError(`${where}: ${what} must be a name like "core" or "stable-diffusion-v1-6".`);
  return value;
}

/** The v2beta form: every field a text part (the service reads numbers from text); files are not cached here. */
function formOf(where: string, params: Record<string, unknown>): FormData {
  const form = new FormData();
  for (const [field, value] of Object.entries(params)) {
    if (value === undefined || value === null) continue;
    if (!["string", "number", "boolean"].includes(typeof value)) {
      throw new ValidationError(`${where}: field ${field} must be text or a number (image-to-image uploads are not cached).`);
    }
    form.append(field, String(value));
  }
  return form;
}

async function v2betaImages(connection: ProviderConnection, service: string, params: Record<string, unknown>, accept: string, signal?: AbortSignal): Promise<GeneratedImages> {
  const response = await throwUnlessOk(
    await connection.fetch(`${connection.baseUrl}/v2beta/stable-image/generate/${service}`, {
      method: "POST",
      headers: { ...connection.headers, accept },
      body: formOf("cachedStability.generate", params),
      signal,
    }),
  );
  if (accept === "application/json") {
    const body = (await response.json()) as { image?: unknown; finish_reason?: unknown; seed?: unknown };
    if (typeof body?.image !== "string") throw unexpectedAnswer("Stability v2beta", body);
    const metadata = { finish_reason: body.finish_reason, seed: body.seed };
    return { images: [{ bytes: Buffer.from(body.image, "base64"), metadata }], cacheable: cacheableReason(body.finish_reason) };
  }
  const reason = response.headers.get("finish-reason") ?? undefined;
  const seed = response.headers.get("seed");
  const metadata = { finish_reason: reason, seed: seed === null ? undefined : Number(seed) };
  return { images: [{ bytes: new Uint8Array(await response.arrayBuffer()), metadata }], cacheable: cacheableReason(reason) };
}

async function v1Images(connection: ProviderConnection, engineId: string, body: StabilityV1TextToImageBody, signal?: AbortSignal): Promise<GeneratedImages> {
  const response = await throwUnlessOk(
    await connection.fetch(`${connection.baseUrl}/v1/generation/${engineId}/text-to-image`, {
      method: "POST",
      headers: { ...connection.headers, "content-type": "application/json", accept: "application/json" },
      body: JSON.stringify(body),
      signal,
    }),
  );
  const answer = (await response.json()) as { artifacts?: Array<{ base64?: unknown; seed?: unknown; finishReason?: unknown }> };
  const artifacts = answer?.artifacts;
  if (!Array.isArray(artifacts) || !artifacts.every((artifact) => typeof artifact?.base64 === "string")) throw unexpectedAnswer("Stability v1", answer);
  return {
    images: artifacts.map(({ base64, seed, finishReason }) => ({ bytes: Buffer.from(base64 as string, "base64"), metadata: { seed, finishReason } })),
    cacheable: artifacts.every(({ finishReason }) => cacheableReason(finishReason)),
  };
}

/** The v1 key: the positive prompts; the negative ones and every weight partition instead. */
function v1Key(where: string, body: StabilityV1TextToImageBody): { prompt: string; settings: Record<string, unknown> } {
  const prompts = body?.text_prompts;
  if (!Array.isArray(prompts) || prompts.length === 0 || !prompts.every((p) => typeof p?.text === "string" && (p.weight === undefined || typeof p.weight === "number"))) {
    throw new ValidationError(`${where}: text_prompts must be a non-empty list of { text, weight? }.`);
  }
  const positive = prompts.filter((p) => (p.weight ?? 1) >= 0);
  const prompt = checkPrompt(where, positive.map((p) => p.text).join("\n"));
  const { text_prompts: _prompts, ...rest } = body;
  const promptSettings = prompts.map((p) => ((p.weight ?? 1) >= 0 ? { weight: p.weight ?? 1 } : { text: p.text, weight: p.weight }));
  return { prompt, settings: { ...rest, text_prompts: promptSettings } };
}

/**
 * A Stability AI client with the cache in front. The prompt is the key; every other field is part of it (a
 * different seed, size or model never gets another's image). Images are kept in the cache's object store.
 *
 * ```ts
 * const stability = cachedStability({ cache, responseFormat: "base64" });
 * const { images } = await stability.generate("core", { prompt: "a lighthouse at dawn", aspect_ratio: "16:9", seed: 7 });
 * ```
 */
export function cachedStability(options: CachedStabilityOptions = {}): CachedStability {
  const where = "cachedStability";
  const defaults = defaultFlowOptions(where, options);
  const connection = providerConnection(where, options, { baseUrl: DEFAULT_STABILITY_URL, keyVariable: "STABILITY_API_KEY" });
  const format = checkResponseFormat(options.responseFormat, where);
  const accept = options.accept ?? "image/*";
  if (accept !== "image/*" && accept !== "application/json") throw new ValidationError(`${where}: \`accept\` must be "image/*" or "application/json".`);

  async function generate(service: StabilityService, params: StabilityGenerateParams, call?: ImageCallOptions): Promise<CachedImages | null> {
    const name = checkPathPart(`${where}.generate`, "the service", service);
    const { prompt, ...settings } = checkSettings(`${where}.generate`, params);
    return runImageGeneration({
      name: `stability:v2beta/${name}`,
      prompt: checkPrompt(`${where}.generate`, prompt),
      settings,
      options: callFlowOptions(where, defaults, call),
      responseFormat: callResponseFormat(where, format, call),
      generate: () => v2betaImages(connection, name, { prompt, ...settings }, accept, call?.signal),
    });
  }

  async function textToImage(engineId: string, body: StabilityV1TextToImageBody, call?: ImageCallOptions): Promise<CachedImages | null> {
    const engine = checkPathPart(`${where}.textToImage`, "the engine id", engineId);
    const { prompt, settings } = v1Key(`${where}.textToImage`, checkSettings(`${where}.textToImage`, body) as StabilityV1TextToImageBody);
    return runImageGeneration({
      name: `stability:v1/${engine}`,
      prompt,
      settings,
      options: callFlowOptions(where, defaults, call),
      responseFormat: callResponseFormat(where, format, call),
      generate: () => v1Images(connection, engine, body, call?.signal),
    });
  }

  return { generate, textToImage } as CachedStability;
}
