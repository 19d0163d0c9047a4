import { writeFileSync } from "node:fs";
import { basename } from "node:path";
import { parseArgs } from "node:util";
import { UnknownKindError, ValidationError } from "../core/errors.js";
import { cosineSimilarity } from "../core/vector-math.js";
import { UniversalSentenceEncoderEmbeddings } from "../embeddings/use.js";
import { bestOutcomes, cosineScore, curve, fitGuard, guardScore, roundedModel, thresholdFor, thresholdGrid, type CurvePoint, type ExampleScore, type GuardExample } from "../similarity/guard-fit.js";
import type { GuardModel } from "../similarity/guard-model.js";
import { DEFAULT_GUARD_MODEL } from "../similarity/precision-guard.js";
import { readLabelledPairs, type LabelledPair } from "./labelled-pairs.js";
import { precisionRecallSvg } from "./precision-recall-svg.js";

export const TUNE_USAGE = `Usage: semcache tune PAIRS.json [options]

Picks similarity thresholds for your own questions. PAIRS.json is a JSON array (or JSON Lines) of labelled
pairs, { "text_a", "text_b", "label" } or { "question", "candidate", "label" }: label 1 when both ask the same
thing, 0 when not. At least 10 pairs with both labels.

Options:
  --precision P      target precision, the share of cache hits that are right (default 0.9)
  --fit              also fit a precision guard model on your pairs (thresholds picked on a held-out fifth)
  --model-out FILE   where --fit writes the model (default guard.json)
  --embedding NAME   embedding for the cosines: use (offline Universal Sentence Encoder; default)
  --out FILE         precision-vs-recall plot (default tune-curve.svg)
  --json FILE        also write the results as JSON
  -h, --help         this text
`;

const EMBEDDINGS = { use: { model: "use-lite-512", create: () => new UniversalSentenceEncoderEmbeddings() } };
const TABLE_THRESHOLDS = [0.3, 0.5, 0.6, 0.7, 0.75, 0.8, 0.85, 0.9, 0.95];
const COLOURS = ["#1f77b4", "#d62728", "#2ca02c"];
const EMBED_CHUNK = 256;

/** Where the command writes: stdout for results, stderr for progress. */
export interface TuneIo {
  out(text: string): void;
  progress(text: string): void;
}

/** One way of scoring pairs, with its best threshold for the target precision. */
interface SeriesResult {
  name: string;
  /** The evaluation to configure with `threshold` as the cache's similarityThreshold. */
  evaluation: string;
  threshold: CurvePoint;
  reached: boolean;
  table: CurvePoint[];
  points: CurvePoint[];
}

/** `semcache tune`: reads labelled pairs, embeds them, prints thresholds and writes a plot (and a model with --fit). */
export async function tune(argv: string[], io: TuneIo): Promise<void> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      precision: { type: "string", default: "0.9" },
      fit: { type: "boolean", default: false },
      "model-out": { type: "string", default: "guard.json" },
      embedding: { type: "string", default: "use" },
      out: { type: "string", default: "tune-curve.svg" },
      json: { type: "string" },
      help: { type: "boolean", short: "h", default: false },
    },
  });
  if (values.help) return io.out(TUNE_USAGE);
  if (positionals.length !== 1) throw new ValidationError(`tune takes one PAIRS.json file, got ${positionals.length}.`);
  const target = Number(values.precision);
  if (!(target > 0 && target <= 1)) throw new ValidationError(`--precision must be a number in (0, 1], got ${values.precision}.`);
  const embedding = EMBEDDINGS[values.embedding as keyof typeof EMBEDDINGS];
  if (!embedding) throw new UnknownKindError("embedding", values.embedding, Object.keys(EMBEDDINGS));

  const file = positionals[0];
  const pairs = readLabelledPairs(file);
  const examples = await embedPairs(pairs, embedding.create(), io);
  const { fit, holdout } = values.fit ? splitFifth(file, examples) : { fit: [], holdout: examples };
  const answerable = holdout.filter((example) => example.label === 1).length;
  const groups = holdout.map((example) => [example]);

  const scorers: Array<{ name: string; evaluation: string; score: ExampleScore }> = [
    { name: "distance", evaluation: "DistanceEvaluation", score: cosineScore },
    { name: "shipped guard", evaluation: "PrecisionGuardEvaluation()", score: guardScore(DEFAULT_GUARD_MODEL) },
  ];
  let fitted: GuardModel | undefined;
  if (values.fit) {
    fitted = fitGuard({ fit, holdout: groups, answerable, targetPrecision: target, embedding: embedding.model }).model;
    scorers.push({ name: "fitted guard", evaluation: `PrecisionGuardEvaluation({ model }) with ${values["model-out"]}`, score: guardScore(fitted) });
  }
  const series = scorers.map(({ name, evaluation, score }): SeriesResult => {
    const outcomes = bestOutcomes(groups, score);
    const threshold = thresholdFor(outcomes, answerable, target);
    const table = curve(outcomes, answerable, [...new Set([...TABLE_THRESHOLDS, threshold.threshold])].sort((a, b) => a - b));
    return { name, evaluation, threshold, reached: threshold.precision >= target, table, points: curve(outcomes, answerable, thresholdGrid(200)) };
  });

  const scope = values.fit ? `the held-out fifth (${holdout.length} pairs; fitted on ${fit.length})` : `all ${holdout.length} pairs`;
  io.out(`${pairs.length} pairs (${pairs.filter((p) => p.label === 1).length} same, ${pairs.filter((p) => p.label === 0).length} different); target precision ${target}; measured on ${scope}\n`);
  for (const result of series) io.out(`\n${describe(result, target)}\n${formatTable(result)}`);

  if (fitted) {
    const [distance, , guard] = series;
    const model: GuardModel = {
      ...roundedModel(fitted),
      fitted: {
        data: basename(file),
        fitPairs: fit.length,
        holdoutPairs: holdout.length,
        targetPrecision: target,
        recommendedThreshold: { distance: distance.threshold.threshold, guard: guard.threshold.threshold },
        holdout: { distance: distance.threshold, guard: guard.threshold },
      },
    };
    writeFileSync(values["model-out"], `${JSON.stringify(model, null, 2)}\n`);
    io.out(`\nwrote the fitted model to ${values["model-out"]} (vetoes: ${model.vetoes.join(", ") || "none"})\n`);
  }
  const plot = series.map((result, i) => ({ name: result.name, colour: COLOURS[i], points: result.points.filter((p) => p.hits > 0).map((p) => ({ x: p.recall, y: p.precision })) }));
  writeFileSync(values.out, precisionRecallSvg(`Precision vs recall: ${basename(file)}`, plot, "recall", "precision"));
  io.out(`wrote the precision-vs-recall plot to ${values.out}\n`);
  if (values.json) {
    const summary = { file, pairs: pairs.length, targetPrecision: target, measuredOn: values.fit ? "holdout" : "all", series: series.map(({ points: _points, ...rest }) => rest), modelOut: fitted ? values["model-out"] : undefined };
    writeFileSync(values.json, `${JSON.stringify(summary, null, 2)}\n`);
    io.out(`wrote the results to ${values.json}\n`);
  }
}

