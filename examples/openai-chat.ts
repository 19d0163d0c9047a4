/**
 * The cache in front of the `openai` SDK itself: `wrapOpenAI(new OpenAI(), { cache })`. Chat completions streamed
 * and not, the cache options a body may carry, partitions by model, a miss answered by your own function, and
 * `cachedChatCompletion`, which tells an HTTP proxy how each request was answered.
 * Run: npx tsx examples/openai-chat.ts (against OpenAI when OPENAI_API_KEY is set).
 */
// In your project: import { ... } from "langchain-semcache" (or "langchain-semcache/openai").
import { Cache } from "../src/index.js";
import { cachedChatCompletion, wrapOpenAI } from "../src/adapters/openai/index.js";
import { openClient, verdict } from "./support/openai-client.js";
import { ms, timed } from "./support/print.js";
import { cannedReply } from "./support/provider.js";
import { runExample } from "./support/run.js";

/** What the fake model knows (OpenAI answers for itself). */
const ANSWERS = [
  [/capital of france/i, "Paris is the capital of France."],
  [/largest planet/i, "Jupiter is the largest planet in the solar system."],
  [/boiling point/i, "Water boils at 100 degrees Celsius at sea level."],
  [/speed of light/i, "About 299,792 kilometres per second."],
] as const;

const user = (content: string) => [{ role: "user" as const, content }];

await runExample(async ({ defer }) => {
  const provider = await openClient({ reply: cannedReply(ANSWERS) });
  defer(() => provider.close());
  console.log(provider.description);

  const cache = await new Cache().init(); // exact match, in memory; any cache works (initSimilarCache() for a semantic one)
  defer(() => cache.close());
  const openai = wrapOpenAI(provider.client, { cache });
  const model = "gpt-4o-mini";

  console.log("\n# chat.completions.create");
  for (const attempt of ["first ask", "same again"]) {
    const [answer, took] = await timed(() => openai.chat.completions.create({ model, messages: user("What is the capital of France?") }));
    console.log(`${attempt}: ${verdict(answer)} in ${ms(took)}: ${answer.choices[0].message.content}`);
    console.log(`  usage: ${JSON.stringify(answer.usage)}`);
  }

  console.log("\n# stream: a miss streams through from the model, a hit replays as chunks");
  for (const attempt of ["first ask", "same again"]) {
    const stream = await openai.chat.completions.create({ model, messages: user("Which is the largest planet?"), stream: true });
    const pieces: string[] = [];
    let marked: { semcache?: object } | undefined;
    for await (const chunk of stream) {
      marked ??= chunk.semcache && chunk; // every chunk of a replayed hit carries the marker
      const piece = chunk.choices[0]?.delta?.content;
      if (piece) pieces.push(piece);
    }
    console.log(`${attempt}: ${verdict(marked)}, ${pieces.length} pieces: ${JSON.stringify(pieces)}`);
  }

  console.log("\n# cache options in the body (removed before the call; every other field is sent as is)");
  const question = user("What is the capital of France?");
  const skipped = await openai.chat.completions.create({ model, messages: question, cache_skip: true });
  console.log(`cache_skip (ask the model, store its answer): ${verdict(skipped)}`);
  const alice = await openai.chat.completions.create({ model, messages: user("What is the boiling point of water?"), session: "alice" });
  console.log(`session alice, first ask: ${verdict(alice)}`);
  const aliceAgain = await openai.chat.completions.create({ model, messages: user("What is the boiling point of water?"), session: "alice" });
  console.log(`session alice, asking again (wants a new answer): ${verdict(aliceAgain)}`);
  const bob = await openai.chat.completions.create({ model, messages: user("What is the boiling point of water?"), session: "bob" });
  console.log(`session bob: ${verdict(bob)}`);
  const hot = await openai.chat.completions.create({ model, messages: question, temperature: 2 });
  console.log(`temperature 2 (never reads the cache): ${verdict(hot)}`);
  const onlyCached = await openai.chat.completions.create({ model, messages: user("Who painted the Mona Lisa?"), search_only: true });
  console.log(`search_only, a new question: ${JSON.stringify(onlyCached)} (no model call)`);

  console.log("\n# partitions: one prompt to two models never shares an answer");
  for (const [label, name] of [["gpt-4o-mini", model], ["gpt-4o", "gpt-4o"], ["gpt-4o-mini again", model]] as const) {
    const answer = await openai.chat.completions.create({ model: name, messages: user("What is the speed of light?") });
    console.log(`${label}: ${verdict(answer)}`);
  }

  console.log("\n# a miss answered by your own function (llm), with cache_args");
  const local = async (body: { model: string }, options: { cacheArgs?: Record<string, unknown> }) => ({
    id: "local-1",
    object: "chat.completion" as const,
    created: Math.floor(Date.now() / 1000),
    model: body.model,
    choices: [
      {
        index: 0,
        message: { role: "assistant" as const, content: `a local answer (device: ${String(options.cacheArgs?.device)})`, refusal: null },
        logprobs: null,
        finish_reason: "stop" as const,
      },
    ],
  });
  for (const attempt of ["first ask", "same again"]) {
    const answer = await openai.chat.completions.create({ model: "local-llama", messages: user("Say hi."), llm: local, cache_args: { device: "cpu" } });
    console.log(`${attempt}: ${verdict(answer)}: ${answer.choices[0].message.content}`);
  }

  console.log("\n# cachedChatCompletion: what an HTTP proxy builds on (any upstream call, the outcome for its headers)");
  const upstream = (body: Parameters<typeof provider.client.chat.completions.create>[0], signal?: AbortSignal) =>
    provider.client.chat.completions.create(body, { signal });
  const body = { model, messages: user("What is the capital of France?") };
  const fresh = await cachedChatCompletion(cache, body, { upstream, cacheOptions: { maxAgeSeconds: 0 } });
  console.log(`max-age=0: ${fresh.outcome.status}`);
  const kept = await cachedChatCompletion(cache, body, { upstream, cacheOptions: { noStore: true } });
  console.log(`no-store: ${kept.outcome.status} (score ${kept.outcome.score}, entry ${kept.outcome.id})`);
  const streamed = await cachedChatCompletion(cache, { ...body, stream: true }, { upstream });
  console.log(`stream: ${streamed.outcome.status}, known before the first chunk is read`);
  for await (const chunk of streamed.result as AsyncIterable<unknown>) void chunk;

  console.log(`\nreport: ${cache.report.hits} hits, ${cache.report.misses} misses, ${cache.report.skips} skips`);
  if (provider.providerCalls() !== null) console.log(`provider calls: ${provider.providerCalls()}`);
});
