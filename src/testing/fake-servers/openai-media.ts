/**
 * The fake OpenAI server's non-text endpoints: image generation (url or b64_json), audio transcriptions and
 * translations (multipart uploads), and moderations, in the wire format the `openai` SDK speaks.
 */
import { createHash } from "node:crypto";
import type { ServerResponse } from "node:http";
import { crc32, deflateSync } from "node:zlib";
import { FakeHttpError, type FakeRequest, type FakeRoute } from "./http.js";

export interface FakeMediaOptions {
  /** The text heard in an uploaded file. Default: the file's bytes read as UTF-8 text. */
  transcribe?: (audio: Uint8Array, fields: Record<string, string>) => string;
  /** Whether a moderation input is flagged. Default: it mentions "kill", "hate" or "attack". */
  flag?: (input: string) => boolean;
}

/** What each route needs from the server around it. */
export interface MediaContext {
  /** Rejects a request the test wants to fail (the server's `fail` option); returns the JSON body. */
  guard(request: FakeRequest): Record<string, unknown>;
  /** Fails a request with an OpenAI error body when the test's `fail` option says so. */
  failIf(body: Record<string, unknown>, path: string): void;
  /** The server's base URL (image links point back to it). */
  baseUrl(): string;
}

const CRC_TYPE_LENGTH = 4;

function pngChunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const typed = Buffer.concat([Buffer.from(type, "ascii"), data]);
  const crc = Buffer.alloc(CRC_TYPE_LENGTH);
  crc.writeUInt32BE(crc32(typed) >>> 0);
  return Buffer.concat([length, typed, crc]);
}

/** A valid PNG of one colour, derived from `seed`, so different prompts give different images. */
export function solidPng(seed: string, width: number, height: number): Buffer {
  const [r, g, b] = createHash("sha256").update(seed).digest();
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([8, 2, 0, 0, 0], 8); // 8-bit RGB, no interlace
  const row = Buffer.alloc(1 + width * 3);
  for (let x = 0; x < width; x++) row.set([r, g, b], 1 + x * 3);
  const pixels = Buffer.concat(Array.from({ length: height }, () => row));
  const signature = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  return Buffer.concat([signature, pngChunk("IHDR", header), pngChunk("IDAT", deflateSync(pixels)), pngChunk("IEND", Buffer.alloc(0))]);
}

function sizeOf(size: unknown): [number, number] {
  const match = typeof size === "string" ? /^(\d+)x(\d+)$/.exec(size) : null;
  // Images are kept small: the fake only needs valid, distinct pictures.
  return match ? [Math.min(Number(match[1]), 64), Math.min(Number(match[2]), 64)] : [32, 32];
}

/** Reads a multipart upload as the SDK sends it: text fields and the file. */
async function formOf(request: FakeRequest): Promise<{ fields: Record<string, string>; file?: File }> {
  const type = String(request.headers["content-type"] ?? "");
  if (!type.startsWith("multipart/form-data")) {
    throw new FakeHttpError(400, { error: { message: "expected multipart/form-data", type: "invalid_request_error" } });
  }
  const form = await new Response(request.body, { headers: { "content-type": type } }).formData();
  const fields: Record<string, string> = {};
  let file: File | undefined;
  for (const [name, value] of form.entries()) {
    if (typeof value === "string") fields[name] = value;
    else if (name === "file") file = value;
  }
  return { fields, file };
}

const CATEGORIES = ["harassment", "hate", "self-harm", "sexual", "violence"] as const;

