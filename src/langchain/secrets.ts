/**
 * LangChain's llmKey (the cache partition it hands a BaseCache) serialises the model's identifying params,
 * API key and base URL included, in plain text. Storing it would leak the key, and rotating a key or moving
 * a proxy would empty the cache. These helpers keep only what can change an answer.
 */

/** Settings that are secret, that change where a request goes, or that differ per run, but not what it answers. */
const DROPPED = new Set(
  [
    "apiKey", "openAIApiKey", "azureOpenAIApiKey", "anthropicApiKey", "googleApiKey", "cohereApiKey", "key",
    "token", "accessToken", "apiToken", "secret", "secretKey", "password", "authorization", "credentials",
    "baseURL", "basePath", "baseUrl", "endpoint", "endpointUrl", "url", "azureOpenAIEndpoint",
    "azureOpenAIBasePath", "headers", "defaultHeaders", "organization", "project", "timeout", "maxRetries",
    "maxConcurrency", "dangerouslyAllowBrowser", "stream", "streaming", "streamUsage", "verbose", "callbacks",
    "signal", "configuration", "clientOptions", "fetch", "httpAgent",
    // LangGraph's per-run fields (an agent's model calls carry them): checkpoint and task ids, start times.
    "executionInfo", "writer", "interrupt",
  ].map(normalise),
);

function normalise(name: string): string {
  return name.replace(/[_-]/g, "").toLowerCase();
}

/** Values that look like credentials wherever they appear (a whole value: "hf-internal-testing/tiny" is a name). */
const CREDENTIAL = /^(?:(?:sk|pk|rk|hf|co)[-_][A-Za-z0-9_-]{8,}$|Bearer\s)/;

/** Settings that name the model: kept whatever they look like, since models must never share answers. */
const MODEL_NAMES = new Set(["model", "modelName"].map(normalise));

/** A deep copy of `value` without secret or routing settings (objects and arrays are walked). */
export function withoutSecrets(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutSecrets).filter((item) => item !== undefined);
  if (typeof value === "string") return CREDENTIAL.test(value) ? undefined : value;
  if (typeof value !== "object" || value === null) return value;
  const out: Record<string, unknown> = {};
  for (const [key, inner] of Object.entries(value)) {
    if (DROPPED.has(normalise(key))) continue;
    const cleaned = MODEL_NAMES.has(normalise(key)) && typeof inner === "string" ? inner : withoutSecrets(inner);
    if (cleaned !== undefined) out[key] = cleaned;
  }
  return out;
}

/** Index just past the JSON value starting at `start` (strings, nesting and escapes respected). */
function jsonValueEnd(text: string, start: number): number {
  let depth = 0;
  let inString = false;
  for (let i = start; i < text.length; i++) {
    const c = text[i];
    if (inString) {
      if (c === "\\") i++;
      else if (c === '"') inString = false;
    } else if (c === '"') inString = true;
    else if (c === "{" || c === "[") depth++;
    else if (c === "}" || c === "]") depth--;
    else if (c === "," && depth === 0) return i;
  }
  return text.length;
}

/**
 * Parses LangChain's llmKey (`key:JSON` pairs joined by ",", as `_getSerializedCacheKeyParametersForCall`
 * writes it) into an object. A value that is not JSON (`fetch:undefined` for a function setting) is kept as
 * its text, or dropped when it is `undefined`; trailing text without a key is kept under `llmKey`, with
 * credential-looking words removed. The whole raw key is never returned: it carries the API key.
 */
export function parseLlmKey(llmKey: string): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  let i = 0;
  while (i < llmKey.length) {
    const colon = llmKey.indexOf(":", i);
    if (colon < 0) {
      out.llmKey = llmKey.slice(i).replace(/\S+/g, (word) => (CREDENTIAL.test(word) ? "" : word)).trim();
      break;
    }
    const name = llmKey.slice(i, colon);
    const end = jsonValueEnd(llmKey, colon + 1);
    const raw = llmKey.slice(colon + 1, end);
    if (raw !== "undefined") {
      try {
        out[name] = JSON.parse(raw);
      } catch {
        out[name] = raw;
      }
    }
    i = end + 1;
  }
  return out;
}

/** The llmKey's answer-changing settings as a plain object (the cache's partition input). */
export function sanitizeLlmKey(llmKey: string): Record<string, unknown> {
  return withoutSecrets(parseLlmKey(llmKey)) as Record<string, unknown>;
}
