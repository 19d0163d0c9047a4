/**
 * CachedChatModel: the cache in front of any LangChain chat model, for invoke, stream and batch, with
 * sessions and per-call cache options.
 * Run: npx tsx examples/langchain-chat-model.ts (against OpenAI when OPENAI_API_KEY is set).
 */
// In your project: import { ... } from "langchain-semcache";
import { Cache, Session } from "../src/index.js";
import { CachedChatModel } from "../src/langchain/index.js";
import { ms, outcome, timed } from "./support/print.js";
import { cannedReply, openProvider } from "./support/provider.js";
import { runExample } from "./support/run.js";

/** What the fake model knows (OpenAI answers for itself). */
const ANSWERS = [
  [/semantic cache/i, "A semantic cache stores answers and reuses one when a new question means the same as a stored one."],
  [/largest planet/i, "Jupiter is the largest planet in the solar system."],
  [/boiling point/i, "Water boils at 100 degrees Celsius at sea level."],
  [/speed of light/i, "About 299,792 kilometres per second."],
  [/tallest mountain/i, "Mount Everest, 8,849 metres above sea level."],
] as const;

await runExample(async ({ defer }) => {
  const provider = await openProvider({ reply: cannedReply(ANSWERS) });
  defer(() => provider.close());
  console.log(provider.description);

  const cache = await new Cache().init();
  defer(() => cache.close());
  // provider.chatModel() is `new ChatOpenAI()` (aimed at the fake server when there is no key).
  const chat = new CachedChatModel({ model: provider.chatModel(), cache });
  const calls = () => `model calls: ${provider.modelCalls()}`;

  console.log("\n# invoke");
  for (const attempt of ["first ask", "same again"]) {
    const [message, took] = await timed(() => chat.invoke("What is a semantic cache?"));
    console.log(`${attempt}: ${outcome(message.response_metadata)} in ${ms(took)}, usage ${JSON.stringify(message.usage_metadata)}`);
  }
  console.log(calls());

  console.log("\n# stream: a miss streams through from the model, a hit replays as chunks");
  for (const attempt of ["first ask", "same again"]) {
    const chunks: string[] = [];
    let marker: Record<string, unknown> | undefined;
    for await (const chunk of await chat.stream("Which is the largest planet?")) {
      chunks.push(String(chunk.content));
      marker ??= chunk.response_metadata.semcache === undefined ? undefined : chunk.response_metadata;
    }
    console.log(`${attempt}: ${outcome(marker)}, ${chunks.length} chunks: ${JSON.stringify(chunks.filter(Boolean))}`);
  }
  console.log(calls());

  console.log("\n# batch: only the misses reach the model");
  const before = provider.modelCalls();
  const answers = await chat.batch(["What is a semantic cache?", "What is the boiling point of water?", "What is the speed of light?"]);
  for (const answer of answers) console.log(`${outcome(answer.response_metadata)}: ${answer.content}`);
  console.log(`model calls for this batch of 3: ${provider.modelCalls() - before}`);

  console.log("\n# sessions: a session never hits the entry it created; others do");
  const alice = new Session({ name: "alice", cache });
  const question = "Which is the tallest mountain?";
  for (const [who, session] of [["alice", alice], ["alice again", alice], ["bob", "bob"]] as const) {
    const message = await chat.invoke(question, { session });
    console.log(`${who}: ${outcome(message.response_metadata)}`);
  }
  await alice.drop(); // forget alice's links to entries: she may hit them now
  console.log(`alice after drop(): ${outcome((await chat.invoke(question, { session: alice })).response_metadata)}`);
  console.log(calls());

  console.log("\n# per-call cache options");
  const skipped = await chat.invoke("What is a semantic cache?", { cacheSkip: true });
  console.log(`cacheSkip (ask the model, store its answer): ${outcome(skipped.response_metadata)}`);
  const cachedOnly = await chat.invoke("What is a semantic cache?", { searchOnly: true });
  console.log(`searchOnly, cached question: ${outcome(cachedOnly.response_metadata)}`);
  const unknown = await chat.invoke("Who painted the Mona Lisa?", { searchOnly: true });
  console.log(`searchOnly, new question: ${outcome(unknown.response_metadata)}, content ${JSON.stringify(unknown.content)}`);
  console.log(calls());
  console.log(`report: ${cache.report.hits} hits, ${cache.report.misses} misses, ${cache.report.skips} skips`);
});
