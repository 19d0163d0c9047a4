import { readFileSync } from "node:fs";

const PACKAGE_NAME = "langchain-semcache";

/**
 * This package's version, from its package.json: the nearest one up from this file that carries the package's
 * name (the ES build sits two folders below it, the CommonJS build three, beside a package.json of its own).
 */
export function packageVersion(): string {
  for (let levels = 1; levels <= 4; levels++) {
    try {
      const manifest = JSON.parse(readFileSync(new URL(`${"../".repeat(levels)}package.json`, import.meta.url), "utf8")) as { name?: string; version?: string };
      if (manifest.name === PACKAGE_NAME && typeof manifest.version === "string") return manifest.version;
    } catch {
      // No package.json at this level: look further up.
    }
  }
  return "unknown";
}
