#!/usr/bin/env node
/** The `semcache` command: a dispatcher over subcommands. Faults in what the user gave exit 2 with a message. */
import { SemcacheError } from "../core/errors.js";
import { packageVersion } from "../core/package-version.js";
import { exportCommand } from "./export.js";
import { importCommand } from "./import.js";
import { serve } from "./serve.js";
import { statsCommand } from "./stats.js";
import { tune, type TuneIo } from "./tune.js";

const COMMANDS: Record<string, { summary: string; run(argv: string[], io: TuneIo): Promise<void> }> = {
  serve: { summary: "serve the cache over HTTP (GPTCache's routes, an OpenAI-compatible proxy, /docs)", run: serve },
  import: { summary: "store question/answer pairs from a JSON or JSON Lines file", run: importCommand },
  export: { summary: "write every entry as JSON Lines", run: exportCommand },
  stats: { summary: "print the cache's entries, hits and stage timings", run: statsCommand },
  tune: { summary: "pick similarity thresholds (and fit a precision guard) from labelled question pairs", run: tune },
};

const USAGE = `Usage: semcache <command> [options]

Commands:
${Object.entries(COMMANDS)
  .map(([name, command]) => `  ${name.padEnd(8)} ${command.summary}`)
  .join("\n")}

Run \`semcache <command> --help\` for a command's options, \`semcache --version\` for the version.
`;

const io: TuneIo = {
  out: (text) => void process.stdout.write(text),
  progress: (text) => void process.stderr.write(text),
};

/** Faults in the arguments or the input files, as opposed to bugs. */
function isUsageFault(error: unknown): error is Error {
  const code = (error as { code?: unknown } | null)?.code;
  return error instanceof SemcacheError || (typeof code === "string" && code.startsWith("ERR_PARSE_ARGS"));
}

async function main(argv: string[]): Promise<number> {
  const [name, ...rest] = argv;
  if (name === "--help" || name === "-h" || name === "help") {
    io.out(USAGE);
    return 0;
  }
  if (name === "--version") {
    io.out(`${packageVersion()}\n`);
    return 0;
  }
  const command = name === undefined ? undefined : COMMANDS[name];
  if (!command) {
    process.stderr.write(`${name === undefined ? "No command given." : `Unknown command "${name}".`}\n\n${USAGE}`);
    return 2;
  }
  try {
    await command.run(rest, io);
    return 0;
  } catch (error) {
    if (!isUsageFault(error)) throw error;
    process.stderr.write(`semcache ${name}: ${error.message}\nRun \`semcache ${name} --help\` for its options.\n`);
    return 2;
  }
}

process.exitCode = await main(process.argv.slice(2));
