/**
 * Bodies built to break the server rather than to use it: nesting thousands deep, U+0000, lone surrogates.
 * Each is refused with a 400 body on every route that reads it, before any store or upstream sees it.
 */
import { ValidationError } from "../../src/core/errors.js";
import { keyHash, MAX_STABLE_DEPTH, stableStringify } from "../../src/core/keys.js";
import { jsonTextProblem, MAX_JSON_DEPTH } from "../../src/server/json-body.js";
import { startFakeOpenAI, type FakeOpenAIServer } from "../../src/testing/index.js";
import { exactApp, expectErrorBody, type Served } from "./helpers.js";

const nested = (depth: number, inner = "1") => "[".repeat(depth) + inner + "]".repeat(depth);
const json = { "content-type": "application/json" };

/** A body of each JSON route with `value` (raw JSON text) in its free-form slot. */
const BODIES: Array<[string, (value: string) => string]> = [
  ["/put", (value) => `{"prompt":${value},"answer":"a"}`],
  ["/get", (value) => `{"prompt":${value}}`],
  ["/import", (value) => `{"pairs":[{"question":${value},"answer":"a"}]}`],
  ["/flush", (value) => `{"x":${value}}`],
  ["/clear", (value) => `{"x":${value}}`],
  ["/v1/chat/completions", (value) => `{"model":"m","messages":[{"role":"user","content":${value}}]}`],
  ["/v1/chat/completions", (value) => `{"model":"m","messages":[{"role":"user","content":"hi"}],"temperature":${value}}`],
  ["/v1/chat/completions", (value) => `{"model":"m","messages":[{"role":"user","content":"hi","name":${value}}],"metadata":${value}}`],
];

describe("hostile request bodies", () => {
  let server: Served;
  let upstream: FakeOpenAIServer;
  beforeAll(async () => {
    upstream = await startFakeOpenAI();
    server = await exactApp({ settings: { upstream: { baseURL: upstream.baseURL }, proxyCacheScope: "shared" } });
  });
  afterAll(async () => {
    await server.close();
    await upstream.close();
  });

  const send = (url: string, payload: string) => server.call({ method: "POST", url, payload, headers: json });

  it("refuses a body nested 5,000 deep with 400 on every JSON route (it used to be a 500 or a 502)", async () => {
    for (const [url, body] of BODIES) {
      for (const value of [nested(5000), `${"{\"a\":".repeat(5000)}1${"}".repeat(5000)}`]) {
        const answer = await send(url, body(value));
        expect({ url, status: answer.statusCode }).toEqual({ url, status: 400 });
        expectErrorBody(answer.body, "SEMCACHE_VALIDATION");
        expect(answer.json().error.message).toMatch(`deeper than ${MAX_JSON_DEPTH} levels`);
      }
    }
    expect(upstream.requests).toHaveLength(0);
  });

  it("accepts real nesting: a chat body with content parts and a nested tool schema", async () => {
    const schema = JSON.parse(`{"type":"object","properties":{"a":${nested(20, '{"type":"string"}').replace(/\[/g, '{"type":"array","items":').replace(/\]/g, "}")}}}`);
    const answer = await server.post("/v1/chat/completions", {
      model: "m",
      messages: [{ role: "user", content: [{ type: "text", text: "hello" }] }],
      tools: [{ type: "function", function: { name: "f", parameters: schema } }],
    });
    expect(answer.statusCode).toBe(200);
  });

  it("refuses U+0000 and lone surrogates in any JSON string, keys included, and in the plain map (400)", async () => {
    const asked = upstream.requests.length;
    for (const text of ['"a\\u0000b"', '"x\\ud800"', '"\\udc00x"', '"\\ud800\\u0041"', '"\\ud83d\\ud83d"']) {
      for (const [url, body] of BODIES) {
        const answer = await send(url, body(text));
        expect({ url, text, status: answer.statusCode }).toEqual({ url, text, status: 400 });
        expectErrorBody(answer.body, "SEMCACHE_VALIDATION");
      }
      const asKey = await send("/put", `{"prompt":"p","answer":"a",${text}:1}`);
      expect(asKey.statusCode).toBe(400);
    }
    // A URL cannot carry a lone surrogate (percent-decoding is UTF-8), but it can carry a NUL.
    expect((await server.call({ method: "PUT", url: "/?prompt=a%00b", payload: "answer" })).statusCode).toBe(400);
    expect((await server.call({ method: "GET", url: "/?prompt=a%00b" })).statusCode).toBe(400);
    const nulAnswer = await server.call({ method: "PUT", url: "/?prompt=fine", payload: "an\u0000swer", headers: { "content-type": "text/plain" } });
    expectErrorBody(nulAnswer.body, "SEMCACHE_VALIDATION");
    expect(upstream.requests).toHaveLength(asked);
  });

  it("keeps what only looks like those: an escaped backslash before u0000, a surrogate pair, U+FFFD", async () => {
    for (const prompt of ['"a\\\\u0000"', '"\\ud83d\\ude00 smile"', '"😀 raw pair"', '"\\ufffd"']) {
      expect((await send("/put", `{"prompt":${prompt},"answer":"kept"}`)).statusCode).toBe(200);
      expect((await send("/get", `{"prompt":${prompt}}`)).json().answer).toBe("kept");
    }
    // Each its own key: "\ud83d\ude00 smile" and "\ufffd" stored above do not answer each other.
    await server.post("/put", { prompt: "\ufffd", answer: "replacement character" });
    expect((await server.post("/get", { prompt: "\ud83d\ude00 smile" })).json().answer).toBe("kept");
  });

  it("still reports malformed JSON as such", async () => {
    for (const text of ['{"prompt":"\\u00zz"}', '{"prompt":"a', "[[[", '{"prompt":"\\ud800']) {
      const answer = await send("/get", text);
      expect(answer.statusCode).toBe(400);
      expectErrorBody(answer.body, "SEMCACHE_VALIDATION");
    }
  });
});

