/**
 * The keyed digest of the credential a proxied call carries, which partitions the proxy's cached answers
 * (`proxy_cache_scope: credential`), and the secret it is keyed with.
 */
import { createHmac, randomBytes } from "node:crypto";
import { closeSync, fsyncSync, linkSync, openSync, readFileSync, statSync, unlinkSync, writeSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { ValidationError } from "../core/errors.js";
import type { RecordStore } from "../core/contracts/scalar-store.js";
import { MIN_CREDENTIAL_SECRET } from "./server-config.js";
import type { UpstreamCall } from "./upstream.js";

/** The request field carrying a credential's digest into the entry's partition; never sent upstream. */
export const CREDENTIAL_KEY = "semcache_credential";

/** The credential secret's file, next to a file-backed store, when none is configured. */
export const CREDENTIAL_SECRET_FILE = "semcache_credential.secret";

/** Binds digests to this use, so the secret keys nothing else. */
const DIGEST_CONTEXT = "semcache proxy credential v1\u0000";

/**
 * Digests what the upstream authenticates a call by: the bearer key sent (or its absence) and the
 * forwarded headers that pick the account (OpenAI-Organization, OpenAI-Project). HMAC-SHA256 under a
 * per-server secret: neither the key nor a plain hash of it (which anyone holding a key could recompute)
 * is kept, and without the secret a digest cannot be checked against a guessed key. The digest only ever
 * enters a partition hash; it is neither stored nor logged.
 */
export class CredentialDigester {
  readonly #secret: string;

  constructor(secret: string) {
    this.#secret = secret;
  }

  digest(call: Pick<UpstreamCall, "apiKey" | "headers">): string {
    const headers = Object.entries(call.headers ?? {})
      .map(([name, value]) => [name.toLowerCase(), value])
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return createHmac("sha256", this.#secret)
      .update(DIGEST_CONTEXT)
      .update(JSON.stringify([call.apiKey ?? null, headers]))
      .digest("base64url");
  }
}

/** Where the credential secret came from. */
export type CredentialSecretOrigin = "configured" | "file" | "process";

export interface CredentialSecret {
  secret: string;
  origin: CredentialSecretOrigin;
  /** The file holding it (origin "file"). */
  file?: string;
}

interface SecretLog {
  warn(message: string): void;
}

/** What the server reads about the scalar store (DataManager.storeInfo()). */
export type StoreInfo = Pick<RecordStore, "kind" | "capabilities"> & { path?: string };

/** The folder of a file-backed store that only this process writes (SQLite, a memory store with a path). */
export function storeFolder(scalar: StoreInfo): string | undefined {
  const path = scalar.path;
  if (!scalar.capabilities.persistent || scalar.capabilities.shared) return undefined;
  if (typeof path !== "string" || path === "" || path === ":memory:" || path.startsWith("file:")) return undefined;
  return dirname(resolve(path));
}

function readSecretFile(file: string, log: SecretLog): string {
  const secret = readFileSync(file, "utf8").trim();
  if (secret.length < MIN_CREDENTIAL_SECRET) {
    throw new ValidationError(
      `The credential secret file ${file} holds no usable secret (at least ${MIN_CREDENTIAL_SECRET} characters). ` +
        "Delete it to have a new one made (the proxy's cached answers stored under the old one are then never served), or set server.credential_secret_env.",
    );
  }
  if (process.platform !== "win32" && (statSync(file).mode & 0o077) !== 0) {
    log.warn(`The credential secret file ${file} can be read by other users: chmod 600 it.`);
  }
  return secret;
}

/** Writes a new random secret to `file` (0600), unless another process made it first; returns the file's secret. */
function createSecretFile(file: string, log: SecretLog): string {
  const temp = `${file}.${process.pid}.${randomBytes(6).toString("hex")}.tmp`;
  const fd = openSync(temp, "wx", 0o600);
  try {
    writeSync(fd, `${randomBytes(32).toString("base64url")}\n`);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  try {
    // A link never replaces an existing file: of two processes starting at once, one secret wins.
    linkSync(temp, file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
  } finally {
    unlinkSync(temp);
  }
  return readSecretFile(file, log);
}

/**
 * The secret credential digests are keyed with: the configured one (`server.credential_secret` /
 * `credential_secret_env`); else a random one kept in `semcache_credential.secret` (0600) next to a
 * file-backed store, so hits survive a restart on the same data dir; else (an in-memory store, or a shared
 * one whose replicas would each make their own) a random one for this process only, with a warning where
 * the store outlives it: credential-scoped entries are then misses after a restart, never wrong answers.
 */
export function credentialSecret(configured: string | undefined, scalar: StoreInfo, log: SecretLog): CredentialSecret {
  if (configured !== undefined) return { secret: configured, origin: "configured" };
  const folder = storeFolder(scalar);
  if (folder !== undefined) {
    const file = join(folder, CREDENTIAL_SECRET_FILE);
    try {
      return { secret: readSecretFile(file, log), origin: "file", file };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
    }
    return { secret: createSecretFile(file, log), origin: "file", file };
  }
  if (scalar.capabilities.persistent) {
    log.warn(
      `The ${scalar.kind} store outlives this process, but no server.credential_secret is set: the proxy's answers cached per ` +
        "credential are keyed with a secret of this process only, so after a restart (or on another replica) they are misses. " +
        "Give every replica the same server.credential_secret_env.",
    );
  }
  return { secret: randomBytes(32).toString("base64url"), origin: "process" };
}
