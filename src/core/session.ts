import { randomUUID } from "node:crypto";
import { ValidationError } from "./errors.js";
import type { CacheKernel } from "./cache.js";
import { globalCache } from "./global-cache.js";

/**
 * Decides whether a session may be answered by a stored entry. Gets the session's name and the sessions
 * linked to the entry (its creator and earlier hitters), plus the entry's question and answer.
 */
export type SessionCheck = (
  session: string,
  entrySessions: readonly string[],
  question: string,
  answer: string,
) => boolean;

/** The default: a session never hits an entry it created or was already given (asking again means it wants a new answer). */
export const checkHitSession: SessionCheck = (session, entrySessions) => !entrySessions.includes(session);

export interface SessionOptions {
  /** Session id; a random UUID by default. */
  name?: string;
  /** The cache whose session links `drop()` removes; the global cache by default. */
  cache?: CacheKernel;
  checkHit?: SessionCheck;
}

/** A conversation's identity in the cache (GPTCache's Session). */
export class Session {
  readonly name: string;
  readonly checkHit: SessionCheck;
  private readonly cache?: CacheKernel;

  constructor(options: SessionOptions | string = {}) {
    const o = typeof options === "string" ? { name: options } : options;
    if (o.name !== undefined && (typeof o.name !== "string" || o.name.length === 0)) {
      throw new ValidationError("Session name must be a non-empty string.");
    }
    if (o.checkHit !== undefined && typeof o.checkHit !== "function") {
      throw new ValidationError("Session checkHit must be a function.");
    }
    this.name = o.name ?? randomUUID();
    this.checkHit = o.checkHit ?? checkHitSession;
    this.cache = o.cache;
  }

  /** Forgets every link between this session and stored entries (the entries stay). */
  async drop(): Promise<number> {
    return (this.cache ?? globalCache()).dataManager.deleteSession(this.name);
  }
}
