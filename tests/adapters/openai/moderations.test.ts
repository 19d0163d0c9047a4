import { closeAll, setup } from "./harness.js";

afterEach(closeAll);

const PATH = "/v1/moderations";

describe("wrapOpenAI: moderations.create", () => {
  it("keys on the input: a repeat returns the stored results with the marker", async () => {
    const h = await setup();
    const miss = await h.openai.moderations.create({ input: "I will attack the castle" });
    expect(miss.results[0].flagged).toBe(true);
    expect(miss.semcache).toBeUndefined();
    const hit = await h.openai.moderations.create({ input: "I will attack the castle" });
    expect(hit).toMatchObject({ model: miss.model, results: miss.results, semcache: { hit: true, score: 1 } });
    expect(hit.id).toMatch(/^modr-semcache-/);
    const other = await h.openai.moderations.create({ input: "A quiet afternoon" });
    expect(other.results[0].flagged).toBe(false);
    expect(h.server.count(PATH)).toBe(2);
  });

  it("a list input is one key; the model partitions; the cache's temperature is not sent upstream", async () => {
    const h = await setup();
    await h.openai.moderations.create({ input: ["one", "two"], temperature: 0 });
    const hit = await h.openai.moderations.create({ input: ["one", "two"] });
    expect(hit.results).toHaveLength(2);
    expect(hit.semcache?.hit).toBe(true);
    expect((await h.openai.moderations.create({ input: ["one", "two"], model: "text-moderation-latest" })).semcache).toBeUndefined();
    expect((await h.openai.moderations.create({ input: ["two", "one"] })).semcache).toBeUndefined();
    expect(h.server.count(PATH)).toBe(3);
    expect(h.bodies(PATH)[0]).toEqual({ input: ["one", "two"] });
  });

  it("a moderation result never answers a chat question with the same text", async () => {
    const h = await setup();
    await h.openai.moderations.create({ input: "hello there", model: "m" });
    const chat = await h.openai.chat.completions.create({ model: "m", messages: [{ role: "user", content: "hello there" }] });
    expect(chat.choices[0].message.content).toBe("Echo: hello there");
    expect(chat.semcache).toBeUndefined();
  });
});
