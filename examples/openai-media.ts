/**
 * The other SDK surfaces through the cache: image generation (kept in the object store, served back as
 * base64 or a link, whichever a request asks for), audio transcription keyed on the file's bytes,
 * moderation keyed on the input, and vision questions keyed on the question and the picture.
 * Run: npx tsx examples/openai-media.ts (against OpenAI when OPENAI_API_KEY is set: it generates an image
 * and speech, which cost a little).
 */
// In your project: import { ... } from "langchain-semcache" (or "langchain-semcache/openai").
import { toFile } from "openai";
import { Cache, managerFactory } from "../src/index.js";
import { wrapOpenAI } from "../src/adapters/openai/index.js";
import { openClient, verdict } from "./support/openai-client.js";
import { ms, timed } from "./support/print.js";
import { runExample } from "./support/run.js";

await runExample(async ({ defer, tempDir }) => {
  const provider = await openClient();
  defer(() => provider.close());
  console.log(provider.description);

  // Images need an object store: the third kind in the factory string ("local" = a folder under dataDir).
  const cache = await new Cache().init({ dataManager: managerFactory("sqlite,,local", { dataDir: tempDir() }) });
  defer(() => cache.close());
  const openai = wrapOpenAI(provider.client, { cache });

  console.log("\n# images.generate");
  const prompt = "a lighthouse on a cliff at dawn, watercolour";
  const [first, took] = await timed(() => openai.images.generate({ model: "dall-e-2", prompt, size: "256x256", response_format: "b64_json" }));
  const png = Buffer.from(first.data![0].b64_json!, "base64");
  console.log(`first ask (b64_json): ${verdict(first)} in ${ms(took)}, ${png.length} bytes`);
  const [asBase64, hitTook] = await timed(() => openai.images.generate({ model: "dall-e-2", prompt, size: "256x256", response_format: "b64_json" }));
  const same = Buffer.from(asBase64.data![0].b64_json!, "base64").equals(png);
  console.log(`same again (b64_json): ${verdict(asBase64)} in ${ms(hitTook)}, same bytes: ${same}`);
  const asUrl = await openai.images.generate({ model: "dall-e-2", prompt, size: "256x256", response_format: "url" });
  console.log(`same again (url): ${verdict(asUrl)}, a link to the stored copy: ${asUrl.data![0].url!.slice(0, 8)}...`);
  const bigger = await openai.images.generate({ model: "dall-e-2", prompt, size: "512x512", response_format: "b64_json" });
  console.log(`another size: ${verdict(bigger)}`);

  console.log("\n# audio.transcriptions.create (the key is the file's bytes)");
  // The fake server hears a file's bytes as text; with a key, OpenAI speaks the sentence first.
  const sentence = "Caching saves both time and money.";
  const speech =
    provider.mode === "openai"
      ? Buffer.from(await (await provider.client.audio.speech.create({ model: "tts-1", voice: "alloy", input: sentence })).arrayBuffer())
      : Buffer.from(sentence);
  for (const [attempt, name] of [["first ask", "speech.mp3"], ["same bytes, another name", "copy.mp3"]] as const) {
    const [transcript, took] = await timed(async () => openai.audio.transcriptions.create({ model: "whisper-1", file: await toFile(speech, name) }));
    console.log(`${attempt}: ${verdict(transcript)} in ${ms(took)}: ${transcript.text}`);
  }

  console.log("\n# moderations.create (the key is the input)");
  for (const attempt of ["first ask", "same again"]) {
    const [moderation, took] = await timed(() => openai.moderations.create({ model: "omni-moderation-latest", input: "I will attack the castle at dawn." }));
    console.log(`${attempt}: ${verdict(moderation)} in ${ms(took)}, flagged: ${moderation.results[0].flagged}`);
  }

  console.log("\n# vision: the question is the key, the picture partitions");
  const picture = (b64: string) => ({ type: "image_url" as const, image_url: { url: `data:image/png;base64,${b64}` } });
  const look = (image: string, question: string) =>
    openai.chat.completions.create({
      model: "gpt-4o-mini",
      messages: [{ role: "user", content: [{ type: "text", text: question }, picture(image)] }],
    });
  const lighthouse = first.data![0].b64_json!;
  const other = bigger.data![0].b64_json!;
  for (const [label, image, question] of [
    ["the lighthouse picture", lighthouse, "What is in this picture?"],
    ["the same picture, same question", lighthouse, "What is in this picture?"],
    ["another picture, same question", other, "What is in this picture?"],
  ] as const) {
    console.log(`${label}: ${verdict(await look(image, question))}`);
  }

  console.log(`\nreport: ${cache.report.hits} hits, ${cache.report.misses} misses`);
  if (provider.providerCalls() !== null) console.log(`provider calls: ${provider.providerCalls()}`);
});
