import { ChatOpenAI } from "@langchain/openai";
import { parseLlmKey, sanitizeLlmKey, withoutSecrets } from "../../src/langchain/secrets.js";

describe("llmKey secrets", () => {
  it("drops the API key and base URL from a real ChatOpenAI llmKey and keeps the model settings", () => {
    const model = new ChatOpenAI({ model: "gpt-4o-mini", apiKey: "sk-secret123456", temperature: 0.3, configuration: { baseURL: "http://proxy/v1" } });
    const llmKey = model._getSerializedCacheKeyParametersForCall({} as never);
    expect(llmKey).toContain("sk-secret123456");
    const clean = sanitizeLlmKey(llmKey);
    expect(JSON.stringify(clean)).not.toMatch(/secret|proxy/);
    expect(clean).toMatchObject({ model: "gpt-4o-mini", temperature: 0.3, _type: "openai" });
  });

  it("the same model with another key or base URL gives the same partition", () => {
    const a = new ChatOpenAI({ model: "m", apiKey: "sk-aaaaaaaaaaaa", configuration: { baseURL: "http://a/v1" } });
    const b = new ChatOpenAI({ model: "m", apiKey: "sk-bbbbbbbbbbbb", configuration: { baseURL: "http://b/v1" } });
    expect(sanitizeLlmKey(a._getSerializedCacheKeyParametersForCall({} as never))).toEqual(
      sanitizeLlmKey(b._getSerializedCacheKeyParametersForCall({} as never)),
    );
  });

  it("parses values containing commas, colons and nested objects", () => {
    expect(parseLlmKey('a:1,b:"x,y:z",c:{"k":[1,2],"apiKey":"s"},d:null')).toEqual({ a: 1, b: "x,y:z", c: { k: [1, 2], apiKey: "s" }, d: null });
    expect(sanitizeLlmKey('c:{"k":1,"apiKey":"s"}')).toEqual({ c: { k: 1 } });
    expect(parseLlmKey("not a key")).toEqual({ llmKey: "not a key" });
  });

  it("a function setting (serialised as undefined) does not make the key unparsable or leak the API key", () => {
    const model = new ChatOpenAI({ model: "m", apiKey: "sk-secret123456", configuration: { baseURL: "http://proxy/v1", fetch: globalThis.fetch } });
    const llmKey = model._getSerializedCacheKeyParametersForCall({} as never);
    const clean = sanitizeLlmKey(llmKey);
    expect(JSON.stringify(clean)).not.toMatch(/secret|proxy/);
    expect(clean).toMatchObject({ model: "m" });
    expect(sanitizeLlmKey('model:"m",odd:notjson,apiKey:bad')).toEqual({ model: "m", odd: "notjson" });
    expect(parseLlmKey("sk-abcdefghijkl trailing")).toEqual({ llmKey: "trailing" });
  });

  it("keeps model names whatever they look like, and values that only start like a key", () => {
    expect(withoutSecrets({ model: "hf-internal-testing/tiny", modelName: "co-pilot-model-v2", note: "sk-abcdefghijkl/path" })).toEqual({
      model: "hf-internal-testing/tiny",
      modelName: "co-pilot-model-v2",
      note: "sk-abcdefghijkl/path",
    });
  });

  it("drops credential-looking values wherever they are", () => {
    expect(withoutSecrets({ model: "m", extra: ["sk-abcdefghijkl", "fine"], auth: "Bearer xyz" })).toEqual({ model: "m", extra: ["fine"] });
  });
});
