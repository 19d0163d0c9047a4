import { resolve } from "node:path";
import { parseArgs } from "node:util";
import { ValidationError } from "../core/errors.js";
import { packageVersion } from "../core/package-version.js";
import { buildServer } from "../server/app.js";
import { openServerCache, readConfigFile } from "../server/server-cache.js";
import { isLoopback, resolveServerSettings } from "../server/server-config.js";
import { warmUp } from "../server/warm-up.js";
import { PrecisionGuardEvaluation } from "../similarity/precision-guard.js";
import type { SimilarityEvaluation } from "../core/contracts/evaluation.js";
import { UnambiguousEvaluation } from "../similarity/unambiguous.js";
import { eitherOption } from "./cache-target.js";
import type { TuneIo } from "./tune.js";

export const SERVE_USAGE = `Usage: semcache serve [options]

Serves the cache over HTTP: POST /put, /get, /flush, the plain map on /?prompt=, an OpenAI-compatible
/v1/chat/completions proxy, /healthz, /stats, /metrics; the API page is at /docs. Starts listening once the
cache is loaded and its embedding model has embedded a warm-up text, then prints one line: the URL, data dir,
stores, judge, threshold and upstream. SIGTERM or SIGINT stops it gracefully (requests in flight finish, the
store is flushed and closed); so does SIGTERM to \`npx semcache serve\`.

Options:
  -s, --host HOST            address to listen on (default server.host, else 127.0.0.1)
  -p, --port PORT            port (default server.port, else 8000; 0 picks a free one)
  -f, --config FILE          GPTCache YAML config, with an optional server section (alias --cache-config-file)
  -d, --data-dir DIR         where the store lives (default storage_config.data_dir, else ./semcache_data;
                             alias --cache-dir)
  --api-key-env NAME         also accept the admin API key held in the environment variable NAME (the
                             key itself never appears on the command line)
  --allow-unauthenticated    listen on a non-loopback address with no API key configured
  --log-level LEVEL          fatal, error, warn, info (default), debug (a line per request), trace, silent
  --version                  print the version
  -h, --help                 this text

Without -f the cache is the offline semantic preset (Universal Sentence Encoder, SQLite, usearch and the
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
      "api-key-env": { type: "string" },
      "allow-unauthenticated": { type: "boolean", default: false },
      "log-level": { type: "string", default: "info" },
      version: { type: "boolean", default: false },
      help: { type: "boolean", short: "h", default: false },
    },
  });
  if (values.help) return io.out(SERVE_USAGE);
  if (values.version) return io.out(`${packageVersion()}\n`);
  if (positionals.length > 0) throw new ValidationError(`serve takes no arguments, got "${positionals.join(" ")}".`);
  const level = values["log-level"];
  if (!LEVELS.includes(level)) throw new ValidationError(`--log-level must be one of ${LEVELS.join(", ")}, got "${level}".`);
  const configPath = eitherOption(values, "config", "cache-config-file");
  const dataDir = eitherOption(values, "data-dir", "cache-dir");
  const port = values.port === undefined ? undefined : portOf(values.port);

  // Everything the user gave is checked before the cache (and its model) is loaded.
  const config = configPath === undefined ? undefined : await readConfigFile(configPath);
  // What a GPTCache config names that runs as something else here, one line each.
  for (const note of config?.notes ?? []) io.progress(`semcache: ${note}\n`);
  const server = config?.serverOptions;
  const section = { ...server, host: values.host ?? server?.host, port: port ?? server?.port };
  if (values["allow-unauthenticated"]) section.allowUnauthenticated = true;
  const keyEnv = values["api-key-env"];
  if (keyEnv !== undefined) {
    if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(keyEnv)) throw new ValidationError(`--api-key-env takes the name of an environment variable, got "${keyEnv}".`);
    if (!process.env[keyEnv]) throw new ValidationError(`--api-key-env names ${keyEnv}, which is not set (or empty).`);
    // An admin key bound to no namespace, next to the config file's keys (as a plain string key there is).
    section.apiKeys = [...(section.apiKeys ?? []), { keyEnv, admin: true }];
  }
  const settings = resolveServerSettings(section);
  if (settings.keys.size === 0 && !isLoopback(settings.host) && !settings.allowUnauthenticated) {
    throw new ValidationError(
      `refusing to listen on ${settings.host} with no API key: anyone who can reach it could read and write the cache. ` +
        "Configure server.api_keys, or pass --allow-unauthenticated (server.allow_unauthenticated: true).",
    );
  }
  const opened = await openServerCache({ config, dataDir, onProgress: (message) => io.progress(`semcache: ${message}\n`) });
  const { cache } = opened;
  try {
    const app = buildServer({ cache, settings: section, logger: { level }, logRequests: level === "debug" || level === "trace", closeCache: true });
    const stopped = waitForStop(app.close.bind(app), io);
    try {
      // The first request then costs what the next ones do (see warm-up.ts).
      await warmUp(app);
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
    const setup = [
      `data ${resolve(opened.dataDir)}`,
      `stores ${opened.stores}`,
      `judge ${judgeName(cache.similarityEvaluation)}`,
      `threshold ${cache.config.similarityThreshold}`,
      // Where the proxy's misses go: the config's, OPENAI_BASE_URL, or OpenAI's.
      `upstream ${settings.upstream.baseURL}`,
      `version ${packageVersion()}`,
    ];
    io.out(`semcache listening on ${url} (${setup.join(", ")}; API page ${url}/docs)\n`);
    await stopped;
    io.progress("semcache: stopped\n");
  } finally {
    await cache.close();
  }
}

/** "preset" for initSimilarCache's default judge (the precision guard weighed by UnambiguousEvaluation), else the class name. */
function judgeName(evaluation: SimilarityEvaluation): string {
  if (evaluation instanceof UnambiguousEvaluation && evaluation.inner instanceof PrecisionGuardEvaluation) return "preset";
  return evaluation.constructor.name;
}

/** How often a server started by npm checks that npm is still there. */
const PARENT_POLL_MS = 200;

/**
 * Under npm, calls `stop` when the parent process exits: `npx semcache serve` (and `npm run`) runs the command
 * under `sh -c`, and npm passes a SIGTERM to that shell, which dies of it without passing it on, so the server
 * would live on, orphaned. Returns the function that stops watching.
 */
function watchNpmParent(stop: () => void): () => void {
  if (process.env.npm_lifecycle_event === undefined) return () => undefined;
  const parentPid = process.ppid;
  const timer = setInterval(() => {
    if (process.ppid !== parentPid) stop();
  }, PARENT_POLL_MS);
  timer.unref();
  return () => clearInterval(timer);
}

/** Resolves once a SIGTERM or SIGINT (or, under npm, npm's exit) has closed the app; a second signal exits at once. */
function waitForStop(close: () => Promise<unknown>, io: TuneIo): Promise<void> {
  return new Promise((resolve, reject) => {
    const stop = (reason: string) => {
      process.off("SIGTERM", onSignal).off("SIGINT", onSignal);
      unwatch();
      process.once("SIGTERM", () => process.exit(1)).once("SIGINT", () => process.exit(1));
      io.progress(`semcache: ${reason}, finishing requests in flight and closing the store\n`);
      close().then(() => resolve(), reject);
    };
    const onSignal = (signal: NodeJS.Signals) => stop(signal);
    process.on("SIGTERM", onSignal).on("SIGINT", onSignal);
    const unwatch = watchNpmParent(() => stop("npm exited"));
  });
}
