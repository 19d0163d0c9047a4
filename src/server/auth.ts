/**
 * Who is calling: the bearer key (when keys are configured) and the namespace the request reads and writes.
 * A key bound to a namespace only ever sees that namespace; an admin key bound to none (or any caller when
 * no key is configured) picks one with `x-semcache-namespace`, or uses the shared default (no namespace). A
 * non-admin key bound to none works in the shared default only: were it free to name any namespace, every
 * tenant's entries would be open to it.
 */
import { createHash } from "node:crypto";
import type { FastifyRequest } from "fastify";
import { ValidationError } from "../core/errors.js";
import { HttpProblem } from "./errors.js";
import { isNamespaceName, type ApiKey, type ServerSettings } from "./server-config.js";

/**
 * What a route needs. public: anyone (health, docs). read: any key. write: any key, or an admin key with
 * `admin_only`. global: an admin key and no namespace (the operation spans every namespace).
 */
export type Access = "public" | "read" | "write" | "global";

export interface Caller {
  /** The namespace this request reads and writes; undefined is the shared default. */
  namespace?: string;
  admin: boolean;
  /**
   * True when the caller sent one of the server's API keys (never forwarded upstream). The proxy then
   * shares answers within the namespace; otherwise it may partition them by the upstream credential.
   */
  authenticated: boolean;
}

export const NAMESPACE_HEADER = "x-semcache-namespace";

/** Every caller when no key is configured and no namespace is asked for. */
const ANONYMOUS: Caller = Object.freeze({ namespace: undefined, admin: true, authenticated: false });

/** The token of an `Authorization: Bearer TOKEN` header; undefined for any other header, or none. */
export function bearerToken(header: string | string[] | undefined): string | undefined {
  return typeof header === "string" ? /^Bearer\s+(\S+)\s*$/i.exec(header)?.[1] : undefined;
}

/** True for a caller who sees the whole server (every namespace's figures): what `global` access asks for. */
export function seesEveryNamespace(caller: Caller): boolean {
  return caller.admin && caller.namespace === undefined;
}

/** Keys are looked up by hash, so a lookup's timing says nothing about a key's characters. */
function digest(key: string): string {
  return createHash("sha256").update(key).digest("base64");
}

export class Authenticator {
  private readonly keys = new Map<string, ApiKey>();

  constructor(private readonly settings: ServerSettings) {
    for (const [key, entry] of settings.keys) this.keys.set(digest(key), entry);
  }

  get enabled(): boolean {
    return this.keys.size > 0;
  }

  /** The caller of a request, or an HttpProblem (401/403) / ValidationError (bad namespace header). */
  identify(request: FastifyRequest, access: Access): Caller {
    const header = request.headers[NAMESPACE_HEADER];
    if (header === undefined && !this.enabled) return ANONYMOUS;
    const key = this.keyOf(request);
    const asked = Array.isArray(header) ? header[header.length - 1] : header;
    if (asked !== undefined && !isNamespaceName(asked)) {
      throw new ValidationError(`${NAMESPACE_HEADER} must be a namespace name (letters, digits, _ . : -, at most 128).`);
    }
    const namespace = key?.namespace ?? asked;
    if (key?.namespace !== undefined && asked !== undefined && asked !== key.namespace) {
      throw new HttpProblem("SEMCACHE_FORBIDDEN", `This key is bound to namespace "${key.namespace}".`);
    }
    if (key && key.namespace === undefined && !key.admin && asked !== undefined) {
      throw new HttpProblem("SEMCACHE_FORBIDDEN", "This key is bound to no namespace and is not an admin key: it works in the shared default namespace only (send no x-semcache-namespace).");
    }
    if (namespace !== undefined && this.settings.namespaces && !this.settings.namespaces.has(namespace)) {
      throw new HttpProblem("SEMCACHE_FORBIDDEN", `Namespace "${namespace}" is not one of server.namespaces.`);
    }
    const caller: Caller = { namespace, admin: key ? key.admin : true, authenticated: key !== undefined };
    if (access === "global" && namespace !== undefined) {
      throw new HttpProblem("SEMCACHE_FORBIDDEN", "This operation spans every namespace: call it with an admin key bound to none, and no namespace header.");
    }
    if ((access === "global" || (access === "write" && this.settings.adminOnly)) && !caller.admin) {
      throw new HttpProblem("SEMCACHE_FORBIDDEN", "This operation needs an admin key.");
    }
    return caller;
  }

  /** The configured key the request carries; undefined when no keys are configured. */
  private keyOf(request: FastifyRequest): ApiKey | undefined {
    if (!this.enabled) return undefined;
    const sent = bearerToken(request.headers.authorization);
    const challenge = { "www-authenticate": 'Bearer realm="semcache"' };
    if (sent === undefined) throw new HttpProblem("SEMCACHE_UNAUTHORIZED", "Send an API key as `Authorization: Bearer KEY`.", challenge);
    const key = this.keys.get(digest(sent));
    if (!key) throw new HttpProblem("SEMCACHE_UNAUTHORIZED", "Unknown API key.", challenge);
    return key;
  }
}
