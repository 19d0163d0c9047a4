/**
 * Where `semcache import`, `export` and `stats` act: a running server (`--url`), or the store itself, opened
 * in process from the same `-f config` / `-d dataDir` that `semcache serve` takes.
 */
import { ValidationError } from "../core/errors.js";
import { CacheClient } from "../server/client.js";
import { openServerCache } from "../server/server-cache.js";

/** The parseArgs options every such command accepts. */
export const TARGET_OPTIONS = {
  url: { type: "string" },
  key: { type: "string" },
  namespace: { type: "string" },
  "cache-config-file": { type: "string", short: "f" },
  config: { type: "string" },
  "cache-dir": { type: "string", short: "d" },
  "data-dir": { type: "string" },
  help: { type: "boolean", short: "h", default: false },
} as const;

export const TARGET_USAGE = `Where:
  --url URL          a running semcache server, e.g. http://127.0.0.1:8000
  --key KEY          its API key (default $SEMCACHE_API_KEY)
  --namespace NS     the namespace to act on
  -f, --config FILE  without --url: the GPTCache YAML config the server uses
  -d, --data-dir DIR without --url: the store's folder (default ./semcache_data)
Without --url the store is opened in this process: stop a server using it first, or use --url.
  -h, --help         this text
`;

export interface TargetValues {
  url?: string;
  key?: string;
  namespace?: string;
  "cache-config-file"?: string;
  config?: string;
  "cache-dir"?: string;
  "data-dir"?: string;
}

/** One of two spellings (GPTCache's long names, or ours), never both with different values. */
export function eitherOption(values: Record<string, unknown>, a: string, b: string): string | undefined {
  const first = values[a] as string | undefined;
  const second = values[b] as string | undefined;
  if (first !== undefined && second !== undefined && first !== second) throw new ValidationError(`--${a} and --${b} are the same option; give one.`);
  return first ?? second;
}

/** A client on the target, and how to let go of it (closing the store when it was opened here). */
export async function openTarget(values: TargetValues): Promise<{ client: CacheClient; close(): Promise<void> }> {
  const configPath = eitherOption(values as Record<string, unknown>, "cache-config-file", "config");
  const dataDir = eitherOption(values as Record<string, unknown>, "cache-dir", "data-dir");
  if (values.url !== undefined) {
    if (configPath !== undefined || dataDir !== undefined) throw new ValidationError("--url talks to a running server: drop -f / -d (they are the server's).");
    const client = new CacheClient({ uri: values.url, apiKey: values.key ?? process.env.SEMCACHE_API_KEY, namespace: values.namespace });
    return { client, close: async () => client.close() };
  }
  if (values.key !== undefined) throw new ValidationError("--key is for --url.");
  // No warm-up: stats and export never embed, and import loads the model with its first batch.
  const { cache } = await openServerCache({ configPath, dataDir, warmUp: false });
  const client = new CacheClient({ cache, namespace: values.namespace });
  return { client, close: () => cache.close() };
}
