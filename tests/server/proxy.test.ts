import { createHash } from "node:crypto";
import { once } from "node:events";
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { ChatOpenAI } from "@langchain/openai";
import OpenAI from "openai";
import { Cache, DistanceEvaluation, loadGptCacheConfig, managerFactory } from "../../src/index.js";
import { resolveServerSettings, type ServerSection } from "../../src/server/server-config.js";
import { CREDENTIAL_SECRET_FILE } from "../../src/server/credential.js";
import { startFakeOpenAI, type FakeOpenAIServer } from "../../src/testing/index.js";
import { BagOfWordsEmbedding, tempDir } from "../helpers/fixtures.js";
import { exactServer, expectErrorBody, serveOnPort, type Answer, type Listening } from "./helpers.js";
import { MapDataManager } from "../../src/presets/map-manager.js";
import { ManualClock } from "../../src/testing/manual-clock.js";

const question = (content: string) => [{ role: "user" as const, content }];

describe("POST /v1/chat/completions: the cached OpenAI-compatible proxy", () => {
  let upstream: FakeOpenAIServer;
  let server: Listening;

  beforeEach(async () => {
    upstream = await startFakeOpenAI({
      streamDelayMs: 0,
      fail: (body) => ({ unauthorized: 401, overloaded: 429, broken: 500 })[String(body.model)],
    });
    server = await exactServer({ settings: { upstream: { baseURL: upstream.baseURL } }, env: {} });
  });
  afterEach(async () => {
    await server.close();
    await upstream.close();
  });

  const client = (options: { apiKey?: string; headers?: Record<string, string> } = {}) =>
    new OpenAI({ baseURL: `${server.url}/v1`, apiKey: options.apiKey ?? "sk-caller", maxRetries: 0, defaultHeaders: options.headers });

  it("answers a repeated request from the cache with the real OpenAI SDK: x-semcache, score, Age, zero usage", async () => {
    const ask = () => client().chat.completions.create({ model: "gpt-4o", messages: question("What is the capital of France?") }).withResponse();
    const first = await ask();
    expect(first.response.headers.get("x-semcache")).toBe("MISS");
    expect(first.response.headers.get("age")).toBeNull();
    expect(first.data.choices[0].message.content).toBe("Echo: What is the capital of France?");

    const second = await ask();
    expect(second.response.headers.get("x-semcache")).toBe("HIT");
    expect(second.response.headers.get("x-semcache-score")).toBe("1.0000");
    expect(Number(second.response.headers.get("age"))).toBeGreaterThanOrEqual(0);
    expect(second.data.choices[0].message.content).toBe("Echo: What is the capital of France?");
    expect(second.data.object).toBe("chat.completion");
    expect(second.data.usage).toEqual({ prompt_tokens: 0, completion_tokens: 0, total_tokens: 0 });
    expect(upstream.modelCalls()).toBe(1);
    // Another model is another partition.
    await client().chat.completions.create({ model: "gpt-4o-mini", messages: question("What is the capital of France?") });
    expect(upstream.modelCalls()).toBe(2);
  });

  it("keeps conversations apart: 'What is my name?' after 'My name is Alice' never answers Bob", async () => {
    const ask = (name: string) =>
      client()
        .chat.completions.create({
          model: "gpt-4o",
          messages: [
            { role: "system", content: "You remember names." },
            { role: "user", content: `My name is ${name}.` },
            { role: "assistant", content: "Nice to meet you." },
            { role: "user", content: "What is my name?" },
          ],
        })
        .withResponse();
    expect((await ask("Alice")).response.headers.get("x-semcache")).toBe("MISS");
    expect((await ask("Bob")).response.headers.get("x-semcache")).toBe("MISS");
    expect((await ask("Alice")).response.headers.get("x-semcache")).toBe("HIT");
    expect(upstream.modelCalls()).toBe(2);
  });

  it("shares answers across contexts only when asked: a body's share_across_contexts, or server.proxy_share_across_contexts", async () => {
    const ask = (listening: Listening, system: string, share?: boolean) =>
      new OpenAI({ baseURL: `${listening.url}/v1`, apiKey: "sk-caller", maxRetries: 0 }).chat.completions
        .create({
          model: "gpt-4o",
          messages: [
            { role: "system", content: system },
            { role: "user", content: "What is the capital of France?" },
          ],
          ...(share === undefined ? {} : { share_across_contexts: share }),
        } as OpenAI.ChatCompletionCreateParamsNonStreaming)
        .withResponse();
    const outcome = async (answer: ReturnType<typeof ask>) => (await answer).response.headers.get("x-semcache");
    expect(await outcome(ask(server, "Answer in English."))).toBe("MISS");
    expect(await outcome(ask(server, "Answer in French."))).toBe("MISS");
    // Shared answers live in a partition of their own: stored by a sharing request, found by another one.
    expect(await outcome(ask(server, "Answer in German.", true))).toBe("MISS");
    expect(await outcome(ask(server, "Answer in Spanish.", true))).toBe("HIT");
    expect(await outcome(ask(server, "Answer in Spanish."))).toBe("MISS");
    const sharing = await exactServer({ settings: { upstream: { baseURL: upstream.baseURL }, proxyShareAcrossContexts: true }, env: {} });
    try {
      expect(await outcome(ask(sharing, "Answer in English."))).toBe("MISS");
      expect(await outcome(ask(sharing, "Answer in French."))).toBe("HIT");
      // A body's own field wins over the server's default.
      expect(await outcome(ask(sharing, "Answer in Spanish.", false))).toBe("MISS");
      expect(await outcome(ask(sharing, "Answer in Spanish.", false))).toBe("HIT");
      expect(upstream.requests.at(-1)?.json).not.toHaveProperty("share_across_contexts");
    } finally {
      await sharing.close();
    }
  });

  it("streams misses and hits as SSE in the provider's chunk shape, ending with data: [DONE]", async () => {
    const streamed = async () => {
      const { data: stream, response } = await client().chat.completions.create({ model: "gpt-4o", stream: true, messages: question("tell me a story") }).withResponse();
      let text = "";
      const objects = new Set<string>();
      for await (const chunk of stream) {
        objects.add(chunk.object);
        text += chunk.choices[0]?.delta?.content ?? "";
      }
      return { text, objects, status: response.headers.get("x-semcache"), type: response.headers.get("content-type") };
    };
    const miss = await streamed();
    expect(miss).toEqual({ text: "Echo: tell me a story", objects: new Set(["chat.completion.chunk"]), status: "MISS", type: expect.stringMatching(/^text\/event-stream/) });
    const hit = await streamed();
    expect(hit).toEqual({ ...miss, status: "HIT" });
    expect(upstream.modelCalls()).toBe(1);

    // The same caller (the same upstream key): answers are shared per credential.
    const raw = await server.post("/v1/chat/completions", { model: "gpt-4o", stream: true, messages: question("tell me a story") }, { authorization: "Bearer sk-caller" });
    const events = raw.body.trim().split("\n\n");
    expect(events[events.length - 1]).toBe("data: [DONE]");
    const chunks = events.slice(0, -1).map((event) => JSON.parse(event.replace(/^data: /, "")));
    expect(chunks[chunks.length - 1].choices[0].finish_reason).toBe("stop");
    // A non-stream request is answered from what the stream stored.
    const plain = await client().chat.completions.create({ model: "gpt-4o", messages: question("tell me a story") });
    expect(plain.choices[0].message.content).toBe("Echo: tell me a story");
    expect(upstream.modelCalls()).toBe(1);
  });

  it("follows Cache-Control: no-cache skips the lookup but stores, no-store never stores, max-age bounds the age", async () => {
    const clock = new ManualClock();
    await server.close();
    server = await exactServer({ settings: { upstream: { baseURL: upstream.baseURL } }, env: {} }, { dataManager: new MapDataManager({ clock }) });
    const ask = (content: string, cacheControl?: string) =>
      client({ headers: cacheControl ? { "cache-control": cacheControl } : {} }).chat.completions.create({ model: "gpt-4o", messages: question(content) }).withResponse();
    const status = async (content: string, cacheControl?: string) => (await ask(content, cacheControl)).response.headers.get("x-semcache");

    expect(await status("one", "no-store")).toBe("MISS");
    expect(await status("one")).toBe("MISS");
    expect(upstream.modelCalls()).toBe(2);
    expect(await status("one", "no-cache")).toBe("SKIP");
    expect(upstream.modelCalls()).toBe(3);
    expect(await status("one")).toBe("HIT");
    expect(await status("two")).toBe("MISS");
    clock.advance(20);
    expect(await status("two", "max-age=0")).toBe("MISS");
    expect(await status("two", "max-age=3600")).toBe("HIT");
  });

  it("keeps namespaces apart (x-semcache-namespace) and keeps the namespace out of the upstream body", async () => {
    const ask = (namespace: string) => client({ headers: { "x-semcache-namespace": namespace } }).chat.completions.create({ model: "gpt-4o", messages: question("shared") }).withResponse();
    expect((await ask("tenant-a")).response.headers.get("x-semcache")).toBe("MISS");
    expect((await ask("tenant-b")).response.headers.get("x-semcache")).toBe("MISS");
    expect((await ask("tenant-a")).response.headers.get("x-semcache")).toBe("HIT");
    expect(upstream.requests.every((request) => !("semcache_namespace" in (request.json ?? {})))).toBe(true);
    // A body field cannot pick a namespace either.
    const sneaky = await server.post("/v1/chat/completions", { model: "gpt-4o", messages: question("shared"), semcache_namespace: "tenant-a" });
    expect(sneaky.headers["x-semcache"]).toBe("MISS");
  });

  it("forwards the caller's key, or the configured one in its place", async () => {
    await client({ apiKey: "sk-caller" }).chat.completions.create({ model: "gpt-4o", messages: question("k1") });
    expect(upstream.requests.at(-1)?.headers.authorization).toBe("Bearer sk-caller");
    await server.close();
    server = await exactServer({ settings: { upstream: { baseURL: upstream.baseURL, apiKey: "sk-server" } } });
    await client({ apiKey: "sk-caller" }).chat.completions.create({ model: "gpt-4o", messages: question("k2") });
    expect(upstream.requests.at(-1)?.headers.authorization).toBe("Bearer sk-server");
  });

  it("never forwards a semcache API key upstream", async () => {
    await server.close();
    server = await exactServer({ settings: { apiKeys: ["semcache-key"], upstream: { baseURL: upstream.baseURL } }, env: { OPENAI_API_KEY: "sk-from-env" } });
    await expect(client({ apiKey: "wrong" }).chat.completions.create({ model: "gpt-4o", messages: question("x") })).rejects.toMatchObject({ status: 401 });
    await client({ apiKey: "semcache-key" }).chat.completions.create({ model: "gpt-4o", messages: question("x") });
    expect(upstream.requests.at(-1)?.headers.authorization).toBe("Bearer sk-from-env");
  });

  it("passes the upstream's 4xx errors through (the SDK raises its own error types) and answers 502 for its faults", async () => {
    await expect(client().chat.completions.create({ model: "unauthorized", messages: question("x") })).rejects.toBeInstanceOf(OpenAI.AuthenticationError);
    await expect(client().chat.completions.create({ model: "overloaded", messages: question("x") })).rejects.toBeInstanceOf(OpenAI.RateLimitError);
    const broken = await server.post("/v1/chat/completions", { model: "broken", messages: question("x") });
    expect(broken.statusCode).toBe(502);
    expectErrorBody(broken.body, "SEMCACHE_UPSTREAM");
    await upstream.close();
    const unreachable = await server.post("/v1/chat/completions", { model: "gpt-4o", messages: question("x") });
    expect(unreachable.statusCode).toBe(502);
    expectErrorBody(unreachable.body, "SEMCACHE_UPSTREAM");
    // The cache still answers what it holds.
  });

  it("sends requests the cache cannot hold (tools) upstream as SKIP", async () => {
    const tools = [{ type: "function" as const, function: { name: "f", parameters: { type: "object", properties: {} } } }];
    const ask = () => client().chat.completions.create({ model: "gpt-4o", messages: question("use a tool"), tools }).withResponse();
    expect((await ask()).response.headers.get("x-semcache")).toBe("SKIP");
    expect((await ask()).response.headers.get("x-semcache")).toBe("SKIP");
    expect(upstream.modelCalls()).toBe(2);
  });

  it("does not store a stream the client abandoned", async () => {
    await upstream.close();
    upstream = await startFakeOpenAI({ streamDelayMs: 30, reply: () => "one two three four five six seven eight nine ten" });
    await server.close();
    server = await exactServer({ settings: { upstream: { baseURL: upstream.baseURL } } });
    const controller = new AbortController();
    const stream = await client().chat.completions.create({ model: "gpt-4o", stream: true, messages: question("long") }, { signal: controller.signal });
    let received = "";
    // The SDK ends an aborted stream quietly (or with an AbortError, depending on when the abort lands).
    try {
      for await (const chunk of stream) {
        received += chunk.choices[0]?.delta?.content ?? "";
        if (received) controller.abort();
      }
    } catch (error) {
      expect((error as Error).name).toMatch(/Abort/);
    }
    expect(received.length).toBeGreaterThan(0);
    expect(received.length).toBeLessThan("one two three four five six seven eight nine ten".length);
    // Wait until the upstream has seen the abort, then ask again: still a miss.
    const { signal } = upstream.requests[0];
    if (!signal.aborted) await once(signal, "abort");
    const again = await client().chat.completions.create({ model: "gpt-4o", messages: question("long") }).withResponse();
    expect(again.response.headers.get("x-semcache")).toBe("MISS");
    expect(upstream.modelCalls()).toBe(2);
  });

  it("works with LangChain's ChatOpenAI pointed at the server: invoke and .stream() hit the cache", async () => {
    const model = new ChatOpenAI({ model: "gpt-4o", apiKey: "sk-caller", configuration: { baseURL: `${server.url}/v1` }, maxRetries: 0 });
    expect((await model.invoke("What is a semantic cache?")).content).toBe("Echo: What is a semantic cache?");
    expect((await model.invoke("What is a semantic cache?")).content).toBe("Echo: What is a semantic cache?");
    const calls = upstream.modelCalls();
    expect(calls).toBe(1);
    let streamed = "";
    for await (const chunk of await model.stream("Name three colours")) streamed += chunk.content;
    expect(streamed).toBe("Echo: Name three colours");
    streamed = "";
    for await (const chunk of await model.stream("Name three colours")) streamed += chunk.content;
    expect(streamed).toBe("Echo: Name three colours");
    expect(upstream.modelCalls()).toBe(calls + 1);
  });
});

