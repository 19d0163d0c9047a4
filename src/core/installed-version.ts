import { existsSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";

const moduleRequire = createRequire(import.meta.url);

/**
 * The version of the copy of a package that a bare import from this package resolves to, read from its
 * package.json in the node_modules folders Node searches (a package's `exports` may hide its package.json from
 * `require.resolve`). Undefined when none is found.
 */
export function installedVersionOf(packageName: string): string | undefined {
  for (const folder of moduleRequire.resolve.paths(packageName) ?? []) {
    const manifest = join(folder, packageName, "package.json");
    if (!existsSync(manifest)) continue;
    try {
      const { version } = JSON.parse(readFileSync(manifest, "utf8")) as { version?: unknown };
      return typeof version === "string" ? version : undefined;
    } catch {
      return undefined;
    }
  }
  return undefined;
}