describe("what the server's checks rest on", () => {
  it("jsonTextProblem reads escapes, strings and depth as JSON does", () => {
    expect(jsonTextProblem(nested(MAX_JSON_DEPTH))).toBeUndefined();
    expect(jsonTextProblem(nested(MAX_JSON_DEPTH + 1))).toMatch(/deeper/);
    // Brackets inside strings are text, not nesting.
    expect(jsonTextProblem(`"${"[".repeat(1000)}"`)).toBeUndefined();
    expect(jsonTextProblem('"\\"[[[["')).toBeUndefined();
    expect(jsonTextProblem('"\\u0000"')).toMatch(/U\+0000/);
    expect(jsonTextProblem('"\\\\u0000"')).toBeUndefined();
    expect(jsonTextProblem('"\\uD83D\\uDE00"')).toBeUndefined();
    expect(jsonTextProblem('"\\uD83D"')).toMatch(/lone surrogate/);
    expect(jsonTextProblem('"\\uDE00\\uD83D"')).toMatch(/lone surrogate/);
    expect(jsonTextProblem('"\ud83d"')).toMatch(/lone surrogate/);
  });

  it("stableStringify refuses a value nested past its cap with a ValidationError instead of overflowing the stack", () => {
    let deep: unknown = 1;
    for (let i = 0; i < 100_000; i++) deep = [deep];
    expect(() => stableStringify(deep)).toThrow(ValidationError);
    expect(() => stableStringify({ a: deep })).toThrow(`deeper than ${MAX_STABLE_DEPTH}`);
    let fine: unknown = { b: 1, a: 2 };
    for (let i = 1; i < MAX_STABLE_DEPTH; i++) fine = [fine];
    expect(stableStringify(fine)).toBe(`${"[".repeat(MAX_STABLE_DEPTH - 1)}{"a":2,"b":1}${"]".repeat(MAX_STABLE_DEPTH - 1)}`);
  });

  it("keyHash refuses lone surrogates, which UTF-8 would turn into one key", () => {
    const short = ["a\ud800", "a\udc00"];
    const long = short.map((text) => text.padStart(400, "x"));
    for (const text of [...short, ...long]) expect(() => keyHash("", text)).toThrow(ValidationError);
    expect(keyHash("", "a\ud83d\ude00")).not.toBe(keyHash("", "a\ufffd"));
  });
});
