/**
 * Long dialogues as cache keys: summarizeContext runs a LangChain chain (prompt | model | StringOutputParser)
 * over the earlier turns, and the cache keys on "SUMMARY: ...\nUSER: <question>". Two travellers who said
 * the same things in other words get the same answer from the cache; a different trip goes to the model.
 * Run: npx tsx examples/langchain-summarised-context.ts (against OpenAI when OPENAI_API_KEY is set).
 */
import { AIMessage, HumanMessage, SystemMessage } from "@langchain/core/messages";
import { StringOutputParser } from "@langchain/core/output_parsers";
import { ChatPromptTemplate } from "@langchain/core/prompts";
// In your project: import { ... } from "langchain-semcache";
import { Cache, Config, DistanceEvaluation, managerFactory, summarizeContext } from "../src/index.js";
import { CachedChatModel } from "../src/langchain/index.js";
import { outcome } from "./support/print.js";
import { askedText, openProvider } from "./support/provider.js";
import { runExample } from "./support/run.js";

/**
 * The summary decides what "the same gist" means. DEFAULT_SUMMARY_PROMPT is a general one; this one asks for
 * the facts an itinerary depends on, in a fixed form, so equal plans give equal keys whatever the wording.
 */
const SUMMARY_PROMPT = ChatPromptTemplate.fromMessages([
  [
    "system",
    "Summarise the traveller's plans in the conversation below as one line of the form " +
      "`destination: <country>; month: <month>; budget: <low|medium|high>`. Reply with that line only.",
  ],
  ["human", "{dialogue}"],
]);

const FACTS = { destination: ["Japan", "Italy"], month: ["April", "May"], budget: { low: /small|cheap|hostel|tight/i } };

/** The fake model: a rule-based summariser, and a travel agent that knows two itineraries. */
function fakeReply(body: Record<string, unknown>): string {
  const text = askedText(body);
  const system = String((body.messages as Array<{ content: unknown }>)[0]?.content);
  const find = (names: string[]) => names.find((name) => text.includes(name)) ?? "unknown";
  if (system.startsWith("Summarise the traveller's plans")) {
    const budget = FACTS.budget.low.test(text) ? "low" : "medium";
    return `destination: ${find(FACTS.destination)}; month: ${find(FACTS.month)}; budget: ${budget}`;
  }
  const conversation = JSON.stringify(body.messages);
  return conversation.includes("Japan")
    ? "Start in Tokyo: three days, then the rail pass to Kyoto for the cherry blossom."
    : "Start in Rome: three days, then a regional train to Florence.";
}

const tripA = [
  new SystemMessage("You are a travel agent."),
  new HumanMessage("Hi! I'm planning a trip to Japan and I want to see as much as I can."),
  new AIMessage("Great, when are you going?"),
  new HumanMessage("In April, for the cherry blossom. My budget is small, so hostels."),
  new AIMessage("Noted."),
  new HumanMessage("Which city should we visit first?"),
];
const tripB = [
  new SystemMessage("You are a travel agent."),
  new HumanMessage("Hello there, I am going to Japan soon, my first time abroad."),
  new HumanMessage("It will be April. Cheap food and hostels are what I can afford, honestly."),
  new HumanMessage("Which city should we visit first?"),
];
const tripItaly = [
  new SystemMessage("You are a travel agent."),
  new HumanMessage("Hello there, I am going to Italy soon, my first time abroad."),
  new HumanMessage("It will be May. Cheap food and hostels are what I can afford, honestly."),
  new HumanMessage("Which city should we visit first?"),
];

await runExample(async ({ defer, tempDir }) => {
  const provider = await openProvider({ reply: fakeReply });
  defer(() => provider.close());
  console.log(provider.description);

  let summaries = 0;
  const summariser = SUMMARY_PROMPT.pipe(provider.chatModel({ temperature: 0 }))
    .pipe(new StringOutputParser())
    .withListeners({ onEnd: () => void summaries++ });

  // Dialogues over 120 characters are keyed on a summary of their earlier turns plus the question.
  const keyOf = summarizeContext({ runnable: summariser, maxLength: 120 });
  const cache = await new Cache().init({
    preEmbeddingFunc: keyOf,
    embeddingFunc: provider.embeddings(),
    dataManager: managerFactory("sqlite,hnswlib", { dataDir: tempDir() }),
    similarityEvaluation: new DistanceEvaluation(),
    // Strict: two different trips share most words of their summaries.
    config: new Config({ similarityThreshold: 0.97 }),
  });
  defer(() => cache.close());
  // The key is the summary of the whole dialogue, so the earlier turns may differ in wording: share across them.
  const agent = new CachedChatModel({ model: provider.chatModel(), cache, shareAcrossContexts: true });

  const dialogues = [
    ["trip A (Japan, April, small budget)", tripA],
    ["trip B (the same plans, other words)", tripB],
    ["trip C (Italy, May)", tripItaly],
    ["trip A again", tripA],
  ] as const;
  for (const [name, dialogue] of dialogues) {
    const [callsBefore, summariesBefore] = [provider.modelCalls(), summaries];
    const answer = await agent.invoke(dialogue);
    const summarised = summaries - summariesBefore;
    const answered = provider.modelCalls() - callsBefore - summarised;
    console.log(`${name}: ${outcome(answer.response_metadata)}`);
    // The key the cache used (summaries are remembered by the turns they summarise: this costs no call).
    const key = await keyOf({ messages: dialogue }, { config: cache.config });
    console.log(`  key: ${JSON.stringify(key)}`);
    console.log(`  summariser calls: ${summarised}, answering-model calls: ${answered}; answer: ${answer.content}`);
  }
  console.log(`report: ${cache.report.hits} hits, ${cache.report.misses} misses`);
});
