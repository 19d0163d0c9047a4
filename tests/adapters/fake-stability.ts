/**
 * A local server speaking Stability AI's wire format: v2beta `POST /v2beta/stable-image/generate/{service}`
 * (multipart form; `accept: image/*` answers the bytes with `finish-reason` and `seed` headers,
 * `accept: application/json` answers `{ image, finish_reason, seed }`) and v1
 * `POST /v1/generation/{engine_id}/text-to-image` (JSON; `{ artifacts: [{ base64, seed, finishReason }] }`).
 * Errors are Stability's bodies: v2beta `{ id, name, errors: [...] }`, v1 `{ id, name, message }`.
 */
import { createHash, randomInt } from "node:crypto";
import type { ServerResponse } from "node:http";
import { FakeHttpError, startFakeServer, type FakeRequest, type FakeServer } from "../../src/testing/fake-servers/http.js";
import { solidPng } from "../../src/testing/fake-servers/openai-media.js";

export interface FakeStabilityOptions {
  /** The key the server accepts. Default "sk-test". */
  apiKey?: string;
  /** Whether a prompt's image is filtered (CONTENT_FILTERED). Default: it mentions "forbidden". */
  filter?: (prompt: string) => boolean;
  /** A status to fail a prompt with. Default: 500 when it mentions "server error". */
  fail?: (prompt: string) => number | undefined;
}

export interface FakeStabilityServer extends FakeServer {
  /** Generations run (requests that reached a model). */
  generations(): number;
}

const ENGINES = new Set(["stable-diffusion-v1-6", "stable-diffusion-xl-1024-v1-0"]);
const SERVICES = new Set(["core", "ultra", "sd3"]);
const errorId = () => createHash("sha1").update(String(Math.random())).digest("hex").slice(0, 32);

/** An image of the requested format, its colour derived from what was asked (different settings, different bytes). */
function picture(seed: string, format: string, width: number, height: number): Buffer {
  const png = solidPng(seed, width, height);
  // Only the first bytes matter to a reader sniffing the type; the rest keeps the image distinct.
  if (format === "jpeg") return Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), png.subarray(8)]);
  if (format === "webp") return Buffer.concat([Buffer.from("RIFF"), Buffer.alloc(4), Buffer.from("WEBP"), png.subarray(8)]);
  return png;
}

function sizeOfAspect(aspect: string): [number, number] {
  const match = /^(\d+):(\d+)$/.exec(aspect);
  if (!match) throw new FakeHttpError(400, { id: errorId(), name: "bad_request", errors: [`aspect_ratio: invalid value ${aspect}`] });
  const [w, h] = [Number(match[1]), Number(match[2])];
  return w >= h ? [32, Math.max(1, Math.round((32 * h) / w))] : [Math.max(1, Math.round((32 * w) / h)), 32];
}

export async function startFakeStability(options: FakeStabilityOptions = {}): Promise<FakeStabilityServer> {
  const apiKey = options.apiKey ?? "sk-test";
  const filter = options.filter ?? ((prompt) => prompt.includes("forbidden"));
  const fail = options.fail ?? ((prompt) => (prompt.includes("server error") ? 500 : undefined));
  let generations = 0;

  function authorize(request: FakeRequest, v1: boolean): void {
    if (request.headers.authorization === `Bearer ${apiKey}`) return;
    throw new FakeHttpError(401, v1 ? { id: errorId(), name: "unauthorized", message: "Missing or invalid API key" } : { id: errorId(), name: "unauthorized", errors: ["authorization: invalid or missing header value"] });
  }

  async function v2beta(request: FakeRequest, response: ServerResponse): Promise<unknown> {
    authorize(request, false);
    const service = request.path.split("/").at(-1) ?? "";
    if (!SERVICES.has(service)) throw new FakeHttpError(404, { id: errorId(), name: "not_found", errors: [`no service ${service}`] });
    const type = String(request.headers["content-type"] ?? "");
    if (!type.startsWith("multipart/form-data")) throw new FakeHttpError(400, { id: errorId(), name: "bad_request", errors: ["content-type: must be multipart/form-data"] });
    const accept = String(request.headers.accept ?? "image/*");
    if (accept !== "image/*" && accept !== "application/json") throw new FakeHttpError(400, { id: errorId(), name: "bad_request", errors: ["accept: must be image/* or application/json"] });
    const form = await new Response(request.body, { headers: { "content-type": type } }).formData();
    const field = (name: string) => (typeof form.get(name) === "string" ? (form.get(name) as string) : undefined);
    const prompt = field("prompt") ?? "";
    if (prompt === "") throw new FakeHttpError(400, { id: errorId(), name: "bad_request", errors: ["prompt: cannot be empty"] });
    const status = fail(prompt);
    if (status) throw new FakeHttpError(status, { id: errorId(), name: "internal_error", errors: ["An unexpected server error has occurred, please try again later."] });
    generations++;
    const seed = Number(field("seed") ?? 0) || randomInt(1, 4294967294);
    const format = field("output_format") ?? "png";
    const [width, height] = sizeOfAspect(field("aspect_ratio") ?? "1:1");
    const image = picture(`${service}|${field("model")}|${prompt}|${field("negative_prompt")}|${seed}|${field("style_preset")}`, format, width, height);
    const finishReason = filter(prompt) ? "CONTENT_FILTERED" : "SUCCESS";
    if (accept === "application/json") return { image: image.toString("base64"), finish_reason: finishReason, seed };
    response.writeHead(200, { "content-type": `image/${format}`, "finish-reason": finishReason, seed: String(seed) });
    response.end(image);
    return undefined;
  }

  function v1(request: FakeRequest): unknown {
    authorize(request, true);
    const engine = /^\/v1\/generation\/([^/]+)\/text-to-image$/.exec(request.path)?.[1] ?? "";
    if (!ENGINES.has(engine)) throw new FakeHttpError(404, { id: errorId(), name: "engine_not_found", message: `engine: ${engine} not found` });
    const body = request.json;
    const prompts = body?.text_prompts as Array<{ text: string; weight?: number }> | undefined;
    if (!Array.isArray(prompts) || prompts.length === 0) throw new FakeHttpError(400, { id: errorId(), name: "invalid_prompts", message: "text_prompts: cannot be empty" });
    const positive = prompts.filter((p) => (p.weight ?? 1) >= 0).map((p) => p.text).join(" ");
    const status = fail(positive);
    if (status) throw new FakeHttpError(status, { id: errorId(), name: "internal_error", message: "An unexpected server error occurred." });
    generations++;
    const samples = Number(body?.samples ?? 1);
    const [width, height] = [Number(body?.width ?? 512), Number(body?.height ?? 512)].map((side) => Math.max(1, Math.round(side / 16)));
    const base = Number(body?.seed ?? 0) || randomInt(1, 4294967294);
    const artifacts = Array.from({ length: samples }, (_, i) => {
      const seed = base + i;
      const image = picture(`${engine}|${JSON.stringify(prompts)}|${seed}|${body?.cfg_scale}|${body?.steps}|${body?.style_preset}`, "png", width, height);
      return { base64: image.toString("base64"), seed, finishReason: filter(positive) ? "CONTENT_FILTERED" : "SUCCESS" };
    });
    return { artifacts };
  }

  const server = await startFakeServer({
    "POST /v2beta/stable-image/generate/*": v2beta,
    "POST /v1/generation/*": v1,
  });
  return { ...server, generations: () => generations };
}
