/**
 * The dashboard's series survive a restart where the store allows: next to a file-backed store that only this
 * process writes (SQLite, a memory store with a path), in `semcache_dashboard.json`, saved every minute and when
 * the server closes. A shared store (PostgreSQL, MySQL, Redis) has no such folder: each replica's figures are
 * its own, since it started.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { FastifyInstance } from "fastify";
import { writeFileAtomic } from "../../core/atomic-file.js";
import { storeFolder, type StoreInfo } from "../credential.js";
import type { DashboardStats } from "./dashboard-stats.js";

export const DASHBOARD_FILE = "semcache_dashboard.json";
/** How often the series are saved while the server runs. */
export const SAVE_INTERVAL_MS = 60_000;

/** The snapshot's file for this store, or undefined when the store keeps nothing on this machine's disk. */
export function dashboardFile(scalar: StoreInfo): string | undefined {
  const folder = storeFolder(scalar);
  return folder === undefined ? undefined : join(folder, DASHBOARD_FILE);
}

/**
 * Loads the saved series into `stats` and keeps them saved (every SAVE_INTERVAL_MS, and on close). A file that
 * cannot be read or parsed is logged and left alone: the figures start afresh, the server starts anyway.
 */
export function persistDashboard(app: FastifyInstance, stats: DashboardStats, file: string): void {
  try {
    stats.restore(JSON.parse(readFileSync(file, "utf8")));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ENOENT") app.log.warn({ err: error }, `dashboard: cannot read ${file}; its figures start afresh`);
  }
  let saving: Promise<void> | undefined;
  const save = () => {
    saving ??= writeFileAtomic(file, JSON.stringify(stats.snapshot()))
      .catch((error: unknown) => app.log.warn({ err: error }, `dashboard: cannot save ${file}`))
      .finally(() => (saving = undefined));
    return saving;
  };
  stats.onForget = () => void save();
  const timer = setInterval(() => void save(), SAVE_INTERVAL_MS);
  timer.unref();
  app.addHook("onClose", async () => {
    clearInterval(timer);
    await saving;
    await save();
  });
}
