/**
 * The cache's similarity evaluations are LangChain Runnables: invoke, batch and pipe them in your own
 * pipelines. Here they deduplicate a list of questions: the nearest earlier question by embedding, then an
 * LLM judge decides whether the two really ask the same thing.
 * Run: npx tsx examples/langchain-evaluator.ts (against OpenAI when OPENAI_API_KEY is set).
 */
// In your project: import { ... } from "langchain-semcache";
import { DistanceEvaluation, EmbeddingDistanceEvaluation, LLMJudgeEvaluation } from "../src/index.js";
import { askedText, openProvider } from "./support/provider.js";
import { runExample } from "./support/run.js";

const FILLER = new Set(["what", "is", "the", "how", "do", "i", "to", "please", "a", "of"]);
const gist = (text: string) => [...new Set((text.toLowerCase().match(/[a-z0-9%]+/g) ?? []).filter((word) => !FILLER.has(word)))].sort().join(" ");

/** The fake judge's rule: "yes" when both questions have the same content words. */
function fakeJudge(body: Record<string, unknown>): string {
  const [, first = "", second = ""] = /^Question 1: (.*)\nQuestion 2: (.*)$/s.exec(askedText(body)) ?? [];
  return gist(first) === gist(second) ? "yes" : "no";
}

/** Below this embedding score two questions are not worth a judge call. */
const WORTH_JUDGING = 0.3;

const QUESTIONS = [
  "How do I install numpy?",
  "how to install numpy please",
  "How do I uninstall numpy?",
  "What is the capital of France?",
  "capital of france?",
  "What is 15% of 80?",
  "What is 20% of 80?",
];

await runExample(async ({ defer }) => {
  const provider = await openProvider({ reply: fakeJudge });
  defer(() => provider.close());
  console.log(provider.description);
  const embeddings = provider.embeddings();

  // DistanceEvaluation scores two embeddings the caller already has (as the cache's hit path does).
  console.log("\n# invoke: one pair, three evaluations (scores normalised to [0, 1])");
  const [first, second] = ["How do I install numpy?", "How do I uninstall numpy?"];
  const [a, b] = (await embeddings.embedDocuments([first, second])).map((vector) => Float32Array.from(vector));
  const distance = await new DistanceEvaluation().invoke({ src: { question: first, embedding: a }, cached: { question: second, answer: "", embedding: b } });
  const byEmbedding = new EmbeddingDistanceEvaluation({ embeddings });
  const judge = new LLMJudgeEvaluation({ model: provider.chatModel({ temperature: 0 }) });
  const pair = { question: first, cachedQuestion: second };
  console.log(`${JSON.stringify(first)} vs ${JSON.stringify(second)}`);
  console.log(`  DistanceEvaluation ${distance.toFixed(3)}, EmbeddingDistanceEvaluation ${(await byEmbedding.invoke(pair)).toFixed(3)}, LLMJudgeEvaluation ${await judge.invoke(pair)}`);

  // pipe: a judge whose score becomes a decision.
  const sameQuestion = judge.pipe((score: number) => score >= 0.5);

  console.log("\n# batch + pipe: deduplicate a list of questions");
  const kept: string[] = [];
  for (const question of QUESTIONS) {
    // The nearest kept question by embedding (one batch), then at most one judge call, on that pair.
    const scores = await byEmbedding.batch(kept.map((cachedQuestion) => ({ question, cachedQuestion })));
    const best = scores.indexOf(Math.max(...scores));
    const nearest = scores[best] >= WORTH_JUDGING ? kept[best] : undefined;
    const duplicate = nearest !== undefined && (await sameQuestion.invoke({ question, cachedQuestion: nearest }));
    if (duplicate) console.log(`  drop ${JSON.stringify(question)}: same as ${JSON.stringify(nearest)} (embedding ${scores[best].toFixed(3)})`);
    else {
      const why = nearest === undefined ? "" : ` (nearest ${JSON.stringify(nearest)}, embedding ${scores[best].toFixed(3)}, judge: not the same)`;
      console.log(`  keep ${JSON.stringify(question)}${why}`);
      kept.push(question);
    }
  }
  console.log(`kept ${kept.length} of ${QUESTIONS.length}: ${JSON.stringify(kept)}`);
  console.log(`judge model calls: ${provider.modelCalls()}`);
});
