import { parseArgs } from "node:util";
import { ValidationError } from "../core/errors.js";
import { STAGES } from "../core/report.js";
import type { CacheStats } from "../server/cache-service.js";
import { isWholeCacheStats, type NamespaceStatsView } from "../server/client.js";
import { openTarget, TARGET_OPTIONS, TARGET_USAGE } from "./cache-target.js";
import type { TuneIo } from "./tune.js";

export const STATS_USAGE = `Usage: semcache stats [options]

Prints the cache's figures: live entries, hits recorded in the store, and (from a running server, --url)
its requests, hits, misses, hit rate and the average time of each stage.

Options:
  --json             print the figures as JSON
${TARGET_USAGE}`;

/** A tenant's view: its namespace's lookups (a key that works in one namespace sees no store-wide figure). */
function describeNamespace(stats: NamespaceStatsView): string {
  const { requests, hits, misses, skips } = stats.cache;
  const lines = [
    `namespace       ${stats.namespace || "(the shared default)"}`,
    `requests        ${requests.toLocaleString("en")}`,
    `hits            ${hits.toLocaleString("en")}${requests > 0 ? ` (${((100 * hits) / requests).toFixed(1)}%)` : ""}`,
    `misses          ${misses.toLocaleString("en")}`,
    `skips           ${skips.toLocaleString("en")}`,
  ];
  return `${lines.join("\n")}\n`;
}

function describe(stats: CacheStats | NamespaceStatsView, fromServer: boolean): string {
  if (!isWholeCacheStats(stats)) return describeNamespace(stats);
  const lines = [`entries         ${stats.entries.toLocaleString("en")}`, `recorded hits   ${stats.recordedHits.toLocaleString("en")}`];
  if (!fromServer) return `${lines.join("\n")}\n`;
  const { requests, hits, misses, skips, errors, savedTokens } = stats.cache;
  lines.push(
    `requests        ${requests.toLocaleString("en")}`,
    `hits            ${hits.toLocaleString("en")}${requests > 0 ? ` (${((100 * hits) / requests).toFixed(1)}%)` : ""}`,
    `misses          ${misses.toLocaleString("en")}`,
    `skips           ${skips.toLocaleString("en")}`,
    `errors          ${errors.toLocaleString("en")}`,
    `saved tokens    ${savedTokens.toLocaleString("en")}`,
    "",
    "stage        calls   average ms",
  );
  const stages = stats.cache.stages as Record<string, { count: number; averageMs: number }>;
  for (const stage of STAGES) {
    const timing = stages[stage];
    if (timing && timing.count > 0) lines.push(`${stage.padEnd(10)} ${String(timing.count).padStart(7)}   ${timing.averageMs.toFixed(3).padStart(10)}`);
  }
  return `${lines.join("\n")}\n`;
}

export async function statsCommand(argv: string[], io: TuneIo): Promise<void> {
  const { values, positionals } = parseArgs({ args: argv, allowPositionals: true, options: { ...TARGET_OPTIONS, json: { type: "boolean", default: false } } });
  if (values.help) return io.out(STATS_USAGE);
  if (positionals.length > 0) throw new ValidationError(`stats takes no arguments, got "${positionals.join(" ")}".`);
  const target = await openTarget(values);
  try {
    const stats = await target.client.stats();
    io.out(values.json ? `${JSON.stringify(stats, null, 2)}\n` : describe(stats, values.url !== undefined));
  } finally {
    await target.close();
  }
}
