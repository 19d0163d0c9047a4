/**
 * Chooses the judge's lexical vetoes (src/similarity/lexical-vetoes.json) on TUNE splits only, from the text
 * of the pairs (no embeddings needed): every candidate of src/similarity/alignment.ts is tried on the
 * hard-pair tune split (bench/quality/hard-pairs.json) and on QQP tune pairs 0-59,999, and kept when what it
 * stops is mostly different questions on the hard pairs (written to tell minimal pairs from paraphrases), and
 * more often different questions than QQP's pairs are at large (QQP's labels are loose: "good tips" / "smart
 * tips" is a duplicate there, so a veto only has to be informative on it). The hard pairs drop a veto only when it
 * stops at least `--min-hard-paraphrases` of their paraphrases: one paraphrase stopped tells nothing of its precision.
 *
 *   npx tsx scripts/fit-vetoes.ts [--hard-precision 0.75] [--qqp-margin 0.02] [--min-hard-paraphrases 2]
 *
 * A veto's precision is the share of the pairs it fires on that are different questions. The file records
 * the digest of the word lists and the lexicon the choice was made with; tests/similarity/lexical-vetoes.test.ts
 * fails when either changes without a new run.
 */
import { writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { parseArgs } from "../bench/lib/args.js";
import { loadQqp, qqpSplits } from "../bench/quality/data.js";
import { loadHardPairs } from "../bench/quality/hard-pairs.js";
import { alignQuestions, ALIGNMENT_VETOES, type AlignmentVeto } from "../src/similarity/alignment.js";
import { lexicalListsDigest } from "../src/similarity/lexical-vetoes.js";

const args = parseArgs();
const HARD_PRECISION = args.number("hard-precision", 0.75);
const QQP_MARGIN = args.number("qqp-margin", 0.02);
const MIN_HARD_PARAPHRASES = args.number("min-hard-paraphrases", 2);
const OUT = fileURLToPath(new URL("../src/similarity/lexical-vetoes.json", import.meta.url));

interface Fired {
  same: number;
  different: number;
}

/** How often each candidate fires on pairs of the same question and on different ones. */
function firings(pairs: ReadonlyArray<{ a: string; b: string; same: boolean }>): Record<AlignmentVeto, Fired> {
  const counts = Object.fromEntries(ALIGNMENT_VETOES.map((name) => [name, { same: 0, different: 0 }])) as Record<AlignmentVeto, Fired>;
  for (const { a, b, same } of pairs) {
    const alignment = alignQuestions(a, b);
    for (const name of ALIGNMENT_VETOES) if (alignment[name]) counts[name][same ? "same" : "different"]++;
  }
  return counts;
}

const precision = ({ same, different }: Fired) => (same + different === 0 ? 1 : different / (same + different));
/** Whether the hard pairs keep a veto: too few paraphrases stopped to tell, or precise enough. */
const hardKeeps = (fired: Fired) => fired.same < MIN_HARD_PARAPHRASES || precision(fired) >= HARD_PRECISION;

const hard = loadHardPairs("tune");
const qqp = qqpSplits(loadQqp()).tune.map((pair) => ({ a: pair.text_a, b: pair.text_b, same: pair.label === 1 }));
const onHard = firings(hard);
const onQqp = firings(qqp);
const qqpDifferent = qqp.filter((pair) => !pair.same).length / qqp.length;
const QQP_PRECISION = qqpDifferent + QQP_MARGIN;
console.log(`QQP tune: ${qqp.length} pairs, ${(qqpDifferent * 100).toFixed(1)}% different; a veto needs precision >= ${QQP_PRECISION.toFixed(3)} there`);
const vetoes = ALIGNMENT_VETOES.filter((name) => hardKeeps(onHard[name]) && precision(onQqp[name]) >= QQP_PRECISION);
for (const name of ALIGNMENT_VETOES) {
  const kept = vetoes.includes(name) ? "kept" : "dropped";
  console.log(
    `${name.padEnd(18)} hard tune ${onHard[name].different} different / ${onHard[name].same} same (precision ${precision(onHard[name]).toFixed(3)}); ` +
      `QQP tune ${onQqp[name].different} / ${onQqp[name].same} (${precision(onQqp[name]).toFixed(3)}): ${kept}`,
  );
}
const output = {
  vetoes,
  listsDigest: lexicalListsDigest(),
  fitted: {
    data: ["bench/quality/hard-pairs.json tune split", "qqp-pairs-80k.json tune split (pairs 0-59,999)"],
    minPrecision: { hardPairs: HARD_PRECISION, qqp: Number(QQP_PRECISION.toFixed(4)), qqpDifferentShare: Number(qqpDifferent.toFixed(4)) },
    minHardParaphrases: MIN_HARD_PARAPHRASES,
    firings: Object.fromEntries(ALIGNMENT_VETOES.map((name) => [name, { hardPairs: onHard[name], qqp: onQqp[name] }])),
  },
};
writeFileSync(OUT, `${JSON.stringify(output, null, 2)}\n`);
console.log(`fit-vetoes: ${vetoes.join(", ") || "none"} -> ${OUT}`);
