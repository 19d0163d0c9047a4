/**
 * The `server` section of the YAML config (and buildServer's settings): listen address, API keys and their
 * namespaces, the proxy's upstream and who shares its cached answers, and limits. `readServerSection` checks
 * the YAML form (unknown keys and wrong types name their path); `resolveServerSettings` fills defaults and
 * reads keys from the environment.
 */
import type { Section } from "../config/section.js";
import { ValidationError } from "../core/errors.js";
import { positiveInteger } from "../core/validation.js";
import { checkPrices, readPrices, type ModelPrice } from "./dashboard/prices.js";

/** One API key: its value (or the environment variable holding it), its namespace, and whether it is an admin key. */
export interface ApiKeyOptions {
  key?: string;
  /** Name of an environment variable holding the key (read when the server starts). */
  keyEnv?: string;
  /** The key only reads and writes this namespace's entries. */
  namespace?: string;
  /** May clear and export, and put/import/flush when `adminOnly` is set. Default false (true for a plain string key). */
  admin?: boolean;
}

export interface UpstreamOptions {
  /** Base URL of the OpenAI-compatible API the proxy calls. Default $OPENAI_BASE_URL, else https://api.openai.com/v1. */
  baseURL?: string;
  /** Key sent upstream, replacing the caller's. */
  apiKey?: string;
  /** Environment variable holding the key sent upstream (replacing the caller's). */
  apiKeyEnv?: string;
  /** Milliseconds to wait for the upstream's answer (headers). Default 600000. */
  timeoutMs?: number;
}

/**
 * Who shares the proxy's cached answers when no server API key guards it (with API keys, the namespace does).
 * `credential`: each upstream credential (the bearer key sent upstream, with OpenAI-Organization and
 * OpenAI-Project) has its own entries, keyed by an HMAC of it, so a caller only ever gets answers its own
 * credential was given. `shared`: every caller of the namespace shares them, whatever key it sends.
 */
export type ProxyCacheScope = "credential" | "shared";

export const PROXY_CACHE_SCOPES: readonly ProxyCacheScope[] = ["credential", "shared"];

/** Shortest `credential_secret` accepted (an HMAC key; a random one is 43 characters). */
export const MIN_CREDENTIAL_SECRET = 16;

export interface LimitsOptions {
  /** Largest request body in bytes. Default 1 MiB. */
  bodyLimit?: number;
  /** Milliseconds a client has to send a whole request. Default 30000. */
  requestTimeoutMs?: number;
  /** Milliseconds an idle keep-alive connection stays open. Default 72000. */
  keepAliveTimeoutMs?: number;
}

/** The `server` section (camelCase); every field optional. */
export interface ServerSection {
  host?: string;
  port?: number;
  /** Keys callers must send as `Authorization: Bearer KEY`. A plain string is an admin key with no namespace. */
  apiKeys?: Array<string | ApiKeyOptions>;
  /** put, PUT /, import and flush need an admin key. Default false (clear and export always do). */
  adminOnly?: boolean;
  /** Listen on a non-loopback address with no API keys. Default false: refused. */
  allowUnauthenticated?: boolean;
  /** Namespaces callers may pick with `x-semcache-namespace`; any valid name when unset. */
  namespaces?: string[];
  upstream?: UpstreamOptions;
  /** Who shares the proxy's cached answers when no API key is configured. Default "credential". */
  proxyCacheScope?: ProxyCacheScope;
  /**
   * The proxy's default for a body's `share_across_contexts`: reuse chat answers stored after other system
   * messages or earlier turns. Default false (the context partitions answers); a body's own field wins.
   */
  proxyShareAcrossContexts?: boolean;
  /**
   * The HMAC key that digests upstream credentials (proxy_cache_scope: credential), at least 16 characters.
   * Default: a random one kept in a file next to an SQLite (or file-backed memory) store, created 0600.
   * Replicas over one shared store need the same one.
   */
  credentialSecret?: string;
  /** Environment variable holding `credentialSecret`. */
  credentialSecretEnv?: string;
  limits?: LimitsOptions;
  /**
   * Price per 1,000 input and output tokens by model name (`default`: lookups naming no model, and models not
   * listed), for the dashboard's estimated cost saved.
   */
  prices?: Record<string, ModelPrice>;
}

export interface ApiKey {
  namespace?: string;
  admin: boolean;
}

/** The server's settings, checked and with defaults. */
export interface ServerSettings {
  host: string;
  port: number;
  /** Known keys (empty: no authentication). */
  keys: ReadonlyMap<string, ApiKey>;
  adminOnly: boolean;
  allowUnauthenticated: boolean;
  namespaces?: ReadonlySet<string>;
  upstream: { baseURL: string; apiKey?: string; replacesCallerKey: boolean; timeoutMs: number };
  /** The proxy's cache scope, and the configured credential secret (undefined: the file, or one per process). */
  proxy: { cacheScope: ProxyCacheScope; credentialSecret?: string; shareAcrossContexts: boolean };
  limits: Required<LimitsOptions>;
  /** The price table (empty: costs are not priced). */
  prices: Record<string, ModelPrice>;
}

