import { connect } from "node:net";
import { startFakeOpenAI } from "../../src/testing/index.js";
import { exactServer, expectErrorBody, type Listening } from "./helpers.js";

/** Writes raw bytes on a fresh connection and resolves with everything the server sends before closing it. */
function raw(url: string, writes: Array<string | { pauseMs: number }>): Promise<string> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname);
    let received = "";
    socket.on("data", (chunk) => (received += chunk.toString("utf8")));
    socket.on("error", reject);
    socket.on("close", () => resolve(received));
    socket.on("connect", async () => {
      for (const write of writes) {
        if (typeof write === "string") socket.write(write);
        else await new Promise((done) => setTimeout(done, write.pauseMs));
      }
    });
  });
}

/** Status and body of a raw HTTP/1.1 answer. */
function parse(answer: string): { status: number; body: string } {
  const [head, ...rest] = answer.split("\r\n\r\n");
  return { status: Number(/^HTTP\/1\.1 (\d{3})/.exec(head)?.[1]), body: rest.join("\r\n\r\n") };
}

describe("limits and malformed HTTP", () => {
  let server: Listening;
  beforeEach(async () => {
    server = await exactServer({ settings: { limits: { requestTimeoutMs: 300, bodyLimit: 1024 } } });
  });
  afterEach(() => server.close());

  it("answers a client that sends too slowly with 408 and an error body, then keeps serving", async () => {
    // Headers promise 100 bytes; 10 arrive; then nothing.
    const answer = parse(await raw(server.url, ["POST /get HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n", '{"prompt":', { pauseMs: 1000 }]));
    expect(answer.status).toBe(408);
    expectErrorBody(answer.body, "SEMCACHE_TIMEOUT");
    expect((await server.call({ method: "GET", url: "/healthz" })).statusCode).toBe(200);
  });

  it("answers unparsable HTTP with 400 and oversized headers with 431, as error bodies", async () => {
    const garbage = parse(await raw(server.url, ["THIS IS NOT HTTP\r\n\r\n"]));
    expect(garbage.status).toBe(400);
    expectErrorBody(garbage.body, "SEMCACHE_BAD_REQUEST");
    const huge = parse(await raw(server.url, [`GET /healthz HTTP/1.1\r\nHost: localhost\r\nX-Big: ${"a".repeat(20_000)}\r\n\r\n`]));
    expect(huge.status).toBe(431);
    expectErrorBody(huge.body, "SEMCACHE_HEADERS_TOO_LARGE");
    expect((await server.call({ method: "GET", url: "/healthz" })).statusCode).toBe(200);
  });

  it("applies the configured body limit", async () => {
    const answer = await server.post("/put", { prompt: "p", answer: "a".repeat(2000) });
    expect(answer.statusCode).toBe(413);
    expectErrorBody(answer.body, "SEMCACHE_BODY_TOO_LARGE");
    expect((await server.post("/put", { prompt: "p", answer: "a".repeat(500) })).statusCode).toBe(200);
  });

  it("finishes a stream in flight when closing, then lets its kept-alive connection go", async () => {
    let called!: () => void;
    const modelCalled = new Promise<void>((resolve) => (called = resolve));
    const upstream = await startFakeOpenAI({ streamDelayMs: 40, reply: () => (called(), "one two three four five six seven eight") });
    // Keep-alive longer than the test's timeout: a close that waited for it would time the test out.
    const slow = await exactServer({ settings: { upstream: { baseURL: upstream.baseURL }, limits: { keepAliveTimeoutMs: 120_000 } } });
    try {
      const body = JSON.stringify({ model: "m", stream: true, messages: [{ role: "user", content: "slow" }] });
      const exchange = raw(slow.url, [`POST /v1/chat/completions HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`]);
      await modelCalled;
      await slow.app.close();
      const answer = await exchange;
      expect(answer).toMatch(/^HTTP\/1\.1 200/);
      expect(answer).toContain('"content":"eight"');
      expect(answer).toContain("data: [DONE]");
    } finally {
      await slow.close();
      await upstream.close();
    }
  });

  it("answers 503 (and closes the connection) to a request that arrives while closing", async () => {
    server.app.semcache.closing = true;
    const answer = await server.post("/get", { prompt: "p" });
    expect(answer.statusCode).toBe(503);
    expect(answer.headers.connection).toBe("close");
    expectErrorBody(answer.body, "SEMCACHE_UNAVAILABLE");
    server.app.semcache.closing = false;
  });
});