/** Keys the gated fake upstream accepts; any other key, or none, gets its 401. */
const VALID_KEYS = new Set(["sk-alice", "sk-bob"]);

/** The fake OpenAI server, refusing unknown keys with 401 as OpenAI does (the request being served is the last one logged). */
async function gatedUpstream(): Promise<FakeOpenAIServer> {
  const gated: FakeOpenAIServer = await startFakeOpenAI({
    streamDelayMs: 0,
    fail: () => {
      const key = /^Bearer (\S+)$/.exec(String(gated.requests.at(-1)?.headers.authorization))?.[1];
      return key !== undefined && VALID_KEYS.has(key) ? undefined : 401;
    },
  });
  return gated;
}

const FRANCE = "What is the capital of France?";

describe("the proxy never answers a caller the upstream would refuse (proxy_cache_scope)", () => {
  let upstream: FakeOpenAIServer;
  let server: Listening;

  beforeEach(async () => {
    upstream = await gatedUpstream();
  });
  afterEach(async () => {
    await server?.close();
    await upstream.close();
  });

  const start = async (settings: ServerSection = {}, env: NodeJS.ProcessEnv = {}) => {
    await server?.close();
    server = await exactServer({ settings: { ...settings, upstream: { baseURL: upstream.baseURL, ...settings.upstream } }, env });
  };
  /** Asks with `key` as the bearer key (none when undefined). */
  const ask = (key: string | undefined, content = FRANCE, headers: Record<string, string> = {}, extra: Record<string, unknown> = {}) =>
    server.post("/v1/chat/completions", { model: "gpt-4o", messages: question(content), ...extra }, { ...(key === undefined ? {} : { authorization: `Bearer ${key}` }), ...headers });
  /** x-semcache on a 200, else the status. */
  const outcome = (answer: Answer) => (answer.statusCode === 200 ? answer.headers["x-semcache"] : answer.statusCode);

  it("gives a rejected key, or no key, the upstream's 401, never another caller's HIT; the caller itself hits", async () => {
    await start();
    expect(outcome(await ask("sk-alice"))).toBe("MISS");
    const refused = await ask("sk-mallory");
    expect(refused.statusCode).toBe(401);
    expect(refused.headers["x-semcache"]).toBeUndefined();
    expect(refused.json().error.message).toBe("fake failure 401");
    expect(upstream.requests.at(-1)?.headers.authorization).toBe("Bearer sk-mallory");
    // A refused call stored nothing: asking again goes upstream again.
    expect(outcome(await ask("sk-mallory"))).toBe(401);
    expect(outcome(await ask("sk-mallory", FRANCE, {}, { stream: true }))).toBe(401);
    expect(outcome(await ask(undefined))).toBe(401);
    expect(upstream.requests.at(-1)?.headers.authorization).toBeUndefined();
    expect(outcome(await ask(undefined, FRANCE, { authorization: "Basic YTpi" }))).toBe(401);
    // A body field cannot pick another credential's partition, and never goes upstream.
    expect(outcome(await ask("sk-mallory", FRANCE, {}, { semcache_credential: "anything" }))).toBe(401);
    expect(upstream.requests.every((request) => !("semcache_credential" in (request.json ?? {})))).toBe(true);
    expect(upstream.modelCalls()).toBe(7);

    const again = await ask("sk-alice");
    expect(outcome(again)).toBe("HIT");
    expect(again.json().choices[0].message.content).toBe(`Echo: ${FRANCE}`);
    expect(upstream.modelCalls()).toBe(7);
    // The real SDK raises its own error for the refused caller.
    const mallory = new OpenAI({ baseURL: `${server.url}/v1`, apiKey: "sk-mallory", maxRetries: 0 });
    await expect(mallory.chat.completions.create({ model: "gpt-4o", messages: question(FRANCE) })).rejects.toBeInstanceOf(OpenAI.AuthenticationError);
  });

  it("keeps two valid keys apart (and one key's projects), and shares them all in shared scope", async () => {
    await start();
    expect(outcome(await ask("sk-alice"))).toBe("MISS");
    expect(outcome(await ask("sk-bob"))).toBe("MISS");
    expect(outcome(await ask("sk-alice"))).toBe("HIT");
    expect(outcome(await ask("sk-bob"))).toBe("HIT");
    // The forwarded account headers are part of the credential.
    expect(outcome(await ask("sk-alice", FRANCE, { "openai-project": "proj-2" }))).toBe("MISS");
    expect(outcome(await ask("sk-alice", FRANCE, { "openai-project": "proj-2" }))).toBe("HIT");
    expect(upstream.modelCalls()).toBe(3);

    // shared: the namespace alone partitions, as before credential scope existed; whoever reaches the server gets the answer.
    await start({ proxyCacheScope: "shared" });
    expect(outcome(await ask("sk-alice"))).toBe("MISS");
    expect(outcome(await ask("sk-bob"))).toBe("HIT");
    expect(outcome(await ask("sk-mallory"))).toBe("HIT");
    expect(outcome(await ask(undefined))).toBe("HIT");
    expect(upstream.modelCalls()).toBe(4);
  });

  it("with server API keys, shares answers within the namespace as before (the caller's key is ours, never forwarded)", async () => {
    const apiKeys = ["semcache-admin", { key: "semcache-reader" }, { key: "semcache-tenant", namespace: "tenant" }];
    await start({ apiKeys, upstream: { baseURL: upstream.baseURL, apiKey: "sk-alice" } });
    expect(outcome(await ask("semcache-admin"))).toBe("MISS");
    expect(upstream.requests.at(-1)?.headers.authorization).toBe("Bearer sk-alice");
    expect(outcome(await ask("semcache-reader"))).toBe("HIT");
    expect(outcome(await ask("semcache-tenant"))).toBe("MISS");
    expect(outcome(await ask("semcache-tenant"))).toBe("HIT");
    const stranger = await ask("sk-alice");
    expect(stranger.statusCode).toBe(401);
    expectErrorBody(stranger.body, "SEMCACHE_UNAUTHORIZED");
    expect(outcome(await ask(undefined))).toBe(401);
    expect(upstream.modelCalls()).toBe(2);
    // The same in credential scope or shared: the namespace decides.
    await start({ apiKeys, proxyCacheScope: "shared", upstream: { baseURL: upstream.baseURL, apiKey: "sk-alice" } });
    expect(outcome(await ask("semcache-admin"))).toBe("MISS");
    expect(outcome(await ask("semcache-reader"))).toBe("HIT");
  });

  it("partitions by the key actually sent upstream: the operator's key (configured, or $OPENAI_API_KEY for keyless callers)", async () => {
    // upstream.api_key replaces every caller's key: the upstream accepts them all, so they share.
    await start({ upstream: { baseURL: upstream.baseURL, apiKey: "sk-bob" } });
    expect(outcome(await ask("anything"))).toBe("MISS");
    expect(outcome(await ask(undefined))).toBe("HIT");
    expect(outcome(await ask("sk-mallory"))).toBe("HIT");

    // $OPENAI_API_KEY is sent only for callers sending no key: they share its entries, not those of a caller's own key.
    await start({}, { OPENAI_API_KEY: "sk-bob" });
    expect(outcome(await ask("sk-alice"))).toBe("MISS");
    expect(outcome(await ask(undefined))).toBe("MISS");
    expect(upstream.requests.at(-1)?.headers.authorization).toBe("Bearer sk-bob");
    expect(outcome(await ask(undefined))).toBe("HIT");
    expect(outcome(await ask("sk-bob"))).toBe("HIT");
    expect(outcome(await ask("sk-mallory"))).toBe(401);
  });
});

