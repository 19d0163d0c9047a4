/**
 * What the hosted image APIs (Stability, Replicate) share: a connection (base URL, key, headers, fetch), and
 * their error answers thrown as `ModelServerError` with the status and body unchanged (never cached).
 */
import { ValidationError } from "../../core/errors.js";
import { ModelServerError } from "../local-models/model-server.js";

export interface ProviderConnection {
  /** No trailing slash. */
  baseUrl: string;
  headers: Record<string, string>;
  fetch: typeof fetch;
}

export interface ProviderConnectionOptions {
  baseUrl?: string;
  headers?: Record<string, string>;
  fetch?: typeof fetch;
}

/** A connection from a client's options; the key from the options, else the environment variable named. */
export function providerConnection(
  where: string,
  options: ProviderConnectionOptions & { apiKey?: string },
  defaults: { baseUrl: string; keyVariable: string },
): ProviderConnection {
  const { baseUrl = defaults.baseUrl, headers = {}, fetch: send = fetch } = options;
  if (typeof baseUrl !== "string" || !/^https?:\/\//i.test(baseUrl)) throw new ValidationError(`${where}: \`baseUrl\` must be an http(s) URL.`);
  if (typeof headers !== "object" || headers === null) throw new ValidationError(`${where}: \`headers\` must be an object.`);
  if (typeof send !== "function") throw new ValidationError(`${where}: \`fetch\` must be a function.`);
  const apiKey = options.apiKey ?? process.env[defaults.keyVariable];
  if (typeof apiKey !== "string" || apiKey === "") throw new ValidationError(`${where}: give \`apiKey\` or set ${defaults.keyVariable}.`);
  return { baseUrl: baseUrl.replace(/\/+$/, ""), headers: { authorization: `Bearer ${apiKey}`, ...headers }, fetch: send };
}

function parseOrText(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/** The error's text: Stability's `{ name, errors: [...] }` or `{ message }`, Replicate's `{ title, detail }`, or the body. */
function messageOf(body: unknown, fallback: string): string {
  const fields = (typeof body === "object" && body !== null ? body : {}) as Record<string, unknown>;
  const errors = Array.isArray(fields.errors) ? fields.errors.map(String).join("; ") : undefined;
  const detail = [fields.message, fields.detail, errors].find((value): value is string => typeof value === "string" && value !== "");
  const title = [fields.name, fields.title].find((value): value is string => typeof value === "string" && value !== "");
  if (detail) return title ? `${title}: ${detail}` : detail;
  if (title) return title;
  return typeof body === "string" && body !== "" ? body : fallback;
}

/** Throws a status other than 2xx as a ModelServerError carrying the provider's body. */
export async function throwUnlessOk(response: Response): Promise<Response> {
  if (response.ok) return response;
  const body = parseOrText(await response.text().catch(() => ""));
  throw new ModelServerError(messageOf(body, `${response.status} ${response.statusText}`), response.status, body);
}

/** A provider answer that is not the shape its API documents. */
export function unexpectedAnswer(what: string, body: unknown): ModelServerError {
  return new ModelServerError(`Unexpected answer from ${what}.`, undefined, body);
}
