import { spawn } from "node:child_process";
import { readdirSync } from "node:fs";
import { fileURLToPath } from "node:url";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));
const EXAMPLES = fileURLToPath(new URL("../../examples", import.meta.url));

/** Lines each example must print when it runs against the local fake model (in order). */
const EXPECTED: Record<string, RegExp[]> = {
  "langchain-llm-cache.ts": [
    /^first ask: MISS .*Paris is the capital of France\.$/m,
    /^same again: HIT \(score 1\.000, entry \d+\) .*Paris/m,
    /^ {2}usage: \{"input_tokens":0,"output_tokens":0,"total_tokens":0\}$/m,
    /^another system prompt, same question: MISS/m,
    /^model calls so far: 2$/m,
    /^same again: HIT .* ms$/m, // the LLM's repeat
    /^"What is the capital of France\?": HIT \(score 0\.9\d\d, /m,
    /^"How do I bake sourdough bread at home\?": MISS/m,
    /^model calls for 3 questions: 2$/m,
    /^partition: \{"_model":"base_chat_model","_type":"openai","model":"gpt-4o-mini","model_name":"gpt-4o-mini"\}$/m,
    /^gpt-4o-mini, first ask: MISS/m,
    /^gpt-4o-mini, same again: HIT/m,
  ],
  "langchain-chat-model.ts": [
    /^same again: HIT \(score 1\.000, entry \d+\) in .* usage \{"input_tokens":0,"output_tokens":0,"total_tokens":0\}$/m,
    /^first ask: MISS \(the model answered\), \d+ chunks: \["Jupiter ","is ",/m,
    /^same again: HIT \(score 1\.000, entry \d+\), 3 chunks: \["Jupiter is the ","largest planet in ","the solar system\."\]$/m,
    /^model calls for this batch of 3: 2$/m,
    /^alice: MISS.*\nalice again: MISS.*\nbob: HIT.*\nalice after drop\(\): HIT/m,
    /^cacheSkip \(ask the model, store its answer\): MISS/m,
    /^searchOnly, cached question: HIT/m,
    /^searchOnly, new question: NOT CACHED \(searchOnly: no model call\), content ""$/m,
    /^model calls: 7$/m,
  ],
  "langchain-summarised-context.ts": [
    /^trip A \(Japan, April, small budget\): MISS/m,
    /^ {2}key: "SUMMARY: destination: Japan; month: April; budget: low\\nUSER: Which city should we visit first\?"$/m,
    /^trip B \(the same plans, other words\): HIT/m,
    /^ {2}summariser calls: 1, answering-model calls: 0; answer: Start in Tokyo/m,
    /^trip C \(Italy, May\): MISS/m,
    /^ {2}summariser calls: 1, answering-model calls: 1; answer: Start in Rome/m,
    /^trip A again: HIT/m,
    /^ {2}summariser calls: 0, answering-model calls: 0; answer: Start in Tokyo/m,
  ],
  "langchain-evaluator.ts": [
    /DistanceEvaluation 0\.\d{3}, EmbeddingDistanceEvaluation 0\.\d{3}, LLMJudgeEvaluation 0$/m,
    /^ {2}drop "how to install numpy please": same as "How do I install numpy\?"/m,
    /^ {2}keep "How do I uninstall numpy\?" \(nearest "How do I install numpy\?", .*judge: not the same\)$/m,
    /^ {2}drop "capital of france\?": same as "What is the capital of France\?"/m,
    /^ {2}keep "What is 20% of 80\?"/m,
    /^kept 5 of 7: /m,
  ],
  "openai-chat.ts": [
    /^first ask: MISS \(the model answered\) in .*: Paris is the capital of France\.$/m,
    /^same again: HIT \(score 1\.000, entry \d+\) in .*\n {2}usage: \{"prompt_tokens":0,"completion_tokens":0,"total_tokens":0\}$/m,
    /^first ask: MISS \(the model answered\), 9 pieces: \["Jupiter ",/m,
    /^same again: HIT \(score 1\.000, entry \d+\), 3 pieces: \["Jupiter is the ","largest planet in ","the solar system\."\]$/m,
    /^cache_skip \(ask the model, store its answer\): MISS/m,
    /^session alice, first ask: MISS.*\nsession alice, asking again \(wants a new answer\): MISS.*\nsession bob: HIT/m,
    /^temperature 2 \(never reads the cache\): MISS/m,
    /^search_only, a new question: null \(no model call\)$/m,
    /^gpt-4o-mini: MISS.*\ngpt-4o: MISS.*\ngpt-4o-mini again: HIT/m,
    /^first ask: MISS .*: a local answer \(device: cpu\)\nsame again: HIT .*: a local answer \(device: cpu\)$/m,
    /^max-age=0: MISS\nno-store: HIT \(score 1, entry \d+\)\nstream: HIT, known before the first chunk is read$/m,
    /^provider calls: 9$/m,
  ],
  "openai-media.ts": [
    /^first ask \(b64_json\): MISS .*, \d+ bytes$/m,
    /^same again \(b64_json\): HIT \(score 1\.000, entry \d+\) in .*, same bytes: true$/m,
    /^same again \(url\): HIT .*, a link to the stored copy: file:\/\/\//m,
    /^another size: MISS/m,
    /^first ask: MISS .*: Caching saves both time and money\.\nsame bytes, another name: HIT .*: Caching saves both time and money\.$/m,
    /^first ask: MISS .*, flagged: true\nsame again: HIT .*, flagged: true$/m,
    /^the lighthouse picture: MISS.*\nthe same picture, same question: HIT.*\nanother picture, same question: MISS/m,
    /^provider calls: 6$/m,
  ],
};

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs an example as users do (tsx), without an OpenAI key, so it talks to the local fake model. */
function runExample(file: string): Promise<Run> {
  const env = { ...process.env };
  delete env.OPENAI_API_KEY;
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ["--import", "tsx", `${EXAMPLES}/${file}`], { cwd: ROOT, env, stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk: Buffer) => (stdout += chunk));
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk));
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, stdout, stderr }));
  });
}