describe("the credential digest's secret, and what reaches disk and logs", () => {
  let upstream: FakeOpenAIServer;
  let dir: ReturnType<typeof tempDir>;

  beforeEach(async () => {
    upstream = await gatedUpstream();
    dir = tempDir();
  });
  afterEach(async () => {
    await upstream.close();
    dir.cleanup();
  });

  /** A semantic cache over SQLite and hnswlib in the temp dir, served with a logger writing into `logs`. */
  const open = async (logs: string[], settings: ServerSection = {}) => {
    const cache = await new Cache().init({
      embeddingFunc: new BagOfWordsEmbedding(),
      dataManager: managerFactory("sqlite,hnswlib", { dataDir: dir.path }),
      similarityEvaluation: new DistanceEvaluation(),
      config: { similarityThreshold: 0.7 },
    });
    return serveOnPort(cache, {
      settings: { ...settings, upstream: { baseURL: upstream.baseURL } },
      env: {},
      logger: { level: "trace", stream: { write: (line: string) => void logs.push(line) } },
      logRequests: true,
    });
  };
  const ask = (server: Listening, key: string | undefined, content: string) =>
    server.post("/v1/chat/completions", { model: "gpt-4o", messages: question(content) }, key === undefined ? {} : { authorization: `Bearer ${key}` });
  const outcome = (answer: Answer) => (answer.statusCode === 200 ? answer.headers["x-semcache"] : answer.statusCode);
  const VOLCANO = "tell me a fact about volcanoes";
  const REWORDED = "please tell me a fact about volcanoes";

  /** Every byte under the data dir, files of subfolders included. */
  const dataDirBytes = (): Buffer =>
    Buffer.concat(
      (readdirSync(dir.path, { recursive: true }) as string[]).flatMap((name) => {
        const path = join(dir.path, name);
        return statSync(path).isFile() ? [readFileSync(path)] : [];
      }),
    );

  it("keeps a 0600 secret in the data dir, so hits (semantic ones too) survive a restart; keys reach neither disk nor logs", async () => {
    const logs: string[] = [];
    let server = await open(logs);
    expect(outcome(await ask(server, "sk-alice", VOLCANO))).toBe("MISS");
    expect(outcome(await ask(server, "sk-alice", REWORDED))).toBe("HIT");
    expect(outcome(await ask(server, "sk-mallory", VOLCANO))).toBe(401);
    expect(outcome(await ask(server, "sk-mallory", REWORDED))).toBe(401);
    expect(outcome(await ask(server, undefined, REWORDED))).toBe(401);
    await server.close();

    const secretFile = join(dir.path, CREDENTIAL_SECRET_FILE);
    const secret = readFileSync(secretFile, "utf8").trim();
    expect(secret).toMatch(/^[A-Za-z0-9_-]{43}$/);
    if (process.platform !== "win32") expect(statSync(secretFile).mode & 0o777).toBe(0o600);

    server = await open(logs);
    expect(outcome(await ask(server, "sk-alice", VOLCANO))).toBe("HIT");
    expect(outcome(await ask(server, "sk-alice", REWORDED))).toBe("HIT");
    expect(outcome(await ask(server, "sk-bob", REWORDED))).toBe("MISS");
    expect(outcome(await ask(server, "sk-mallory", REWORDED))).toBe(401);
    await server.close();
    expect(readFileSync(secretFile, "utf8").trim()).toBe(secret);
    // Alice's question once, then Bob's, and every refused call: no refused caller was answered from the cache.
    expect(upstream.modelCalls()).toBe(6);

    const stored = dataDirBytes();
    const text = logs.join("");
    expect(text).toMatch(/incoming request/);
    for (const key of ["sk-alice", "sk-bob", "sk-mallory"]) {
      const sha256 = createHash("sha256").update(key);
      const forms = [key, sha256.copy().digest("hex"), sha256.copy().digest("base64"), sha256.digest("base64url")];
      for (const form of forms) {
        expect(stored.includes(Buffer.from(form))).toBe(false);
        expect(text.includes(form)).toBe(false);
      }
    }
    expect(text.includes(secret)).toBe(false);
  });

  it("uses server.credential_secret instead of a file; another secret makes the old entries misses, never wrong answers", async () => {
    const logs: string[] = [];
    const credentialSecret = "a-configured-secret-of-some-length";
    let server = await open(logs, { credentialSecret });
    expect(outcome(await ask(server, "sk-alice", VOLCANO))).toBe("MISS");
    await server.close();
    expect(readdirSync(dir.path)).not.toContain(CREDENTIAL_SECRET_FILE);
    server = await open(logs, { credentialSecret });
    expect(outcome(await ask(server, "sk-alice", VOLCANO))).toBe("HIT");
    await server.close();
    server = await open(logs, { credentialSecret: "another-configured-secret-entirely" });
    expect(outcome(await ask(server, "sk-alice", VOLCANO))).toBe("MISS");
    await server.close();
    expect(logs.join("").includes(credentialSecret)).toBe(false);
  });
});

