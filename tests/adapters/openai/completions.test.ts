import { Stream } from "openai/streaming";
import { ask, closeAll, collect, setup } from "./harness.js";

afterEach(closeAll);

describe("wrapOpenAI: completions.create", () => {
  it("a miss returns the model's completion; a repeat is a text_completion hit with the marker and zero usage", async () => {
    const h = await setup();
    const miss = await h.openai.completions.create({ model: "instruct", prompt: "Once upon a time" });
    expect(miss.semcache).toBeUndefined();
    const hit = await h.openai.completions.create({ model: "instruct", prompt: "Once upon a time" });
    expect(hit).toMatchObject({
      object: "text_completion",
      model: "instruct",
      choices: [{ index: 0, text: "Echo: Once upon a time", finish_reason: "stop" }],
      usage: { prompt_tokens: 0, completion_tokens: 0, total_tokens: 0 },
      semcache: { hit: true, score: 1 },
    });
    expect(h.server.modelCalls()).toBe(1);
  });

  it("streams: a miss passes through and is stored at its end; a hit replays completion chunks", async () => {
    const h = await setup();
    const miss = await collect(await h.openai.completions.create({ model: "instruct", prompt: "a b c d e f", stream: true }));
    expect(miss.map((chunk) => chunk.choices[0].text).join("")).toBe("Echo: a b c d e f");
    const stream = await h.openai.completions.create({ model: "instruct", prompt: "a b c d e f", stream: true });
    expect(stream).toBeInstanceOf(Stream);
    const hit = await collect(stream);
    expect(hit.length).toBeGreaterThan(2);
    expect(hit.map((chunk) => chunk.choices[0].text).join("")).toBe("Echo: a b c d e f");
    expect(hit[hit.length - 1].choices[0].finish_reason).toBe("stop");
    expect(hit.every((chunk) => chunk.object === "text_completion" && chunk.semcache?.hit === true)).toBe(true);
    expect(h.server.modelCalls()).toBe(1);
  });

  it("a completion never answers a chat question with the same text and model, nor the other way round", async () => {
    const h = await setup();
    await h.openai.completions.create({ model: "m", prompt: "same words" });
    const chat = await h.openai.chat.completions.create({ model: "m", messages: ask("same words") });
    expect(chat.semcache).toBeUndefined();
    expect(h.server.modelCalls()).toBe(2);
  });

  it("several prompts, several choices or log probabilities pass through uncached", async () => {
    const h = await setup();
    for (const body of [{ prompt: ["one", "two"] }, { prompt: "x", n: 2 }, { prompt: "x", logprobs: 2 }]) {
      await h.openai.completions.create({ model: "m", ...body });
      await h.openai.completions.create({ model: "m", ...body });
    }
    expect(h.server.modelCalls()).toBe(6);
    expect(await h.cache.dataManager.count()).toBe(0);
  });
});
