import { parseArgs } from "node:util";
import { ValidationError } from "../core/errors.js";
import { buildServer } from "../server/app.js";
import { openServerCache, readConfigFile } from "../server/server-cache.js";
import { isLoopback, resolveServerSettings } from "../server/server-config.js";
import { eitherOption } from "./cache-target.js";
import type { TuneIo } from "./tune.js";

export const SERVE_USAGE = `Usage: semcache serve [options]

Serves the cache over HTTP: POST /put, /get, /flush, the plain map on /?prompt=, an OpenAI-compatible
/v1/chat/completions proxy, /healthz, /stats, /metrics; the API page is at /docs. Starts listening once the
cache (and its embedding model) is loaded. SIGTERM or SIGINT stops it gracefully (requests in flight finish,
the store is flushed and closed).

Options:
  -s, --host HOST            address to listen on (default server.host, else 127.0.0.1)
  -p, --port PORT            port (default server.port, else 8000; 0 picks a free one)
  -f, --config FILE          GPTCache YAML config, with an optional server section (alias --cache-config-file)
  -d, --data-dir DIR         where the store lives (default storage_config.data_dir, else ./semcache_data;
                             alias --cache-dir)
  --allow-unauthenticated    listen on a non-loopback address with no API key configured
  --log-level LEVEL          fatal, error, warn, info (default), debug (a line per request), trace, silent
  -h, --help                 this text

Without -f the cache is the offline semantic preset (Universal Sentence Encoder, SQLite, hnswlib and the
precision guard, weighed by how unambiguous each match is) in the data dir.
`;

const LEVELS = ["fatal", "error", "warn", "info", "debug", "trace", "silent"];

function portOf(text: string): number {
  const port = Number(text);
  if (!/^\d+$/.test(text) || port > 65535) throw new ValidationError(`--port must be a port number (0 to 65535), got "${text}".`);
  return port;
}

/** Resolves once the server has stopped (after SIGTERM / SIGINT). */
export async function serve(argv: string[], io: TuneIo): Promise<void> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      host: { type: "string", short: "s" },
      port: { type: "string", short: "p" },
      config: { type: "string", short: "f" },
      "cache-config-file": { type: "string" },
      "data-dir": { type: "string", short: "d" },
      "cache-dir": { type: "string" },
      "allow-unauthenticated": { type: "boolean", default: false },
      "log-level": { type: "string", default: "info" },
      help: { type: "boolean", short: "h", default: false },
    },
  });
  if (values.help) return io.out(SERVE_USAGE);
  if (positionals.length > 0) throw new ValidationError(`serve takes no arguments, got "${positionals.join(" ")}".`);
  const level = values["log-level"];
  if (!LEVELS.includes(level)) throw new ValidationError(`--log-level must be one of ${LEVELS.join(", ")}, got "${level}".`);
  const configPath = eitherOption(values, "config", "cache-config-file");
  const dataDir = eitherOption(values, "data-dir", "cache-dir");
  const port = values.port === undefined ? undefined : portOf(values.port);

  // Everything the user gave is checked before the cache (and its model) is loaded.
  const config = configPath === undefined ? undefined : await readConfigFile(configPath);
  const server = config?.serverOptions;
  const section = { ...server, host: values.host ?? server?.host, port: port ?? server?.port };
  if (values["allow-unauthenticated"]) section.allowUnauthenticated = true;
  const settings = resolveServerSettings(section);
  if (settings.keys.size === 0 && !isLoopback(settings.host) && !settings.allowUnauthenticated) {
    throw new ValidationError(
      `refusing to listen on ${settings.host} with no API key: anyone who can reach it could read and write the cache. ` +
        "Configure server.api_keys, or pass --allow-unauthenticated (server.allow_unauthenticated: true).",
    );
  }
  const { cache } = await openServerCache({ config, dataDir });
  try {
    const app = buildServer({ cache, settings: section, logger: { level }, logRequests: level === "debug" || level === "trace", closeCache: true });
    const stopped = waitForSignal(app.close.bind(app), io);
    try {
      await app.listen({ host: settings.host, port: settings.port });
    } catch (error) {
      await app.close();
      const code = (error as NodeJS.ErrnoException).code;
      if (code === "EADDRINUSE" || code === "EACCES" || code === "EADDRNOTAVAIL") {
        throw new ValidationError(`cannot listen on ${settings.host}:${settings.port}: ${code}.`);
      }
      throw error;
    }
    const address = app.server.address();
    const url = typeof address === "object" && address ? `http://${address.family === "IPv6" ? `[${address.address}]` : address.address}:${address.port}` : String(address);
    io.out(`semcache listening on ${url} (API page: ${url}/docs)\n`);
    await stopped;
  } finally {
    await cache.close();
  }
}

/** Resolves once a SIGTERM or SIGINT has closed the app; a second signal exits at once. */
function waitForSignal(close: () => Promise<unknown>, io: TuneIo): Promise<void> {
  return new Promise((resolve, reject) => {
    const stop = (signal: NodeJS.Signals) => {
      process.off("SIGTERM", stop).off("SIGINT", stop);
      process.once("SIGTERM", () => process.exit(1)).once("SIGINT", () => process.exit(1));
      io.progress(`semcache: ${signal}, finishing requests in flight and closing the store\n`);
      close().then(() => resolve(), reject);
    };
    process.on("SIGTERM", stop).on("SIGINT", stop);
  });
}
