import { createWriteStream, type WriteStream } from "node:fs";
import { once } from "node:events";
import { parseArgs } from "node:util";
import { ValidationError } from "../core/errors.js";
import { openTarget, TARGET_OPTIONS, TARGET_USAGE } from "./cache-target.js";
import type { TuneIo } from "./tune.js";

export const EXPORT_USAGE = `Usage: semcache export [options]

Writes every live entry as JSON Lines, oldest first: { "question", "answer", "create_on", "hit_count" } (plus
"answer_type" for non-text answers and an opaque "partition" for entries stored with a namespace, a model or
sampling settings). \`semcache import\` reads the file back.

Options:
  -o, --out FILE     write to FILE instead of stdout
${TARGET_USAGE}`;

/** Writes a line, waiting when the stream's buffer is full (a large store never sits in memory). */
async function writeLine(stream: NodeJS.WritableStream | WriteStream, line: string): Promise<void> {
  if (!stream.write(line)) await once(stream, "drain");
}

export async function exportCommand(argv: string[], io: TuneIo): Promise<void> {
  const { values, positionals } = parseArgs({ args: argv, allowPositionals: true, options: { ...TARGET_OPTIONS, out: { type: "string", short: "o" } } });
  if (values.help) return io.out(EXPORT_USAGE);
  if (positionals.length > 0) throw new ValidationError(`export takes no arguments, got "${positionals.join(" ")}" (use --out FILE).`);
  if (values.namespace !== undefined) throw new ValidationError("export lists the whole store; it cannot be limited to a namespace.");
  const target = await openTarget(values);
  const out = values.out === undefined ? process.stdout : createWriteStream(values.out);
  let count = 0;
  try {
    for await (const entry of target.client.entries()) {
      await writeLine(out, `${JSON.stringify(entry)}\n`);
      count++;
    }
  } finally {
    if (out !== process.stdout) await new Promise<void>((resolve, reject) => (out as WriteStream).end((error?: Error | null) => (error ? reject(error) : resolve())));
    await target.close();
  }
  io.progress(`exported ${count.toLocaleString("en")} entries${values.out ? ` to ${values.out}` : ""}\n`);
}
