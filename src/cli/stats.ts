import { parseArgs } from "node:util";
import { ValidationError } from "../core/errors.js";
import { isPositiveInteger, isPositiveNumber } from "../core/validation.js";
import { STAGES } from "../core/report.js";
import type { CacheStats } from "../server/cache-service.js";
import { isWholeCacheStats, type NamespaceStatsView } from "../server/client.js";
import { WINDOW_NAMES, type WindowName } from "../server/dashboard/dashboard-view.js";
import { openTarget, TARGET_OPTIONS, TARGET_USAGE } from "./cache-target.js";
import { watchStats } from "./stats-watch.js";
import type { TuneIo } from "./tune.js";

export const STATS_USAGE = `Usage: semcache stats [options]

Prints the cache's figures: live entries, hits recorded in the store, and (from a running server, --url)
its requests, hits, misses, hit rate and the average time of each stage.

Options:
  --json             print the figures as JSON
  --watch            with --url: the dashboard's headline figures (requests, hit rate, tokens and cost
                     saved, latency percentiles, the error budget), redrawn in place until Ctrl-C
  --window W         the window --watch reads: 15m, 1h (default), 24h or 7d
  --interval S       seconds between redraws (default 2)
  --count N          stop after N redraws
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

/** The --watch options, checked; undefined without --watch (its options are then refused). */
function watchOptions(values: { watch?: boolean; url?: string; json?: boolean; window?: string; interval?: string; count?: string }) {
  if (!values.watch) {
    const stray = (["window", "interval", "count"] as const).find((name) => values[name] !== undefined);
    if (stray) throw new ValidationError(`--${stray} is for --watch.`);
    return undefined;
  }
  if (values.url === undefined) throw new ValidationError("--watch reads a running server's figures over time: give --url.");
  if (values.json) throw new ValidationError("--watch and --json do not go together: /dashboard/data is the JSON.");
  const window = (values.window ?? "1h") as WindowName;
  if (!WINDOW_NAMES.includes(window)) throw new ValidationError(`--window must be one of ${WINDOW_NAMES.join(", ")}, got "${values.window}".`);
  const intervalSeconds = values.interval === undefined ? 2 : Number(values.interval);
  if (!isPositiveNumber(intervalSeconds)) throw new ValidationError(`--interval must be a number of seconds above 0, got "${values.interval}".`);
  const count = values.count === undefined ? undefined : Number(values.count);
  if (count !== undefined && !isPositiveInteger(count)) throw new ValidationError(`--count must be a whole number above 0, got "${values.count}".`);
  return { window, intervalMs: intervalSeconds * 1000, count };
}

export async function statsCommand(argv: string[], io: TuneIo): Promise<void> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      ...TARGET_OPTIONS,
      json: { type: "boolean", default: false },
      watch: { type: "boolean", default: false },
      window: { type: "string" },
      interval: { type: "string" },
      count: { type: "string" },
    },
  });
  if (values.help) return io.out(STATS_USAGE);
  if (positionals.length > 0) throw new ValidationError(`stats takes no arguments, got "${positionals.join(" ")}".`);
  const watch = watchOptions(values);
  const target = await openTarget(values);
  if (watch) {
    try {
      return await watchStats(target.client, { ...watch, inPlace: process.stdout.isTTY === true, out: io.out });
    } finally {
      await target.close();
    }
  }
  try {
    const stats = await target.client.stats();
    io.out(values.json ? `${JSON.stringify(stats, null, 2)}\n` : describe(stats, values.url !== undefined));
  } finally {
    await target.close();
  }
}