export const DEFAULT_HOST = "127.0.0.1";
export const DEFAULT_PORT = 8000;
export const DEFAULT_BODY_LIMIT = 1024 * 1024;
const NAMESPACE = /^[\w.:-]{1,128}$/;

/** A namespace name: letters, digits, `_ . : -`, at most 128 characters. */
export function isNamespaceName(value: unknown): value is string {
  return typeof value === "string" && NAMESPACE.test(value);
}

function fail(path: string, what: string): never {
  throw new ValidationError(`${path} must be ${what}`);
}

function readKey(item: string | Section, path: string): string | ApiKeyOptions {
  if (typeof item === "string") return item.length > 0 ? item : fail(path, "a non-empty string");
  const key: ApiKeyOptions = {
    key: item.string("key"),
    keyEnv: item.string("key_env"),
    namespace: item.string("namespace"),
    admin: item.boolean("admin"),
  };
  item.done();
  return key;
}

/** Reads the YAML `server` section (snake_case keys), refusing unknown keys and wrong types with their path. */
export function readServerSection(section: Section): ServerSection {
  const path = section.path;
  const port = section.nonNegativeInteger("port");
  if (port !== undefined && port > 65535) fail(`${path}.port`, "a port number (0 to 65535)");
  const upstreamSection = section.section("upstream");
  const upstream = upstreamSection && {
    baseURL: upstreamSection.string("base_url"),
    apiKey: upstreamSection.string("api_key"),
    apiKeyEnv: upstreamSection.string("api_key_env"),
    timeoutMs: upstreamSection.positiveInteger("timeout_ms"),
  };
  upstreamSection?.done();
  const limitsSection = section.section("limits");
  const limits = limitsSection && {
    bodyLimit: limitsSection.positiveInteger("body_limit"),
    requestTimeoutMs: limitsSection.positiveInteger("request_timeout_ms"),
    keepAliveTimeoutMs: limitsSection.positiveInteger("keep_alive_timeout_ms"),
  };
  limitsSection?.done();
  const options: ServerSection = {
    host: section.string("host"),
    port,
    apiKeys: section.list("api_keys")?.map((item, i) => readKey(item, `${path}.api_keys[${i}]`)),
    adminOnly: section.boolean("admin_only"),
    allowUnauthenticated: section.boolean("allow_unauthenticated"),
    namespaces: section.stringList("namespaces"),
    upstream,
    proxyCacheScope: section.string("proxy_cache_scope", PROXY_CACHE_SCOPES) as ProxyCacheScope | undefined,
    proxyShareAcrossContexts: section.boolean("proxy_share_across_contexts"),
    credentialSecret: section.string("credential_secret"),
    credentialSecretEnv: section.string("credential_secret_env"),
    limits,
    prices: readPrices(section.mapping("prices"), `${path}.prices`),
  };
  section.done();
  // Checked here too, so a bad name is refused when the file is loaded, not when the server starts.
  checkSection(options, path);
  return options;
}

/** Checks what the YAML types cannot say (names, exclusive fields); `path` prefixes the messages. */
function checkSection(options: ServerSection, path: string): void {
  options.namespaces?.forEach((name, i) => {
    if (!isNamespaceName(name)) fail(`${path}.namespaces[${i}]`, "a namespace name (letters, digits, _ . : -, at most 128)");
  });
  options.apiKeys?.forEach((key, i) => {
    if (typeof key === "string") return;
    const at = `${path}.api_keys[${i}]`;
    if ((key.key === undefined) === (key.keyEnv === undefined)) fail(at, "a mapping with one of key or key_env");
    if (key.namespace !== undefined && !isNamespaceName(key.namespace)) fail(`${at}.namespace`, "a namespace name (letters, digits, _ . : -, at most 128)");
    if (key.namespace !== undefined && options.namespaces && !options.namespaces.includes(key.namespace)) {
      fail(`${at}.namespace`, `one of server.namespaces (${options.namespaces.join(", ")})`);
    }
  });
  if (options.upstream?.apiKey !== undefined && options.upstream.apiKeyEnv !== undefined) {
    fail(`${path}.upstream`, "a mapping with at most one of api_key and api_key_env");
  }
  if (options.proxyCacheScope !== undefined && !PROXY_CACHE_SCOPES.includes(options.proxyCacheScope)) {
    fail(`${path}.proxy_cache_scope`, `one of: ${PROXY_CACHE_SCOPES.join(", ")}`);
  }
  if (options.proxyShareAcrossContexts !== undefined && typeof options.proxyShareAcrossContexts !== "boolean") {
    fail(`${path}.proxy_share_across_contexts`, "a boolean");
  }
  if (options.credentialSecret !== undefined && options.credentialSecretEnv !== undefined) {
    fail(path, "a mapping with at most one of credential_secret and credential_secret_env");
  }
  if (options.credentialSecret !== undefined) checkSecret(options.credentialSecret, `${path}.credential_secret`);
  checkPrices(options.prices, `${path}.prices`);
}

