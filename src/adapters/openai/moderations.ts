/** Moderations through the cache: the input is the key; a hit returns the stored results. */
import type { ModerationCreateParams, ModerationCreateResponse } from "openai/resources/moderations";
import type { Cache } from "../../presets/cache.js";
import { getModerationInput } from "../../processors/pre.js";
import { hitMarker, responseId } from "./marker.js";
import { asRecords, settingsPartition, splitBody } from "./options.js";
import { runValue } from "./run.js";
import type { CacheBodyOptions, CachedCall, Marked, UpstreamSettings } from "./types.js";

/** A moderation body with the cache's options. */
export type CachedModerationBody = ModerationCreateParams & CacheBodyOptions<ModerationCreateParams, ModerationCreateResponse>;

const NEUTRAL = new Set(["input"]);

/** Runs one moderation request through the cache (see `cachedChatCompletion`: same settings, same outcome). */
export async function cachedModeration(
  cache: Cache | undefined,
  body: CachedModerationBody,
  settings: UpstreamSettings<ModerationCreateParams, ModerationCreateResponse>,
): Promise<CachedCall<Marked<ModerationCreateResponse> | null>> {
  const split = splitBody<Record<string, unknown>, ModerationCreateResponse>(body, cache, asRecords(settings), false);
  const sent = split.upstream;
  return runValue<Marked<ModerationCreateResponse>>(
    sent,
    split.options,
    {
      name: "openai.moderations",
      key: getModerationInput,
      partition: settingsPartition("moderations", sent, NEUTRAL),
      answerOf: (result) =>
        Array.isArray(result?.results) ? { answer: JSON.stringify({ model: result.model, results: result.results }), answerType: "object" } : null,
      fromCache: (hit) => {
        const stored = JSON.parse(hit.answer) as Pick<ModerationCreateResponse, "model" | "results">;
        return { id: responseId("modr"), model: stored.model, results: stored.results, semcache: hitMarker(hit) };
      },
    },
    () => split.call(sent),
  );
}
