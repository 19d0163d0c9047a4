/**
 * `semcache stats --watch`: the dashboard's headline figures in the terminal, read from a running server's
 * /dashboard/data and redrawn in place (on a terminal) every few seconds.
 */
import type { CacheClient } from "../server/client.js";
import type { DashboardData, LatencySummary, WindowName } from "../server/dashboard/dashboard-view.js";

/** Moves the cursor home and clears the screen: the next frame replaces the last. */
export const CLEAR_SCREEN = "\u001b[H\u001b[2J";

export interface WatchOptions {
  window: WindowName;
  intervalMs: number;
  /** Frames to draw before returning (default: until the process is stopped). */
  count?: number;
  /** Redraw in place (a terminal); otherwise frames follow each other, separated by a blank line. */
  inPlace: boolean;
  out(text: string): void;
}

const int = (n: number) => Math.round(n).toLocaleString("en");
const ms = (value: number | undefined) => (value === undefined ? "-" : value < 10 ? value.toFixed(2) : value.toFixed(0));
const latency = (summary: LatencySummary) => (summary.count === 0 ? "-" : `${ms(summary.p50Ms)} / ${ms(summary.p90Ms)} / ${ms(summary.p99Ms)} ms`);
const percent = (rate: number) => `${(100 * rate).toFixed(1)}%`;

/** One frame: the figures the dashboard's cards show. */
export function describeDashboard(data: DashboardData): string {
  const { totals } = data;
  const scope = data.namespace === null ? "every namespace" : `namespace ${data.namespace || "(the shared default)"}`;
  const lines = [
    `semcache: ${scope}, last ${data.window.name}, at ${new Date(data.generatedAt).toISOString()}`,
    "",
    `requests        ${int(totals.requests)}`,
    `hit rate        ${totals.requests === 0 ? "-" : percent(totals.hitRate)}`,
    `hits            ${int(totals.hits)}`,
    `misses          ${int(totals.misses)}`,
    `skips           ${int(totals.skips)}`,
    `tokens saved    ${int(totals.savedOutputTokens)} (answers), ${int(totals.savedInputTokens)} (prompts)`,
    `est. cost saved ${data.pricesConfigured ? totals.savedCost.toFixed(4) : "- (set server.prices)"}`,
    `hit latency     ${latency(data.latency.hit)} (p50 / p90 / p99)`,
    `miss latency    ${latency(data.latency.miss)} (p50 / p90 / p99)`,
  ];
  const budget = data.errorBudget as { maxErrorRate: number; withinBudget: boolean; estimate: { rate: number; lower: number; upper: number; samples: number } } | undefined;
  if (budget) {
    const { rate, lower, upper, samples } = budget.estimate;
    lines.push(
      `error budget    false hits ${percent(rate)} [${percent(lower)}, ${percent(upper)}] of ${int(samples)} audited, budget ${percent(budget.maxErrorRate)}` +
        (budget.withinBudget ? " (within)" : ""),
    );
  }
  return `${lines.join("\n")}\n`;
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Draws frames until `count` (or forever); a failed read is shown in the frame and retried at the next tick. */
export async function watchStats(client: CacheClient, options: WatchOptions): Promise<void> {
  for (let frame = 0; options.count === undefined || frame < options.count; frame++) {
    if (frame > 0) await pause(options.intervalMs);
    let text: string;
    try {
      text = describeDashboard(await client.dashboard(options.window));
    } catch (error) {
      text = `semcache: cannot read the server's figures: ${(error as Error).message}\n`;
    }
    options.out(options.inPlace ? `${CLEAR_SCREEN}${text}` : `${frame > 0 ? "\n" : ""}${text}`);
  }
}
