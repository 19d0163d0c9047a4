/**
 * Reading a database kind's vectorParams: connection settings from params or the environment, names checked
 * before they reach a query, and URLs shown without their secrets.
 */
import { ValidationError } from "../../../core/errors.js";
import { isIntegerAtLeast } from "../../../core/validation.js";
import { redactUrl, resolveTimeoutMs } from "../../connection.js";

export { redactUrl };

/** vectorParams as the factory passes them (options of every kind side by side). */
export type DatabaseParams = Readonly<Record<string, unknown>>;

/** Reads one kind's options, each error naming the kind and the option. */
export class DatabaseOptions {
  constructor(
    readonly kind: string,
    private readonly params: DatabaseParams,
  ) {}

  private fail(name: string, expected: string, value: unknown): never {
    throw new ValidationError(`The "${this.kind}" vector store: vectorParams.${name} must be ${expected}, got ${JSON.stringify(value)}`);
  }

  string(name: string): string | undefined;
  string(name: string, fallback: string): string;
  string(name: string, fallback?: string): string | undefined {
    const value = this.params[name];
    if (value === undefined) return fallback;
    if (typeof value !== "string" || value === "") this.fail(name, "a non-empty string", value);
    return value;
  }

  integer(name: string, fallback: number, min = 1): number {
    const value = this.params[name];
    if (value === undefined) return fallback;
    if (!isIntegerAtLeast(value, min)) this.fail(name, `an integer >= ${min}`, value);
    return value;
  }

  boolean(name: string, fallback: boolean): boolean {
    const value = this.params[name];
    if (value === undefined) return fallback;
    if (typeof value !== "boolean") this.fail(name, "true or false", value);
    return value;
  }

  /** The index's deadline per call (DatabaseVectorIndex applies it), for the client's own timeout too. */
  timeoutMs(): number {
    return resolveTimeoutMs(this.kind, this.params.timeoutMs);
  }

  /** A user's own client object (checked by a method it must have), or undefined. */
  instance<T>(name: string, method: string): T | undefined {
    const value = this.params[name];
    if (value === undefined) return undefined;
    if (typeof (value as Record<string, unknown> | null)?.[method] !== "function") this.fail(name, `an object with a ${method}() method`, typeof value);
    return value as T;
  }

  /** A name used inside queries or URLs (table, collection, index, class): checked against `pattern`. */
  name(option: string, fallback: string, pattern = /^[A-Za-z_][A-Za-z0-9_]{0,62}$/): string {
    const value = this.string(option, fallback);
    if (!pattern.test(value)) this.fail(option, `a name matching ${pattern}`, value);
    return value;
  }

  /** The first setting found: vectorParams[option], then each environment variable in turn. */
  fromEnv(option: string, variables: readonly string[]): string | undefined {
    const given = this.string(option);
    if (given !== undefined) return given;
    for (const variable of variables) {
      const value = process.env[variable];
      if (value) return value;
    }
    return undefined;
  }

  /** Like fromEnv, but a missing URL is an error saying where to put it. */
  url(option: string, variables: readonly string[]): string {
    const url = this.fromEnv(option, variables);
    if (url === undefined) {
      throw new ValidationError(
        `The "${this.kind}" vector store needs a server URL: pass vectorParams.${option} or set ${variables.join(" or ")}.`,
      );
    }
    try {
      new URL(url);
    } catch {
      this.fail(option, "a URL", redactUrl(url));
    }
    return url;
  }
}

/** Host, port and TLS of an http(s) URL (clients that take them apart). */
export function hostOf(url: string, defaultPort: number): { host: string; port: number; secure: boolean; path: string } {
  const parsed = new URL(url);
  const secure = parsed.protocol === "https:";
  const port = parsed.port ? Number(parsed.port) : secure && defaultPort === 80 ? 443 : defaultPort;
  return { host: parsed.hostname, port, secure, path: parsed.pathname.replace(/\/$/, "") };
}

/** The client a driver opened: get() fails clearly before open() or after close(); take() hands it over to close. */
export class Held<T> {
  private value?: T;

  set(value: T): T {
    this.value = value;
    return value;
  }

  get(): T {
    if (this.value === undefined) throw new Error("not connected");
    return this.value;
  }

  take(): T | undefined {
    const value = this.value;
    this.value = undefined;
    return value;
  }
}