/** An HMAC key long enough to be one (its value is never part of the message). */
function checkSecret(secret: unknown, path: string): string {
  if (typeof secret !== "string" || secret.trim().length < MIN_CREDENTIAL_SECRET) fail(path, `a secret of at least ${MIN_CREDENTIAL_SECRET} characters`);
  return secret.trim();
}

function envValue(env: NodeJS.ProcessEnv, name: string, path: string): string {
  const value = env[name];
  if (!value) throw new ValidationError(`${path}: the environment variable ${name} is not set.`);
  return value;
}

/**
 * The settings the server runs with: defaults filled in, `key_env` / `api_key_env` read from `env`. Throws a
 * ValidationError naming the field on a bad value or an unset variable.
 */
export function resolveServerSettings(options: ServerSection = {}, env: NodeJS.ProcessEnv = process.env): ServerSettings {
  if (typeof options !== "object" || options === null) throw new ValidationError("server settings must be an object.");
  checkSection(options, "server");
  const keys = new Map<string, ApiKey>();
  (options.apiKeys ?? []).forEach((item, i) => {
    const path = `server.api_keys[${i}]`;
    const entry = typeof item === "string" ? { key: item, admin: true } : item;
    const key = entry.key ?? envValue(env, entry.keyEnv ?? "", `${path}.key_env`);
    if (typeof key !== "string" || key.length === 0) fail(path, "a non-empty key");
    if (keys.has(key)) throw new ValidationError(`${path}: the same key is listed twice.`);
    keys.set(key, { namespace: entry.namespace, admin: entry.admin ?? false });
  });
  const upstream = options.upstream ?? {};
  const configuredKey = upstream.apiKey ?? (upstream.apiKeyEnv === undefined ? undefined : envValue(env, upstream.apiKeyEnv, "server.upstream.api_key_env"));
  const baseURL = upstream.baseURL ?? env.OPENAI_BASE_URL ?? "https://api.openai.com/v1";
  try {
    new URL(baseURL);
  } catch {
    fail("server.upstream.base_url", `a URL, got "${baseURL}"`);
  }
  const credentialSecret =
    options.credentialSecret ??
    (options.credentialSecretEnv === undefined ? undefined : envValue(env, options.credentialSecretEnv, "server.credential_secret_env"));
  const port = options.port ?? DEFAULT_PORT;
  if (!(Number.isInteger(port) && port >= 0 && port <= 65535)) fail("server.port", "a port number (0 to 65535)");
  const limits = options.limits ?? {};
  return {
    host: options.host ?? DEFAULT_HOST,
    port,
    keys,
    adminOnly: options.adminOnly ?? false,
    allowUnauthenticated: options.allowUnauthenticated ?? false,
    namespaces: options.namespaces && new Set(options.namespaces),
    upstream: {
      baseURL: baseURL.replace(/\/+$/, ""),
      apiKey: configuredKey ?? env.OPENAI_API_KEY ?? undefined,
      replacesCallerKey: configuredKey !== undefined,
      timeoutMs: positiveInteger("server.upstream.timeout_ms", upstream.timeoutMs, 600_000),
    },
    proxy: {
      cacheScope: options.proxyCacheScope ?? "credential",
      shareAcrossContexts: options.proxyShareAcrossContexts ?? false,
      credentialSecret: credentialSecret === undefined ? undefined : checkSecret(credentialSecret, options.credentialSecretEnv ? "server.credential_secret_env" : "server.credential_secret"),
    },
    limits: {
      bodyLimit: positiveInteger("server.limits.body_limit", limits.bodyLimit, DEFAULT_BODY_LIMIT),
      requestTimeoutMs: positiveInteger("server.limits.request_timeout_ms", limits.requestTimeoutMs, 30_000),
      keepAliveTimeoutMs: positiveInteger("server.limits.keep_alive_timeout_ms", limits.keepAliveTimeoutMs, 72_000),
    },
    prices: { ...options.prices },
  };
}

/** True for addresses only this machine can reach. */
export function isLoopback(host: string): boolean {
  return host === "localhost" || host === "::1" || host === "[::1]" || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(host);
}
