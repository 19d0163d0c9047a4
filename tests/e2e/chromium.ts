/**
 * Debian's Chromium driven by playwright-core, for tests of the pages the server serves. The machines these
 * tests run on have no network: the flags keep Chromium from reaching for it (it would hang on connections).
 * Without /usr/bin/chromium (.ci/run installs it) the tests skip with a printed reason.
 */
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { BrowserContext } from "playwright-core";

export const CHROMIUM = process.env.SEMCACHE_TEST_CHROMIUM ?? "/usr/bin/chromium";

const FLAGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];

/**
 * Whether Chromium is here; when it is not, prints why the file's tests are skipped and registers one skipped
 * test naming it, so the file still reports something.
 */
export function chromiumAvailable(): boolean {
  if (existsSync(CHROMIUM)) return true;
  process.stderr.write(`[skip] browser tests: no Chromium at ${CHROMIUM} (.ci/run installs Debian's chromium; or set SEMCACHE_TEST_CHROMIUM)\n`);
  it.skip(`browser tests need Chromium at ${CHROMIUM}`, () => undefined);
  return false;
}

/** A fresh browser profile (its own storage), closed and deleted by `close()`. */
export async function openBrowser(viewport = { width: 1200, height: 900 }): Promise<{ context: BrowserContext; close(): Promise<void> }> {
  const { chromium } = await import("playwright-core");
  const profile = mkdtempSync(join(tmpdir(), "semcache-chromium-"));
  const context = await chromium.launchPersistentContext(profile, { executablePath: CHROMIUM, headless: true, args: FLAGS, viewport });
  return {
    context,
    async close() {
      await context.close();
      rmSync(profile, { recursive: true, force: true });
    },
  };
}
