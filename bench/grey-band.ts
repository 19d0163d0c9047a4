/**
 * What verification in the grey band costs and what it can give: the preset's judge (at its threshold) with
 * and without a GreyBandEvaluation around it, on the hard pairs' and QQP's REPORT splits, each pair judged as a
 * one-entry cache judges it (`b` stored, `a` asked; bench/quality/hard-pairs.ts). The verifier is an oracle that
 * answers by the pair's label, so the figures are the band's ceiling (a real model errs) and its exact call
 * count; each call's tokens are the default prompt's, counted as OpenAI counts chat tokens (o200k_base, plus
 * 3 per message and 3 to prime the reply), and reach the stats through the evaluation's usage_metadata path.
 *
 *   npx tsx bench/grey-band.ts [-- --qqp 10000 --input-price 0.15 --output-price 0.6]
 *
 * Prices are USD per million tokens (defaults: gpt-4o-mini's list price when this was written); cost = tokens x
 * your price. Writes bench/results/grey-band.json.
 */
import { AIMessage, type BaseMessage } from "@langchain/core/messages";
import type { ChatPromptValue } from "@langchain/core/prompt_values";
import { RunnableLambda } from "@langchain/core/runnables";
import { Tiktoken } from "js-tiktoken/lite";
import o200k from "js-tiktoken/ranks/o200k_base";
import { GreyBandEvaluation } from "../src/similarity/grey-band.js";
import { DEFAULT_PRESET_THRESHOLD, presetEvaluation } from "../src/similarity/preset.js";
import { parseArgs } from "./lib/args.js";
import { environment, fraction, saveResult, table } from "./lib/output.js";
import { loadQqp, qqpSplits } from "./quality/data.js";
import { EmbeddingCache, fillUseCache } from "./quality/embedding-cache.js";
import { hitCounts, loadHardPairs, scoreHardPairs, type HardPair } from "./quality/hard-pairs.js";

const args = parseArgs();
const QQP_PAIRS = args.number("qqp", 10_000);
const INPUT_PRICE = args.number("input-price", 0.15);
const OUTPUT_PRICE = args.number("output-price", 0.6);
const THRESHOLD = DEFAULT_PRESET_THRESHOLD;
/** Bands around the preset's threshold: below it they rescue paraphrases, above it they vet hits. */
const BANDS: Array<[number, number]> = [
  [0.45, THRESHOLD],
  [0.3, THRESHOLD],
  [THRESHOLD, 0.75],
  [0.3, 0.75],
];

const encoder = new Tiktoken(o200k);
const chatTokens = (messages: BaseMessage[]) => messages.reduce((sum, message) => sum + 3 + encoder.encode(String(message.content)).length, 3);

/** A verifier that knows the answer: yes when the pair's label says the two questions share an answer. */
function oracle(pairs: readonly HardPair[]) {
  const same = new Map(pairs.map((pair) => [`Question 1: ${pair.a}\nQuestion 2: ${pair.b}`, pair.same]));
  return RunnableLambda.from((prompt: ChatPromptValue) => {
    const messages = prompt.toChatMessages();
    const verdict = same.get(String(messages.at(-1)?.content));
    if (verdict === undefined) throw new Error("the oracle was asked about a pair it does not know");
    return new AIMessage({
      content: verdict ? "yes" : "no",
      usage_metadata: { input_tokens: chatTokens(messages), output_tokens: 1, total_tokens: chatTokens(messages) + 1 },
    });
  });
}

interface Row {
  data: string;
  band: string;
  pairs: number;
  verifierCalls: number;
  callsPerThousand: number;
  promptTokensPerCall: number;
  costPerThousandLookups: number;
  paraphraseHitRate: number;
  falseHitRate: number;
}

async function measure(data: string, pairs: HardPair[], vectors: EmbeddingCache): Promise<Row[]> {
  const rate = (scores: number[]) => hitCounts(pairs, scores, THRESHOLD);
  const plain = rate(await scoreHardPairs(pairs, presetEvaluation(), vectors));
  const rows: Row[] = [
    {
      data,
      band: `none (threshold ${THRESHOLD})`,
      pairs: pairs.length,
      verifierCalls: 0,
      callsPerThousand: 0,
      promptTokensPerCall: 0,
      costPerThousandLookups: 0,
      paraphraseHitRate: plain.paraphraseHitRate,
      falseHitRate: plain.falseHitRate,
    },
  ];
  for (const [lower, upper] of BANDS) {
    const band = new GreyBandEvaluation({ evaluation: presetEvaluation(), verifier: oracle(pairs), lower, upper });
    const counts = rate(await scoreHardPairs(pairs, band, vectors));
    const { verified, failed, promptTokens, completionTokens } = band.stats;
    if (failed > 0) throw new Error(`${failed} verifications failed`);
    const cost = (promptTokens * INPUT_PRICE + completionTokens * OUTPUT_PRICE) / 1e6;
    rows.push({
      data,
      band: `[${lower}, ${upper})`,
      pairs: pairs.length,
      verifierCalls: verified,
      callsPerThousand: (verified / pairs.length) * 1000,
      promptTokensPerCall: verified === 0 ? 0 : promptTokens / verified,
      costPerThousandLookups: (cost / pairs.length) * 1000,
      paraphraseHitRate: counts.paraphraseHitRate,
      falseHitRate: counts.falseHitRate,
    });
  }
  return rows;
}

const hard = loadHardPairs("report");
const qqp: HardPair[] = qqpSplits(loadQqp())
  .report.slice(0, QQP_PAIRS)
  .filter((pair) => pair.text_a !== pair.text_b)
  .map((pair) => ({ a: pair.text_b, b: pair.text_a, same: pair.label === 1, category: "qqp", split: "report" }));
const vectors = new EmbeddingCache("use", 512);
await fillUseCache(vectors, [...hard, ...qqp].flatMap((pair) => [pair.a, pair.b]));

const rows = [...(await measure("hard pairs (report)", hard, vectors)), ...(await measure(`QQP report, first ${QQP_PAIRS}`, qqp, vectors))];
console.log(
  table(
    ["data", "band", "verifier calls / 1,000 lookups", "prompt tokens / call", `USD / 1,000 lookups (${INPUT_PRICE}/${OUTPUT_PRICE} per M)`, "paraphrases served", "different pairs served"],
    rows.map((row) => [
      row.data,
      row.band,
      row.callsPerThousand.toFixed(0),
      row.promptTokensPerCall.toFixed(0),
      row.costPerThousandLookups.toFixed(4),
      `${(row.paraphraseHitRate * 100).toFixed(0)}%`,
      `${(row.falseHitRate * 100).toFixed(0)}%`,
    ]),
  ),
);
saveResult("grey-band", {
  environment: environment(),
  threshold: THRESHOLD,
  prices: { inputPerMillion: INPUT_PRICE, outputPerMillion: OUTPUT_PRICE },
  rows: rows.map((row) => ({ ...row, paraphraseHitRate: Number(fraction(row.paraphraseHitRate)), falseHitRate: Number(fraction(row.falseHitRate)) })),
});
