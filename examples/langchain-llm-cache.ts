/**
 * LangChain's own cache slot: `new ChatOpenAI({ cache: new SemanticCache({ cache }) })`, for chat models and
 * LLMs, first as an exact-match cache, then a semantic one that answers a reworded question.
 * Run: npx tsx examples/langchain-llm-cache.ts (against OpenAI when OPENAI_API_KEY is set).
 */
import { HumanMessage, SystemMessage } from "@langchain/core/messages";
// In your project: import { ... } from "langchain-semcache";
import { Cache, Config, DistanceEvaluation, managerFactory } from "../src/index.js";
import { SemanticCache, llmKeyPartition } from "../src/langchain/index.js";
import { ms, outcome, timed } from "./support/print.js";
import { cannedReply, openProvider } from "./support/provider.js";
import { runExample } from "./support/run.js";

/** What the fake model knows (OpenAI answers for itself). */
const ANSWERS = [
  [/capital.*france/i, "Paris is the capital of France."],
  [/haiku/i, "An old silent pond / a frog jumps into the pond / splash! Silence again."],
  [/sourdough/i, "Feed a starter, mix, stretch and fold, proof overnight, bake hot."],
] as const;

await runExample(async ({ defer, tempDir }) => {
  const provider = await openProvider({ reply: cannedReply(ANSWERS) });
  defer(() => provider.close());
  console.log(provider.description);

  // 1. Exact match in memory: the zero-config Cache. A repeat is answered without a model call.
  const exact = await new Cache().init();
  defer(() => exact.close());
  // provider.chatModel(fields) is `new ChatOpenAI(fields)` (aimed at the fake server when there is no key).
  const chat = provider.chatModel({ cache: new SemanticCache({ cache: exact }) });
  console.log("\n# Chat model, exact match");
  for (const attempt of ["first ask", "same again"]) {
    const [message, took] = await timed(() => chat.invoke("What is the capital of France?"));
    console.log(`${attempt}: ${outcome(message.response_metadata)} in ${ms(took)}: ${message.content}`);
    console.log(`  usage: ${JSON.stringify(message.usage_metadata)}`);
  }
  // The question is matched within its context: another system prompt can change the answer, so it misses.
  const pirate = await chat.invoke([new SystemMessage("Answer like a pirate."), new HumanMessage("What is the capital of France?")]);
  console.log(`another system prompt, same question: ${outcome(pirate.response_metadata)}`);
  console.log(`model calls so far: ${provider.modelCalls()}`);

  // 2. A text-completion LLM: the same cache object serves it, in its own partition.
  console.log("\n# LLM (completions), exact match");
  const llm = provider.llm({ cache: new SemanticCache({ cache: exact }) });
  const [poem, missTook] = await timed(() => llm.invoke("Write a haiku about a pond."));
  console.log(`first ask: MISS in ${ms(missTook)}: ${poem.trim()}`);
  const [result, hitTook] = await timed(() => llm.generate(["Write a haiku about a pond."]));
  console.log(`same again: ${outcome(result.generations[0][0].generationInfo)} in ${ms(hitTook)}`);
  console.log(`model calls so far: ${provider.modelCalls()}`);

  // 3. Semantic: OpenAIEmbeddings, SQLite + an HNSW index in a folder, cosine similarity >= 0.9.
  console.log("\n# Chat model, semantic cache");
  const semantic = await new Cache().init({
    embeddingFunc: provider.embeddings(),
    dataManager: managerFactory("sqlite,hnswlib", { dataDir: tempDir() }),
    similarityEvaluation: new DistanceEvaluation(),
    config: new Config({ similarityThreshold: 0.9 }),
  });
  defer(() => semantic.close());
  const semanticCache = new SemanticCache({ cache: semantic });
  const model = provider.chatModel({ cache: semanticCache });
  const before = provider.modelCalls();
  for (const question of ["What is the capital city of France?", "What is the capital of France?", "How do I bake sourdough bread at home?"]) {
    const [message, took] = await timed(() => model.invoke(question));
    console.log(`${JSON.stringify(question)}: ${outcome(message.response_metadata)} in ${ms(took)}`);
  }
  console.log(`model calls for 3 questions: ${provider.modelCalls() - before}`);

  // 4. Partitions: another model never shares answers (the llmKey, without its secrets, is the partition).
  console.log("\n# Partitioned by model");
  const other = provider.chatModel({ model: "gpt-4o-mini", cache: semanticCache });
  console.log(`partition: ${llmKeyPartition(other._getSerializedCacheKeyParametersForCall({})).llm_key}`);
  for (const attempt of ["gpt-4o-mini, first ask", "gpt-4o-mini, same again"]) {
    const message = await other.invoke("What is the capital city of France?");
    console.log(`${attempt}: ${outcome(message.response_metadata)}`);
  }
  console.log(`report: ${semantic.report.hits} hits, ${semantic.report.misses} misses; model calls in all: ${provider.modelCalls()}`);
});
