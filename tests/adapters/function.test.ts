import { Cache, cached, get } from "../../src/index.js";

async function collect<T>(stream: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const chunk of stream) out.push(chunk);
  return out;
}

describe("cached(fn)", () => {
  let c: Cache;
  beforeEach(async () => {
    c = await new Cache().init();
  });

  it("caches a plain async function keyed on its string argument", async () => {
    let calls = 0;
    const shout = cached(async (text: string) => (calls++, text.toUpperCase()), { requestOptions: { cacheObj: c } });
    expect(await shout("hello")).toBe("HELLO");
    expect(await shout("hello")).toBe("HELLO");
    expect(calls).toBe(1);
  });

  it("round-trips non-string results as JSON", async () => {
    let calls = 0;
    const describe_ = cached(async (text: string) => (calls++, { text, length: text.length, tags: ["a"] }), {
      requestOptions: { cacheObj: c },
    });
    const first = await describe_("hey");
    const second = await describe_("hey");
    expect(second).toEqual(first);
    expect(calls).toBe(1);
  });

  it("passes a stream miss through chunk by chunk, stores it whole, and replays a hit as chunks", async () => {
    let calls = 0;
    const seenBeforeEnd: string[] = [];
    async function* generate(prompt: string) {
      calls++;
      for (const word of ["The ", "answer ", "to ", prompt, " is 42."]) {
        seenBeforeEnd.push(word);
        yield word;
      }
    }
    const stream = cached(generate, { requestOptions: { cacheObj: c } });
    const chunks: string[] = [];
    for await (const chunk of stream("life")) {
      chunks.push(chunk);
      // Chunks arrive as the source yields them, not after it ends.
      expect(seenBeforeEnd.length).toBe(chunks.length);
    }
    expect(chunks.join("")).toBe("The answer to life is 42.");
    expect(await get("life", { cacheObj: c })).toBe("The answer to life is 42.");

    const replayed = await collect(stream("life"));
    expect(calls).toBe(1);
    expect(replayed.length).toBeGreaterThan(1);
    expect(replayed.join("")).toBe("The answer to life is 42.");
  });

  it("stores nothing when the consumer stops a stream early", async () => {
    async function* generate() {
      yield "partial ";
      yield "answer";
    }
    const stream = cached(generate, { requestOptions: { cacheObj: c }, toRequest: () => ({ prompt: "p" }) });
    for await (const chunk of stream()) {
      expect(chunk).toBe("partial ");
      break;
    }
    expect(await c.dataManager.count()).toBe(0);
  });

  it("stores nothing when a stream fails, and the error reaches the consumer", async () => {
    async function* generate() {
      yield "partial ";
      throw new Error("connection reset");
    }
    const stream = cached(generate, { requestOptions: { cacheObj: c }, toRequest: () => ({ prompt: "p" }) });
    await expect(collect(stream())).rejects.toThrow("connection reset");
    expect(await c.dataManager.count()).toBe(0);
  });

  it("reads chunk text from objects with a text or content field", async () => {
    async function* generate() {
      yield { content: "a " };
      yield { content: "b" };
    }
    const stream = cached(generate, { requestOptions: { cacheObj: c }, toRequest: () => ({ prompt: "obj" }), replay: (hit) => [{ content: hit.answer }] });
    await collect(stream());
    expect(await collect(stream())).toEqual([{ content: "a b" }]);
  });
});