/** Embeds every distinct text in batches, reporting progress, and pairs up the cosines. */
async function embedPairs(pairs: readonly LabelledPair[], embeddings: UniversalSentenceEncoderEmbeddings, io: TuneIo): Promise<GuardExample[]> {
  const texts = [...new Set(pairs.flatMap((pair) => [pair.stored, pair.query]))];
  const vectors = new Map<string, number[]>();
  for (let start = 0; start < texts.length; start += EMBED_CHUNK) {
    const chunk = texts.slice(start, start + EMBED_CHUNK);
    const embedded = await embeddings.embedDocuments(chunk).catch((error: unknown) => {
      throw error instanceof ValidationError ? new ValidationError(`Cannot embed a text of ${chunk.length === 1 ? "the file" : "this batch"}: ${error.message}`) : error;
    });
    chunk.forEach((text, i) => vectors.set(text, embedded[i]));
    io.progress(`\rembedding ${vectors.size}/${texts.length} texts`);
  }
  io.progress("\n");
  return pairs.map((pair) => ({ query: pair.query, stored: pair.stored, cosine: cosineSimilarity(vectors.get(pair.query)!, vectors.get(pair.stored)!), label: pair.label }));
}

/** Every fifth pair of each label is held out, so both parts keep both labels whatever the file's order. */
function splitFifth(file: string, examples: readonly GuardExample[]): { fit: GuardExample[]; holdout: GuardExample[] } {
  const counts = [0, 0];
  const fit: GuardExample[] = [];
  const holdout: GuardExample[] = [];
  for (const example of examples) {
    (counts[example.label]++ % 5 === 4 ? holdout : fit).push(example);
  }
  if (Math.min(...counts) < 5) throw new ValidationError(`--fit needs at least 5 pairs of each label in ${file}, got ${counts[1]} same and ${counts[0]} different.`);
  return { fit, holdout };
}

function describe(result: SeriesResult, target: number): string {
  const { threshold: t } = result;
  const numbers = `threshold ${t.threshold} gives precision ${t.precision.toFixed(3)}, recall ${t.recall.toFixed(3)}`;
  return result.reached
    ? `${result.name} (${result.evaluation}): ${numbers}`
    : `${result.name} (${result.evaluation}): no threshold reaches precision ${target}; the closest, ${numbers}`;
}

function formatTable(result: SeriesResult): string {
  const rows = result.table.map((p) => {
    const mark = p.threshold === result.threshold.threshold ? "*" : " ";
    return `${mark} ${p.threshold.toFixed(3).padStart(9)}  ${(p.hits === 0 ? "-" : p.precision.toFixed(3)).padStart(9)}  ${p.recall.toFixed(3).padStart(6)}  ${String(p.hits).padStart(5)}`;
  });
  return [`  threshold  precision  recall   hits`, ...rows].join("\n") + "\n";
}
