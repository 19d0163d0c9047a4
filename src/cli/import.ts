import { createReadStream } from "node:fs";
import { open, readFile } from "node:fs/promises";
import { createInterface } from "node:readline";
import { parseArgs } from "node:util";
import { ValidationError } from "../core/errors.js";
import { isPositiveInteger } from "../core/validation.js";
import { isPartition } from "../core/keys.js";
import type { QuestionAnswer } from "../server/cache-service.js";
import { openTarget, TARGET_OPTIONS, TARGET_USAGE } from "./cache-target.js";
import type { TuneIo } from "./tune.js";

export const IMPORT_USAGE = `Usage: semcache import FILE [options]

Stores question/answer pairs. FILE is a JSON array or JSON Lines of { "question", "answer" } objects
({ "prompt", "answer" } too), so \`semcache export\` output reads back: an exported "partition" is restored
(the entry answers the same namespace, model and settings as before; not with --namespace), entries with a
non-text "answer_type" (images, whose files an export does not hold) are skipped and counted, and other
fields are ignored. Every pair is checked before anything is stored; pairs are embedded and written in
batches, with a progress bar.

Options:
  --batch N          pairs per batch (one request or transaction each; default 256)
${TARGET_USAGE}`;

const DEFAULT_BATCH = 256;
/** Characters of text per batch: keeps a request well under the server's default 1 MiB body limit. */
const BATCH_CHARS = 256 * 1024;

/** Consecutive slices of at most `size` pairs and about BATCH_CHARS characters (one pair at least). */
function* batches(pairs: readonly QuestionAnswer[], size: number): Iterable<QuestionAnswer[]> {
  let current: QuestionAnswer[] = [];
  let chars = 0;
  for (const pair of pairs) {
    const length = pair.question.length + pair.answer.length;
    if (current.length > 0 && (current.length >= size || chars + length > BATCH_CHARS)) {
      yield current;
      current = [];
      chars = 0;
    }
    current.push(pair);
    chars += length;
  }
  if (current.length > 0) yield current;
}

/** The pair an entry holds, or undefined for an exported non-text answer (its object-store keys only). */
function toPair(file: string, where: string, entry: unknown): QuestionAnswer | undefined {
  const record = (typeof entry === "object" && entry !== null && !Array.isArray(entry) ? entry : {}) as Record<string, unknown>;
  const question = record.question ?? record.prompt;
  const { answer, partition, answer_type: answerType } = record;
  const shown = () => JSON.stringify(entry)?.slice(0, 120);
  if (typeof question !== "string" || question === "" || typeof answer !== "string" || answer === "") {
    throw new ValidationError(`${file}: ${where} is not { question, answer } with two non-empty strings: ${shown()}.`);
  }
  if (partition !== undefined && !isPartition(partition)) {
    throw new ValidationError(`${file}: ${where} has a "partition" that no export writes: ${shown()}.`);
  }
  if (answerType !== undefined && answerType !== "str") return undefined;
  return partition ? { question, answer, partition } : { question, answer };
}

interface ReadPairs {
  pairs: QuestionAnswer[];
  /** Entries with a non-text answer. */
  skipped: number;
}

/** A JSON array (read whole), or JSON Lines (streamed line by line, so large files stay cheap). */
async function readPairs(file: string): Promise<ReadPairs> {
  let first: string;
  try {
    const handle = await open(file);
    try {
      const { buffer, bytesRead } = await handle.read({ buffer: Buffer.alloc(256), position: 0 });
      first = buffer.subarray(0, bytesRead).toString("utf8").trimStart();
    } finally {
      await handle.close();
    }
  } catch (error) {
    throw new ValidationError(`Cannot read ${file}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}.`);
  }
  if (first.startsWith("[")) {
    let entries: unknown;
    try {
      entries = JSON.parse(await readFile(file, "utf8"));
    } catch (error) {
      throw new ValidationError(`${file} is not valid JSON: ${(error as Error).message}.`);
    }
    return collect((entries as unknown[]).map((entry, i) => toPair(file, `entry ${i + 1}`, entry)));
  }
  const read: Array<QuestionAnswer | undefined> = [];
  let number = 0;
  for await (const line of createInterface({ input: createReadStream(file, "utf8"), crlfDelay: Infinity })) {
    number++;
    if (line.trim() === "") continue;
    let entry: unknown;
    try {
      entry = JSON.parse(line);
    } catch {
      throw new ValidationError(`${file} is neither a JSON array nor JSON Lines: line ${number} is not valid JSON.`);
    }
    read.push(toPair(file, `line ${number}`, entry));
  }
  return collect(read);
}

