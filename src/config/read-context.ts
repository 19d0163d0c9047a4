/**
 * What reading a config's components may consult (the environment, which optional packages are installed) and
 * where it says what a GPTCache name became here. Checked while the file is read, so a config that cannot
 * start fails before any model loads.
 */
import { existsSync } from "node:fs";
import { MissingDependencyError, ValidationError } from "../core/errors.js";
import { installedVersionOf } from "../core/installed-version.js";
import { OPTIONAL_PACKAGES } from "../core/optional-packages.js";

export interface ReadContext {
  /** Where API keys and URLs named by the config are looked up. */
  env: NodeJS.ProcessEnv;
  /** Whether an optional package can be loaded from here. */
  installed: (packageName: string) => boolean;
  /** Startup lines, one per GPTCache name mapped to something else here (the serve command prints them). */
  notes: string[];
}

/** True when Node resolves the package from this one. */
export function isInstalled(packageName: string): boolean {
  return installedVersionOf(packageName) !== undefined;
}

/** Refuses, naming the first one missing, when `feature` needs packages that are not installed. */
export function requirePackages(context: ReadContext, feature: string, packages: readonly string[]): void {
  const missing = packages.find((name) => !context.installed(name));
  if (missing !== undefined) throw new MissingDependencyError(missing, feature, { range: OPTIONAL_PACKAGES[missing] });
}

/** Refuses a model file that is not there, naming the file and the key that points at it. */
export function requireFile(path: string, key: string): void {
  if (!existsSync(path)) throw new ValidationError(`${key}: ${path} does not exist.`);
}

/** An absolute path, or one starting with ./ or ../ (a folder of files rather than a hub model name). */
export function isPathLike(value: string): boolean {
  return /^(?:\/|\.\.?[/\\]|[A-Za-z]:[/\\])/.test(value);
}

/** The options that are set: an explicit undefined would override a class's own default. */
export function defined<T extends object>(options: T): T {
  return Object.fromEntries(Object.entries(options).filter(([, value]) => value !== undefined)) as T;
}
