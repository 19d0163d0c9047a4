import { startFakeOpenAI, type FakeOpenAIServer } from "../../src/testing/index.js";
import { MAX_JSON_DEPTH } from "../../src/server/json-body.js";
import { exactApp, expectErrorBody, type Call, type Served } from "./helpers.js";

/** A small seeded generator (mulberry32), so a failure can be replayed from its seed. */
function random(seed: number) {
  let state = seed >>> 0;
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const int = (n: number) => Math.floor(next() * n);
  const pick = <T>(items: readonly T[]): T => items[int(items.length)];
  return { next, int, pick };
}

const ROUTES = ["/put", "/get", "/flush", "/import", "/", "/?prompt=fuzz", "/v1/chat/completions", "/stats", "/nowhere", "/put/extra", "/%zz", "/get?x=1"];
// Mostly POST, so most bodies reach the routes that read them.
const METHODS = ["POST", "POST", "POST", "POST", "POST", "GET", "PUT", "PUT", "DELETE", "PATCH", "OPTIONS"];
const TYPES = ["application/json", "application/json; charset=utf-8", "text/plain", "application/x-www-form-urlencoded", "application/octet-stream", "image/png", "nonsense", undefined];
const STRINGS = ["", "p", "What is the capital of France?", "ünïcödé ☕ \u0000 \ud83d\ude00", "x".repeat(3001), "<script>", "null", "{}", "\\", '"', "lone \ud800", "\udfff first"];

type Rng = ReturnType<typeof random>;

function value(rng: Rng, depth: number): unknown {
  switch (rng.int(depth > 2 ? 4 : 7)) {
    case 0:
      return rng.pick(STRINGS);
    case 1:
      return rng.pick([0, -1, 1.5, 1e308, Number.MAX_SAFE_INTEGER]);
    case 2:
      return rng.pick([true, false, null]);
    case 3:
      return String.fromCharCode(...Array.from({ length: rng.int(40) }, () => rng.int(0xd7ff)));
    case 4:
      return Array.from({ length: rng.int(4) }, () => value(rng, depth + 1));
    default: {
      const keys = ["prompt", "answer", "pairs", "question", "model", "messages", "role", "content", "stream", "temperature", "cache_skip", "top_k", "search_only", "session", "cache_obj", "llm", "__proto__", "constructor"];
      return Object.fromEntries(Array.from({ length: rng.int(5) }, () => [rng.pick(keys), value(rng, depth + 1)]));
    }
  }
}

/** A real shape with a value nested up to 20,000 deep (arrays, objects, or both) in one of its slots. */
function deep(rng: Rng): string {
  const depth = rng.pick([MAX_JSON_DEPTH - 2, MAX_JSON_DEPTH + 1, 1000, 5000, 20_000]);
  const [open, close] = rng.pick([["[", "]"], ['{"a":', "}"], ['[{"content":', "}]"]]);
  const value = `${open.repeat(depth)}${JSON.stringify(rng.pick(STRINGS))}${close.repeat(depth)}`;
  const slots = [
    (v: string) => `{"prompt":${v},"answer":"a"}`,
    (v: string) => `{"pairs":[{"question":"q","answer":${v}}]}`,
    (v: string) => `{"model":"gpt-4o","messages":[{"role":"user","content":${v}}]}`,
    (v: string) => `{"model":"gpt-4o","messages":[{"role":"user","content":"hi"}],"temperature":${v},"cache_obj":${v}}`,
    (v: string) => v,
  ];
  return rng.pick(slots)(value);
}

/** A body that is often nearly right: the real shapes with one field off, plus raw garbage and cut-off JSON. */
function body(rng: Rng): string {
  const shapes = [
    () => ({ prompt: value(rng, 1), answer: value(rng, 1) }),
    () => ({ prompt: rng.pick(STRINGS) }),
    () => ({ pairs: [{ question: value(rng, 2), answer: rng.pick(STRINGS) }] }),
    () => ({ model: rng.pick(["gpt-4o", "", 5]), messages: [{ role: rng.pick(["user", "system", 3]), content: value(rng, 2) }], stream: rng.pick([true, false, "yes"]), ...(rng.int(2) ? { temperature: rng.pick([0, 0.5, 2, 9, "hot"]) } : {}) }),
    () => value(rng, 0),
  ];
  const json = JSON.stringify(rng.pick(shapes)()) ?? "null";
  switch (rng.int(6)) {
    case 0:
      return json.slice(0, rng.int(json.length + 1));
    case 1:
      return Buffer.from(Array.from({ length: rng.int(64) }, () => rng.int(256))).toString("latin1");
    default:
      return json;
  }
}