function collect(read: ReadonlyArray<QuestionAnswer | undefined>): ReadPairs {
  const pairs = read.filter((pair) => pair !== undefined);
  return { pairs, skipped: read.length - pairs.length };
}

/** `m:ss` (or `h:mm:ss`) for a duration in seconds. */
function clockTime(totalSeconds: number): string {
  const seconds = Math.ceil(totalSeconds);
  const [h, m, s] = [Math.floor(seconds / 3600), Math.floor((seconds % 3600) / 60), seconds % 60];
  const pad = (n: number) => String(n).padStart(2, "0");
  return h > 0 ? `${h}:${pad(m)}:${pad(s)}` : `${m}:${pad(s)}`;
}

/**
 * `[#########.....................] 4,096/10,000 pairs 41%`, then, once some are done and `elapsedMs` is given,
 * the rate and the time left at that rate: `  1,365 pairs/s, 0:05 left`.
 */
export function progressBar(done: number, total: number, unit: string, elapsedMs?: number, width = 30): string {
  const share = total === 0 ? 1 : done / total;
  const filled = Math.round(share * width);
  const bar = `[${"#".repeat(filled)}${".".repeat(width - filled)}] ${done.toLocaleString("en")}/${total.toLocaleString("en")} ${unit} ${Math.floor(share * 100)}%`;
  if (elapsedMs === undefined || done === 0 || elapsedMs <= 0) return bar;
  const perSecond = (done * 1000) / elapsedMs;
  return `${bar}  ${Math.round(perSecond).toLocaleString("en")} ${unit}/s, ${clockTime((total - done) / perSecond)} left`;
}

export async function importCommand(argv: string[], io: TuneIo): Promise<void> {
  const { values, positionals } = parseArgs({ args: argv, allowPositionals: true, options: { ...TARGET_OPTIONS, batch: { type: "string" } } });
  if (values.help) return io.out(IMPORT_USAGE);
  if (positionals.length !== 1) throw new ValidationError(`import takes one FILE, got ${positionals.length}.`);
  const batch = values.batch === undefined ? DEFAULT_BATCH : Number(values.batch);
  if (!isPositiveInteger(batch)) throw new ValidationError(`--batch must be a positive integer, got "${values.batch}".`);

  const file = positionals[0];
  const { pairs, skipped } = await readPairs(file);
  if (pairs.length === 0) throw new ValidationError(`${file} has no pairs${skipped ? ` with a text answer (${skipped} non-text skipped)` : ""}.`);
  if (values.namespace !== undefined && pairs.some((pair) => pair.partition)) {
    throw new ValidationError(`${file} holds exported partitions, which are restored as they were (each names its namespace): import it without --namespace.`);
  }
  const target = await openTarget(values);
  try {
    let imported = 0;
    const startedMs = performance.now();
    io.progress(`\r${progressBar(0, pairs.length, "pairs")}`);
    for (const slice of batches(pairs, batch)) {
      imported += await target.client.importPairs(slice);
      io.progress(`\r${progressBar(imported, pairs.length, "pairs", performance.now() - startedMs)}`);
    }
    io.progress("\n");
    await target.client.flush();
    const into = values.namespace ? ` into namespace ${values.namespace}` : "";
    const skippedNote = skipped ? `; skipped ${skipped.toLocaleString("en")} with a non-text answer (an export holds no image files)` : "";
    io.out(`imported ${imported.toLocaleString("en")} pairs from ${file}${into}${skippedNote}\n`);
  } finally {
    await target.close();
  }
}
