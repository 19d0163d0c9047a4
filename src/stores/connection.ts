/**
 * Connection settings shared by the server-database stores (scalar, vector and object): a URL or host/port fields from scalarParams,
 * else a URL from the environment, and a password-free description of the target for error messages.
 */
import { SemcacheError, StoreError, ValidationError } from "../core/errors.js";
import type { Clock } from "../core/clock.js";
import { isIntegerBetween, positiveInteger } from "../core/validation.js";

/** How a server store finds its database. A URL wins over the fields; with neither, the environment's URL. */
export interface ServerConnectionOptions {
  /** e.g. `postgres://user:pass@host:5432/db`, `mysql://root@127.0.0.1:3306/test`, `redis://127.0.0.1:6379`. */
  url?: string;
  host?: string;
  port?: number;
  user?: string;
  password?: string;
  database?: string;
}

/** Environment variables read when no URL or host is given, first set wins (documented in docs/scaling.md). */
export const ENV_URLS = {
  postgres: ["SEMCACHE_POSTGRES_URL", "DATABASE_URL"],
  mysql: ["SEMCACHE_MYSQL_URL"],
  mariadb: ["SEMCACHE_MARIADB_URL", "SEMCACHE_MYSQL_URL"],
  redis: ["SEMCACHE_REDIS_URL", "REDIS_URL"],
  mongodb: ["SEMCACHE_MONGODB_URL", "MONGODB_URI"],
} as const;

/** URL schemes each kind accepts (DATABASE_URL is only taken when it points at the right database). */
const SCHEMES: Readonly<Record<keyof typeof ENV_URLS, readonly string[]>> = {
  postgres: ["postgres:", "postgresql:"],
  mysql: ["mysql:", "mariadb:"],
  mariadb: ["mysql:", "mariadb:"],
  redis: ["redis:", "rediss:"],
  mongodb: ["mongodb:", "mongodb+srv:"],
};

function scheme(url: string): string | undefined {
  return /^([a-z][a-z0-9+.-]*:)/i.exec(url)?.[1].toLowerCase();
}

/** Checks the option types and returns the URL to use, or undefined to connect with the fields (or defaults). */
export function resolveUrl(kind: keyof typeof ENV_URLS, options: ServerConnectionOptions, env = process.env): string | undefined {
  for (const field of ["url", "host", "user", "password", "database"] as const) {
    const value = options[field];
    if (value !== undefined && typeof value !== "string") throw new ValidationError(`${kind}: ${field} must be a string`);
  }
  if (options.port !== undefined && !isIntegerBetween(options.port, 1, 65535)) {
    throw new ValidationError(`${kind}: port must be an integer from 1 to 65535`);
  }
  if (options.url !== undefined) {
    if (!SCHEMES[kind].includes(scheme(options.url) ?? "")) {
      throw new ValidationError(`${kind}: url must start with ${SCHEMES[kind].map((s) => `${s}//`).join(" or ")}, got "${redactUrl(options.url)}"`);
    }
    return options.url;
  }
  if (options.host !== undefined || options.port !== undefined) return undefined;
  for (const name of ENV_URLS[kind]) {
    const value = env[name];
    if (value && SCHEMES[kind].includes(scheme(value) ?? "")) return value;
  }
  return undefined;
}

/** The URL without its password, for messages and logs. */
export function redactUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = "***";
    return parsed.toString();
  } catch {
    return url.replace(/\/\/([^:/@]*):[^@/]*@/, "//$1:***@");
  }
}

/** Where the store connects, without secrets: the redacted URL, or host:port/database from the fields. */
export function describeTarget(protocol: string, url: string | undefined, options: ServerConnectionOptions, defaultPort: number): string {
  if (url !== undefined) return redactUrl(url);
  const user = options.user ? `${options.user}@` : "";
  const database = options.database ? `/${options.database}` : "";
  return `${protocol}://${user}${options.host ?? "localhost"}:${options.port ?? defaultPort}${database}`;
}

/**
 * Default of every server store's `timeoutMs`: long enough for a busy database's slow statement, short enough
 * that a request waiting on a silent one falls back to the model before its own caller gives up.
 */
export const DEFAULT_STORE_TIMEOUT_MS = 5000;

/** A store's `timeoutMs` option, checked, or DEFAULT_STORE_TIMEOUT_MS. */
export function resolveTimeoutMs(kind: string, value: unknown): number {
  return positiveInteger(`${kind}: timeoutMs`, value, DEFAULT_STORE_TIMEOUT_MS);
}

/**
 * Runs `work` with a deadline: after `timeoutMs` the caller gets a StoreError (the request fails open) while the
 * work is left to finish or fail on its own, and `onExpiry` runs, to drop the connection the work waits on, so a
 * silent socket never goes back to a pool to stall the next call. The deadline is timed on `clock` when given (a
 * test's manual clock), else on a plain timer.
 */
export function withDeadline<T>(
  kind: string,
  what: string,
  timeoutMs: number,
  work: () => Promise<T>,
  onExpiry?: () => void,
  clock?: Pick<Clock, "schedule">,
): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const expire = () => {
      reject(new StoreError(kind, `${what}: no answer within ${timeoutMs} ms (timeoutMs)`));
      onExpiry?.();
    };
    const timer = clock ? undefined : setTimeout(expire, timeoutMs);
    const cancel = clock ? clock.schedule(expire, timeoutMs) : () => clearTimeout(timer);
    work().then(
      (value) => {
        cancel();
        resolve(value);
      },
      (error: unknown) => {
        cancel();
        reject(error);
      },
    );
  });
}

/** A driver error's message, with its code when it has one (ECONNREFUSED, 40P01, ER_LOCK_DEADLOCK). */
export function messageOf(error: unknown): string {
  const { message, code, errors } = (error ?? {}) as { message?: unknown; code?: unknown; errors?: unknown };
  // Node's connect gives an AggregateError without a message when every address of a host refused.
  if ((message === "" || message === undefined) && Array.isArray(errors) && errors.length > 0) {
    return errors.map((inner) => messageOf(inner)).join("; ");
  }
  const text = typeof message === "string" && message !== "" ? message : String(error);
  return typeof code === "string" && !text.includes(code) ? `${text} (${code})` : text;
}

/** A driver fault as the StoreError a server store throws (our own typed errors pass through). */
export function storeFault(kind: string, what: string, error: unknown): SemcacheError {
  return SemcacheError.isInstance(error) ? error : new StoreError(kind, `${what}: ${messageOf(error)}`, { cause: error });
}

/** An async step (connect, create tables) run once and shared by every caller; a failure is forgotten, so the next call retries. */
export class Lazy<T> {
  private promise?: Promise<T>;

  constructor(private readonly step: () => Promise<T>) {}

  get(): Promise<T> {
    this.promise ??= this.step().catch((error: unknown) => {
      this.promise = undefined;
      throw error;
    });
    return this.promise;
  }

  /** True once the step has started, until it fails or is reset. */
  get started(): boolean {
    return this.promise !== undefined;
  }

  /** Forgets the step (after close); returns what it had started, if anything. */
  reset(): Promise<T> | undefined {
    const promise = this.promise;
    this.promise = undefined;
    return promise;
  }
}