function request(rng: Rng): Call {
  const method = rng.pick(METHODS);
  const headers: Record<string, string> = {};
  const type = rng.pick(TYPES);
  if (type) headers["content-type"] = type;
  if (rng.int(5) === 0) headers["cache-control"] = rng.pick(["no-cache", "no-store", "max-age=10", "max-age=-1", "max-age=", "private, max-age=0"]);
  if (rng.int(6) === 0) headers["x-semcache-namespace"] = rng.pick(["tenant", "", "a b", "x".repeat(200), "ok.name:1"]);
  const hasBody = method !== "GET" && method !== "OPTIONS";
  return { method, url: rng.pick(ROUTES), headers, payload: hasBody ? body(rng) : undefined };
}

describe("fuzz: random requests", () => {
  let server: Served;
  let upstream: FakeOpenAIServer;
  beforeAll(async () => {
    upstream = await startFakeOpenAI();
    server = await exactApp({ settings: { upstream: { baseURL: upstream.baseURL } } });
  });
  afterAll(async () => {
    await server.close();
    await upstream.close();
  });

  /** Sends requests 8 at a time; returns the statuses seen and every answer that is a 5xx or malformed. */
  async function sendAll(requests: Call[]): Promise<{ statuses: Map<number, number>; failures: string[] }> {
    const statuses = new Map<number, number>();
    const failures: string[] = [];
    for (let start = 0; start < requests.length; start += 8) {
      await Promise.all(
        requests.slice(start, start + 8).map(async (sent, i) => {
          const answer = await server.call(sent);
          statuses.set(answer.statusCode, (statuses.get(answer.statusCode) ?? 0) + 1);
          const where = `#${start + i} ${sent.method} ${sent.url} ${JSON.stringify(sent.payload)?.slice(0, 80)} -> ${answer.statusCode} ${answer.body.slice(0, 120)}`;
          try {
            expect(answer.statusCode).toBeGreaterThanOrEqual(200);
            expect(answer.statusCode).toBeLessThan(500);
            if (answer.statusCode >= 400) expectErrorBody(answer.body);
            else if (/json/.test(answer.headers["content-type"] ?? "")) JSON.parse(answer.body);
          } catch {
            failures.push(where);
          }
        }),
      );
    }
    return { statuses, failures };
  }

  async function expectStillServing(): Promise<void> {
    expect((await server.call({ method: "GET", url: "/healthz" })).statusCode).toBe(200);
    await server.post("/put", { prompt: "after the storm", answer: "calm" });
    expect((await server.post("/get", { prompt: "after the storm" })).json().answer).toBe("calm");
  }

  it("answers each of 5,000 (NULs and lone surrogates included) with a well-formed 2xx or 4xx, and keeps serving", async () => {
    const { statuses, failures } = await sendAll(Array.from({ length: 5000 }, ((rng) => () => request(rng))(random(20261122))));
    expect(failures).toEqual([]);
    // The generator reaches both outcomes and several kinds of refusal.
    expect([...statuses.keys()].filter((status) => status < 300).length).toBeGreaterThan(0);
    expect([...statuses.keys()].filter((status) => status >= 400).length).toBeGreaterThanOrEqual(4);
    await expectStillServing();
  }, 120_000);

  it("answers each of 1,500 JSON bodies nested up to 20,000 deep, sent to the proxy and the GPTCache routes, with a 4xx (or a 2xx within the limit)", async () => {
    const rng = random(19);
    const routes = ["/put", "/get", "/import", "/flush", "/v1/chat/completions", "/v1/chat/completions"];
    const requests = Array.from({ length: 1500 }, (): Call => ({
      method: "POST",
      url: rng.pick(routes),
      headers: { "content-type": "application/json", authorization: `Bearer sk-${rng.int(3)}` },
      payload: deep(rng),
    }));
    const { statuses, failures } = await sendAll(requests);
    expect(failures).toEqual([]);
    expect(statuses.get(400)).toBeGreaterThan(1000);
    await expectStillServing();
  }, 120_000);
});
