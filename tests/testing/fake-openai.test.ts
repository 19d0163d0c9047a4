import OpenAI from "openai";
import { ChatOpenAI, OpenAIEmbeddings } from "@langchain/openai";
import { startFakeOpenAI, type FakeOpenAIServer } from "../../src/testing/index.js";

describe("fake OpenAI server (wire format checked with the real SDKs)", () => {
  let server: FakeOpenAIServer;
  beforeAll(async () => {
    server = await startFakeOpenAI({ fail: (body) => (body.model === "broken" ? 500 : undefined) });
  });
  afterAll(() => server.close());

  const client = () => new OpenAI({ apiKey: "test", baseURL: server.baseURL, maxRetries: 0 });

  it("answers chat completions, streamed and not", async () => {
    const completion = await client().chat.completions.create({ model: "m", messages: [{ role: "user", content: "hi there" }] });
    expect(completion.choices[0].message.content).toBe("Echo: hi there");
    const stream = await client().chat.completions.create({ model: "m", messages: [{ role: "user", content: "a b c" }], stream: true });
    let text = "";
    for await (const chunk of stream) text += chunk.choices[0]?.delta?.content ?? "";
    expect(text).toBe("Echo: a b c");
  });

  it("answers completions and embeddings (base64 as the SDK asks by default)", async () => {
    const completion = await client().completions.create({ model: "m", prompt: "hello" });
    expect(completion.choices[0].text).toBe("Echo: hello");
    const embedding = await client().embeddings.create({ model: "e", input: ["one", "two"] });
    expect(embedding.data).toHaveLength(2);
    expect(embedding.data[0].embedding).toHaveLength(64);
  });

  it("speaks to @langchain/openai, and fails with OpenAI error bodies", async () => {
    const model = new ChatOpenAI({ model: "m", apiKey: "test", configuration: { baseURL: server.baseURL }, maxRetries: 0 });
    expect((await model.invoke("ping")).content).toBe("Echo: ping");
    const vectors = await new OpenAIEmbeddings({ apiKey: "test", configuration: { baseURL: server.baseURL } }).embedDocuments(["x"]);
    expect(vectors[0]).toHaveLength(64);
    await expect(client().chat.completions.create({ model: "broken", messages: [{ role: "user", content: "x" }] })).rejects.toMatchObject({ status: 500 });
  });
});