/** The routes of the media endpoints, keyed as `startFakeServer` expects. */
export function mediaRoutes(options: FakeMediaOptions, context: MediaContext): Record<string, FakeRoute> {
  const images = new Map<string, Buffer>();
  let sequence = 0;
  const transcribe = options.transcribe ?? ((audio) => Buffer.from(audio).toString("utf8"));
  const flag = options.flag ?? ((input) => /\b(kill|hate|attack)\b/i.test(input));

  function generate(request: FakeRequest) {
    const body = context.guard(request);
    if (typeof body.prompt !== "string" || body.prompt === "") {
      throw new FakeHttpError(400, { error: { message: "prompt is required", type: "invalid_request_error", param: "prompt" } });
    }
    const model = String(body.model ?? "dall-e-2");
    const gptImage = model.startsWith("gpt-image");
    const format = gptImage ? "b64_json" : (body.response_format ?? "url");
    const [width, height] = sizeOf(body.size);
    const data = Array.from({ length: typeof body.n === "number" ? body.n : 1 }, (_, index) => {
      const png = solidPng(`${model}|${body.prompt}|${body.size}|${index}`, width, height);
      const revised = model === "dall-e-3" ? { revised_prompt: `A picture of ${body.prompt}` } : {};
      if (format === "b64_json") return { b64_json: png.toString("base64"), ...revised };
      const name = `img-${++sequence}.png`;
      images.set(name, png);
      return { url: `${context.baseUrl()}/v1/files/images/${name}`, ...revised };
    });
    const extra = gptImage ? { output_format: "png", size: body.size ?? "1024x1024", quality: body.quality ?? "high", background: "opaque" } : {};
    return { created: Math.floor(Date.now() / 1000), data, ...extra };
  }

  function image(request: FakeRequest, response: ServerResponse) {
    const png = images.get(request.path.slice(request.path.lastIndexOf("/") + 1));
    if (!png) throw new FakeHttpError(404, { error: { message: "no such image", type: "invalid_request_error" } });
    response.writeHead(200, { "content-type": "image/png", "content-length": png.length });
    response.end(png);
  }

  async function audio(request: FakeRequest, response: ServerResponse) {
    const { fields, file } = await formOf(request);
    context.failIf(fields, request.path);
    if (!file) throw new FakeHttpError(400, { error: { message: "file is required", type: "invalid_request_error", param: "file" } });
    if (!fields.model) throw new FakeHttpError(400, { error: { message: "model is required", type: "invalid_request_error", param: "model" } });
    const heard = transcribe(new Uint8Array(await file.arrayBuffer()), fields);
    const text = request.path.endsWith("/translations") ? `(in English) ${heard}` : heard;
    const format = fields.response_format ?? "json";
    if (format === "text" || format === "srt" || format === "vtt") {
      const body = format === "text" ? text : format === "srt" ? `1\n00:00:00,000 --> 00:00:01,000\n${text}\n` : `WEBVTT\n\n00:00:00.000 --> 00:00:01.000\n${text}\n`;
      response.writeHead(200, { "content-type": "text/plain; charset=utf-8" });
      response.end(body);
      return;
    }
    if (format === "verbose_json") {
      return {
        task: request.path.endsWith("/translations") ? "translate" : "transcribe",
        language: fields.language ?? "english",
        duration: 1,
        text,
        segments: [{ id: 0, seek: 0, start: 0, end: 1, text, tokens: [1], temperature: 0, avg_logprob: -0.1, compression_ratio: 1, no_speech_prob: 0 }],
      };
    }
    return { text, usage: { type: "duration", seconds: 1 } };
  }

  function moderate(request: FakeRequest) {
    const body = context.guard(request);
    const inputs = typeof body.input === "string" ? [body.input] : Array.isArray(body.input) ? body.input : undefined;
    if (!inputs) throw new FakeHttpError(400, { error: { message: "input is required", type: "invalid_request_error", param: "input" } });
    const results = inputs.map((input) => {
      const flagged = flag(typeof input === "string" ? input : JSON.stringify(input));
      const categories = Object.fromEntries(CATEGORIES.map((name) => [name, flagged && name === "violence"]));
      const scores = Object.fromEntries(CATEGORIES.map((name) => [name, flagged && name === "violence" ? 0.93 : 0.001]));
      const applied = Object.fromEntries(CATEGORIES.map((name) => [name, ["text"]]));
      return { flagged, categories, category_scores: scores, category_applied_input_types: applied };
    });
    return { id: `modr-fake-${++sequence}`, model: String(body.model ?? "omni-moderation-latest"), results };
  }

  return {
    "POST /v1/images/generations": generate,
    "GET /v1/files/images/*": image,
    "POST /v1/audio/transcriptions": audio,
    "POST /v1/audio/translations": audio,
    "POST /v1/moderations": moderate,
  };
}