describe("server.proxy_cache_scope and server.credential_secret in the YAML config", () => {
  const read = (yaml: string) => loadGptCacheConfig(`embedding: string\nserver:\n${yaml}`).serverOptions;

  it("reads them, defaults to credential scope and takes the secret from the environment", () => {
    const options = read("  proxy_cache_scope: shared\n  credential_secret_env: SEMCACHE_SECRET\n");
    expect(options).toMatchObject({ proxyCacheScope: "shared", credentialSecretEnv: "SEMCACHE_SECRET" });
    expect(resolveServerSettings(options, { SEMCACHE_SECRET: "0123456789abcdef-secret" }).proxy).toEqual({
      cacheScope: "shared",
      credentialSecret: "0123456789abcdef-secret",
      shareAcrossContexts: false,
    });
    expect(resolveServerSettings({}, {}).proxy).toEqual({ cacheScope: "credential", credentialSecret: undefined, shareAcrossContexts: false });
    expect(resolveServerSettings(read("  proxy_share_across_contexts: true\n"), {}).proxy.shareAcrossContexts).toBe(true);
    expect(resolveServerSettings(read("  credential_secret: 0123456789abcdef\n"), {}).proxy.credentialSecret).toBe("0123456789abcdef");
  });

  it("refuses an unknown scope, a short secret, both secret keys, or an unset variable, naming the key", () => {
    expect(() => read("  proxy_cache_scope: everyone\n")).toThrow("server.proxy_cache_scope must be one of: credential, shared");
    expect(() => read("  credential_secret: short\n")).toThrow("server.credential_secret must be a secret of at least 16 characters");
    expect(() => read("  credential_secret: 0123456789abcdef\n  credential_secret_env: X\n")).toThrow(/at most one of credential_secret and credential_secret_env/);
    expect(() => resolveServerSettings(read("  credential_secret_env: SEMCACHE_SECRET\n"), {})).toThrow(/credential_secret_env: the environment variable SEMCACHE_SECRET is not set/);
    expect(() => resolveServerSettings(read("  credential_secret_env: SEMCACHE_SECRET\n"), { SEMCACHE_SECRET: "short" })).toThrow(/credential_secret_env must be a secret/);
    expect(() => resolveServerSettings({ proxyCacheScope: "open" as never }, {})).toThrow("server.proxy_cache_scope must be one of: credential, shared");
    expect(() => read("  proxy_share_across_contexts: yes please\n")).toThrow(/proxy_share_across_contexts/);
    expect(() => resolveServerSettings({ proxyShareAcrossContexts: "true" as never }, {})).toThrow("server.proxy_share_across_contexts must be a boolean");
  });
});