const examples = readdirSync(EXAMPLES).filter((name) => /^(?:langchain|openai)-.*\.ts$/.test(name)).sort();

describe("LangChain and OpenAI SDK examples (run as child processes against the local fake model)", () => {
  it("every langchain-*.ts and openai-*.ts example has expectations here", () => {
    expect(examples).toEqual(Object.keys(EXPECTED).sort());
  });

  it.each(examples)("%s exits 0 and prints what happened", async (file) => {
    const run = await runExample(file);
    if (run.code !== 0) throw new Error(`${file} exited with ${run.code}:\n${run.stderr}\n${run.stdout}`);
    expect(run.stdout).toMatch(/^Model: a local fake OpenAI server/);
    let rest = run.stdout;
    for (const line of EXPECTED[file]) {
      const match = line.exec(rest);
      if (!match) throw new Error(`${file}: no line matching ${line} after the earlier ones in:\n${run.stdout}`);
      rest = rest.slice(match.index + match[0].length);
    }
    expect(run.stderr).toBe("");
  }, 60_000);
});

describe("quickstart (the README's first command)", () => {
  it("runs on the embedded default: an exact repeat and a reworded question hit, another question misses", async () => {
    const run = await runExample("quickstart.ts");
    if (run.code !== 0) throw new Error(`quickstart.ts exited with ${run.code}:\n${run.stderr}\n${run.stdout}`);
    expect(run.stdout).toMatch(/How can I reset my password\?\s+-> \(model\) an answer to: How do I reset my password\?/);
    expect(run.stdout).toMatch(/What is the capital of France\?\s+-> \(model\) an answer to: What is the capital of France\?/);
    expect(run.stdout).toMatch(/report: \{ hits: 2, misses: 2 \}/);
  }, 60_000);
});
