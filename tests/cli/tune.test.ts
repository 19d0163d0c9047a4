import { execFile } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { PrecisionGuardEvaluation } from "../../src/similarity/precision-guard.js";

const run = promisify(execFile);

/** Paraphrases (1) and near misses the guard exists for (0): numbers, names, negation, opposite actions. */
const SAME: Array<[string, string]> = [
  ["How do I install Python on Windows?", "What is the way to install Python on Windows?"],
  ["How can I lose weight fast?", "What is the fastest way to lose weight?"],
  ["What is the capital of France?", "Which city is the capital of France?"],
  ["How do I reset my password?", "How can I reset my password?"],
  ["What are the benefits of drinking water?", "What are the health benefits of drinking water?"],
  ["How do I learn to code?", "What is the best way to learn coding?"],
  ["Why is the sky blue?", "What makes the sky blue?"],
  ["How do I make pancakes?", "What is a good way to make pancakes?"],
  ["How can I improve my English?", "How do I get better at English?"],
  ["What is machine learning?", "Can you explain what machine learning is?"],
  ["How do I cook rice?", "What is the best way to cook rice?"],
  ["How do I start a small business?", "How can I start my own small business?"],
  ["What causes earthquakes?", "Why do earthquakes happen?"],
  ["How do I change a flat tyre?", "How can I change a flat tyre?"],
  ["How do I delete my Facebook account?", "How can I delete my Facebook account?"],
];
const DIFFERENT: Array<[string, string]> = [
  ["How do I install Python on Windows?", "How do I uninstall Python on Windows?"],
  ["What is 2 plus 3?", "What is 2 plus 4?"],
  ["What is the capital of France?", "What is the capital of Germany?"],
  ["Is coffee good for health?", "Is coffee not good for health?"],
  ["How do I enable dark mode?", "How do I disable dark mode?"],
  ["What is the population of India in 2010?", "What is the population of India in 2020?"],
  ["Who is the president of the United States?", "Who is the president of Brazil?"],
  ["How do I log in to Gmail?", "How do I log out of Gmail?"],
  ["Can dogs eat chocolate?", "Can dogs not eat chocolate?"],
  ["How many legs does a spider have?", "How many eyes does a spider have?"],
  ["How do I lose weight?", "How do I gain weight?"],
  ["What is the best laptop under 500 dollars?", "What is the best laptop under 1000 dollars?"],
  ["How do I learn Java?", "How do I learn Python?"],
  ["How do I open a bank account in London?", "How do I close a bank account in London?"],
  ["What time is it in Tokyo?", "What time is it in Paris?"],
];

