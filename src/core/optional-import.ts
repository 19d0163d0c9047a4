/** Lazy loading of optional packages, with errors that say what to install or build. */
import { createRequire } from "node:module";
import { MissingDependencyError } from "./errors.js";
import { installedVersionOf } from "./installed-version.js";
import { OPTIONAL_PACKAGES } from "./optional-packages.js";
import { satisfiesRange } from "./version-range.js";

/** The package a module specifier belongs to ("@scope/name/sub" -> "@scope/name"). */
export function packageOf(specifier: string): string {
  const parts = specifier.split("/");
  return specifier.startsWith("@") ? parts.slice(0, 2).join("/") : parts[0];
}

/** A native addon that failed to load because its build step never ran (npm's allowScripts, pnpm's approve-builds). */
function isMissingBinding(error: unknown): boolean {
  // "bindings" says the first; node-gyp-build (usearch) the "No native build" forms.
  return /Could not locate the bindings file|Cannot find module '[^']*\.node'|NODE_MODULE_VERSION|No native build was found|Could not find native build/.test(
    String((error as Error)?.message),
  );
}

/**
 * A native package's load or first use failed: a MissingDependencyError saying how to build it when its binding
 * is missing, else the error itself.
 */
export function nativeLoadError(error: unknown, packageName: string, feature: string): unknown {
  return isMissingBinding(error) ? new MissingDependencyError(packageName, feature, { reason: "binding", cause: error }) : error;
}

/**
 * Loads an optional dependency, turning "not installed" into a MissingDependencyError that names the package
 * really missing (the one asked for, or a package it imports in turn), "installed at a version outside
 * OPTIONAL_PACKAGES' range" into one that names the range, and a native module never built into one that says
 * how to build it.
 */
export async function importOptional<T>(specifier: string, feature: string): Promise<T> {
  let module: T;
  try {
    module = (await import(specifier)) as T;
  } catch (error) {
    throw loadError(error, specifier, feature);
  }
  return checkedVersion(module, specifier, feature);
}

/**
 * importOptional for a package whose CommonJS build is the one to load (usearch 2.x: its ES module build looks
 * for its native build from the caller's stack, which under `node -e` never ends).
 */
export function requireOptional<T>(specifier: string, feature: string): T {
  let module: T;
  try {
    module = createRequire(import.meta.url)(specifier) as T;
  } catch (error) {
    throw loadError(error, specifier, feature);
  }
  return checkedVersion(module, specifier, feature);
}

/** What a failed load means: the package (or one it imports) is not installed, or its native build is missing. */
function loadError(error: unknown, specifier: string, feature: string): unknown {
  const packageName = packageOf(specifier);
  const code = (error as { code?: string }).code;
  if (code !== "ERR_MODULE_NOT_FOUND" && code !== "MODULE_NOT_FOUND") return nativeLoadError(error, packageName, feature);
  const missing = /Cannot find (?:package|module) '([^']+)'/.exec(String((error as Error).message))?.[1];
  const isPackageName = missing !== undefined && !/^(?:[./]|file:|[A-Za-z]:\\)/.test(missing);
  const missingPackage = isPackageName ? packageOf(missing) : packageName;
  return new MissingDependencyError(missingPackage, feature, { range: OPTIONAL_PACKAGES[missingPackage], cause: error });
}

/** The module, unless its package is installed at a version outside OPTIONAL_PACKAGES' range. */
function checkedVersion<T>(module: T, specifier: string, feature: string): T {
  const packageName = packageOf(specifier);
  const range = OPTIONAL_PACKAGES[packageName];
  const installedVersion = range === undefined ? undefined : installedVersionOf(packageName);
  if (range !== undefined && installedVersion !== undefined && !satisfiesRange(installedVersion, range)) {
    throw new MissingDependencyError(packageName, feature, { reason: "version", range, installedVersion });
  }
  return module;
}
