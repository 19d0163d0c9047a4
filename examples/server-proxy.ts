/**
 * The HTTP server in one process: the offline semantic cache behind GPTCache's /put and /get (used through
 * CacheClient), and the OpenAI-compatible proxy used by the real `openai` client: a miss asks the upstream,
 * a repeat (or a rewording) is answered by the cache. The upstream is a local fake OpenAI server, or OpenAI
 * itself when OPENAI_API_KEY is set.
 *
 *   npx tsx examples/server-proxy.ts
 */
import OpenAI from "openai";
import { Cache, CacheClient, initSimilarCache } from "../src/index.js";
import { buildServer } from "../src/server/index.js";
import { startFakeOpenAI } from "../src/testing/index.js";
import { runExample } from "./support/run.js";

await runExample(async ({ defer, tempDir }) => {
  const realKey = process.env.OPENAI_API_KEY;
  const fake = realKey ? undefined : await startFakeOpenAI({ reply: (body) => `An answer to: ${JSON.stringify((body.messages as Array<{ content: string }>).at(-1)?.content)}` });
  if (fake) defer(() => fake.close());
  console.log(fake ? "Upstream: a local fake OpenAI server (set OPENAI_API_KEY to use OpenAI)." : "Upstream: OpenAI.");

  // What `semcache serve -d DIR` runs: the offline semantic preset, then the Fastify app.
  const cache = await initSimilarCache({ cache: new Cache(), dataDir: tempDir() });
  const app = buildServer({ cache, settings: { upstream: { baseURL: fake?.baseURL ?? "https://api.openai.com/v1" } }, closeCache: true });
  defer(() => app.close());
  await app.listen({ host: "127.0.0.1", port: 0 });
  const url = `http://127.0.0.1:${(app.server.address() as { port: number }).port}`;
  console.log(`listening on ${url} (API page: ${url}/docs)`);

  // GPTCache's client calls.
  const client = new CacheClient(url);
  defer(() => client.close());
  console.log(`put: ${await client.put("How do I reset my password?", "Use the 'forgot password' link on the sign-in page.")}`);
  console.log(`get, same words: ${await client.get("How do I reset my password?")}`);
  console.log(`get, other words: ${await client.get("How can I reset my password?")}`);
  console.log(`get, another question: ${await client.get("How do I delete my account?")}`);

  // Any OpenAI client pointed at /v1.
  const openai = new OpenAI({ baseURL: `${url}/v1`, apiKey: realKey ?? "no-key-needed-for-the-fake" });
  for (const question of ["What is the capital of France?", "What is the capital of France?", "What is the capital city of France?"]) {
    const { data, response } = await openai.chat.completions.create({ model: "gpt-4o-mini", messages: [{ role: "user", content: question }] }).withResponse();
    const score = response.headers.get("x-semcache-score");
    console.log(`${JSON.stringify(question)}: ${response.headers.get("x-semcache")}${score ? ` (score ${score})` : ""}: ${data.choices[0].message.content}`);
  }
  if (fake) console.log(`upstream calls: ${fake.modelCalls()}`);
});