describe("semcache tune", () => {
  let dir: string;
  let pairsFile: string;

  const semcache = async (...args: string[]) => {
    try {
      const { stdout, stderr } = await run(process.execPath, ["--import", "tsx", "src/cli/index.ts", ...args], { cwd: process.cwd() });
      return { code: 0, stdout, stderr };
    } catch (error) {
      const failed = error as { code: number; stdout: string; stderr: string };
      return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr };
    }
  };
  const write = (name: string, content: string) => {
    const file = join(dir, name);
    writeFileSync(file, content);
    return file;
  };

  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), "semcache-tune-"));
    const pairs = [
      ...SAME.map(([text_a, text_b]) => ({ text_a, text_b, label: 1 })),
      ...DIFFERENT.map(([text_a, text_b]) => ({ text_a, text_b, label: 0 })),
    ];
    pairsFile = write("pairs.json", JSON.stringify(pairs));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it("prints thresholds and a precision / recall table for bare distance and the shipped guard, and writes the plot", async () => {
    const out = join(dir, "curve.svg");
    const json = join(dir, "result.json");
    const result = await semcache("tune", pairsFile, "--precision", "0.8", "--out", out, "--json", json);
    // 60 texts, 2 of them shared by two pairs: each distinct text is embedded once.
    expect(result.stderr).toMatch(/embedding 58\/58 texts/);
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/30 pairs \(15 same, 15 different\); target precision 0\.8/);
    expect(result.stdout).toMatch(/^distance \(DistanceEvaluation\): .*threshold [\d.]+ gives precision/m);
    expect(result.stdout).toMatch(/^shipped guard \(PrecisionGuardEvaluation\(\)\): /m);
    expect(result.stdout).toMatch(/threshold {2}precision {2}recall {3}hits/);
    expect(result.stdout).toMatch(/^\* +[\d.]+ +[\d.]+ +[\d.]+ +\d+$/m);

    const svg = readFileSync(out, "utf8");
    expect(svg.startsWith("<svg")).toBe(true);
    expect(svg.trimEnd().endsWith("</svg>")).toBe(true);
    expect(svg.match(/<polyline /g)).toHaveLength(2);

    const summary = JSON.parse(readFileSync(json, "utf8"));
    expect(summary.series.map((s: { name: string }) => s.name)).toEqual(["distance", "shipped guard"]);
    const guard = summary.series[1].threshold;
    // The shipped guard catches these near misses: at its picked threshold it is right more often than not.
    expect(guard.precision).toBeGreaterThan(0.5);
    expect(guard.rightHits + guard.wrongHits).toBe(guard.hits);
  }, 30_000);

  it("--fit writes a guard model that PrecisionGuardEvaluation loads, with thresholds picked on the held-out fifth", async () => {
    const modelOut = join(dir, "guard.json");
    const questionForm = write(
      "pairs.jsonl",
      [...SAME.map(([a, b]) => ({ question: a, candidate: b, label: 1 })), ...DIFFERENT.map(([a, b]) => ({ question: a, candidate: b, label: 0 }))].map((p) => JSON.stringify(p)).join("\n"),
    );
    const result = await semcache("tune", questionForm, "--fit", "--model-out", modelOut, "--out", join(dir, "fit.svg"));
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/measured on the held-out fifth \(6 pairs; fitted on 24\)/);
    expect(result.stdout).toMatch(/^fitted guard /m);
    expect(result.stdout).toContain(`wrote the fitted model to ${modelOut}`);

    const model = JSON.parse(readFileSync(modelOut, "utf8"));
    const guard = new PrecisionGuardEvaluation({ model });
    expect(guard.model.embedding).toBe("use-lite-512");
    expect(model.fitted.recommendedThreshold.guard).toEqual(expect.any(Number));
    const score = guard.evaluation({ question: "How do I install Python?" }, { question: "How do I uninstall Python?", answer: "", distance: 0.1 });
    expect(score).toBeGreaterThanOrEqual(0);
    expect(score).toBeLessThanOrEqual(1);
    expect(readFileSync(join(dir, "fit.svg"), "utf8").match(/<polyline /g)).toHaveLength(3);
  }, 30_000);

  it.each([
    ["a missing file", () => join(dir, "missing.json"), /Cannot read .*missing\.json: ENOENT/],
    ["malformed JSON", () => write("bad.json", '[{"text_a": "x",'), /is not valid JSON/],
    ["wrong fields", () => write("fields.json", JSON.stringify(Array.from({ length: 12 }, (_, i) => ({ prompt: `q${i}`, label: 1 })))), /pair 1 is not \{ text_a, text_b, label \}/],
    ["fewer than 10 pairs", () => write("few.json", JSON.stringify(SAME.slice(0, 4).map(([text_a, text_b]) => ({ text_a, text_b, label: 1 })))), /has 4 pairs; tuning needs at least 10/],
    ["one label only", () => write("one.json", JSON.stringify(SAME.map(([text_a, text_b]) => ({ text_a, text_b, label: 1 })))), /has only label 1 pairs/],
  ])("exits 2 with a message, not a stack trace, on %s", async (_name, file, message) => {
    const result = await semcache("tune", file());
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(message);
    expect(result.stderr).not.toMatch(/\n\s+at /);
  }, 30_000);

  it("exits 2 with the usage on an unknown command or option, and prints help", async () => {
    const unknown = await semcache("frobnicate");
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toMatch(/Unknown command "frobnicate"[\s\S]*Usage: semcache <command>/);
    const option = await semcache("tune", pairsFile, "--bogus");
    expect(option.code).toBe(2);
    expect(option.stderr).toMatch(/Unknown option '--bogus'/);
    const help = await semcache("--help");
    expect(help.code).toBe(0);
    expect(help.stdout).toMatch(/^ {2}tune /m);
    const tuneHelp = await semcache("tune", "--help");
    expect(tuneHelp.stdout).toMatch(/--precision P/);
    expect(existsSync(join(process.cwd(), "tune-curve.svg"))).toBe(false);
  }, 30_000);
});
