/**
 * Audio transcriptions and translations through the cache. The key is the file's bytes (their SHA-256): the
 * same recording answers again, in any response format asked for before; a different one never shares an
 * answer (its digest is also in the partition, so a text embedding of the digest cannot match another).
 */
import { basename } from "node:path";
import type { Transcription, TranscriptionCreateParams, TranscriptionVerbose } from "openai/resources/audio/transcriptions";
import type { Translation, TranslationCreateParams, TranslationVerbose } from "openai/resources/audio/translations";
import type { Cache } from "../../presets/cache.js";
import { ValidationError } from "../../core/errors.js";
import { keyText } from "../../core/keys.js";
import type { CacheHit, StoredAnswer } from "../../core/pipeline.js";
import { getFileBytes } from "../../processors/pre.js";
import { hitMarker } from "./marker.js";
import { asRecords, settingsPartition, splitBody, without } from "./options.js";
import { passThrough, runValue } from "./run.js";
import type { CacheBodyOptions, CachedCall, Marked, UpstreamSettings } from "./types.js";

export type AudioEndpoint = "transcriptions" | "translations";

/** What the audio endpoints answer: an object for json formats, a string for text, srt and vtt. */
export type AudioResult = Transcription | TranscriptionVerbose | Translation | TranslationVerbose | string;

export type AudioParams = TranscriptionCreateParams | TranslationCreateParams;

/** An audio body with the cache's options. */
export type CachedAudioBody = AudioParams & CacheBodyOptions<AudioParams, AudioResult>;

/** Formats the SDK returns as a plain string. */
const TEXT_FORMATS = new Set(["text", "srt", "vtt"]);

const NEUTRAL = new Set(["file", "stream"]);

/** The upload's file name (the provider reads the audio format from its extension). */
function fileName(file: unknown): string {
  const f = file as { name?: unknown; path?: unknown; url?: unknown } | null;
  const path = typeof f?.name === "string" ? f.name : typeof f?.path === "string" ? f.path : Buffer.isBuffer(f?.path) ? f.path.toString() : "";
  return basename(path || (typeof f?.url === "string" ? urlPath(f.url) : "")) || "audio";
}

function urlPath(url: string): string {
  try {
    return new URL(url).pathname;
  } catch {
    return "";
  }
}

/** What to store: the text for the json format, a string answer as is, any other object whole (as JSON). */
function audioAnswer(result: AudioResult, format: string): StoredAnswer | null {
  if (typeof result === "string") return result || null;
  if (typeof result?.text !== "string") return null;
  if (format === "json") return result.text;
  return { answer: JSON.stringify(without(result as unknown as Record<string, unknown>, "usage")), answerType: "object" };
}

function audioFromHit(hit: CacheHit, format: string): Marked<AudioResult> {
  if (hit.answerType === "object") return { ...(JSON.parse(hit.answer) as Transcription), semcache: hitMarker(hit) };
  if (TEXT_FORMATS.has(format)) return hit.answer;
  return { text: hit.answer, semcache: hitMarker(hit) };
}

/**
 * Runs one transcription or translation request through the cache (see `cachedChatCompletion`: same
 * settings, same outcome). The file is read once and sent upstream as a File with the same name and type,
 * so a stream (an `fs.ReadStream`) works too.
 */
export async function cachedAudio(
  endpoint: AudioEndpoint,
  cache: Cache | undefined,
  body: CachedAudioBody,
  settings: UpstreamSettings<AudioParams, AudioResult>,
): Promise<CachedCall<Marked<AudioResult> | null>> {
  const split = splitBody<Record<string, unknown>, AudioResult>(body, cache, asRecords(settings), true);
  const sent = split.upstream;
  if (sent.stream === true) return passThrough(split.options, () => split.call(sent));
  let bytes: Uint8Array;
  try {
    bytes = await getFileBytes(sent);
  } catch (error) {
    // Not a file the cache can read (or none): the provider says what is wrong with it.
    if (ValidationError.isInstance(error)) return passThrough(split.options, () => split.call(sent));
    throw error;
  }
  const type = (sent.file as { type?: unknown } | null)?.type;
  const upload = { ...sent, file: new File([Buffer.from(bytes)], fileName(sent.file), { type: typeof type === "string" ? type : "" }) };
  const digest = keyText(bytes);
  const format = typeof sent.response_format === "string" ? sent.response_format : "json";
  return runValue<Marked<AudioResult>>(
    upload,
    split.options,
    {
      name: `openai.audio.${endpoint}`,
      key: () => digest,
      partition: settingsPartition(`audio.${endpoint}:${digest}`, sent, NEUTRAL),
      answerOf: (result) => audioAnswer(result, format),
      fromCache: (hit) => audioFromHit(hit, format),
    },
    () => split.call(upload),
  );
}
