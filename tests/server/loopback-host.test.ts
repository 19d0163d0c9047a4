/**
 * DNS rebinding: with no API key every caller is an admin, so a server in that mode answers only requests
 * addressed to a loopback name. A page on evil.example re-pointed at 127.0.0.1 sends `Host: evil.example`.
 */
import { request } from "node:http";
import { exactApp, exactServer, expectErrorBody, type Answer } from "./helpers.js";

const LOOPBACK = ["localhost", "localhost:8000", "LOCALHOST:80", "127.0.0.1", "127.0.0.1:8000", "127.1.2.3:9", "[::1]", "[::1]:8000"];
const FOREIGN = ["evil.example", "evil.example:8000", "localhost.evil.example", "127.0.0.1.evil.example", "10.0.0.5:8000", "[::2]:8000", "0.0.0.0"];

describe("the Host check of a server without API keys", () => {
  it("answers loopback names and refuses every other Host with 403, on every route (admin ones included)", async () => {
    const server = await exactApp();
    try {
      const call = (url: string, host: string, method = "GET") => server.call({ method, url, headers: { host } });
      for (const host of LOOPBACK) expect({ host, status: (await call("/healthz", host)).statusCode }).toEqual({ host, status: 200 });
      for (const host of FOREIGN) {
        for (const [method, url] of [["GET", "/healthz"], ["GET", "/export"], ["POST", "/clear"], ["GET", "/stats"], ["GET", "/nowhere"]]) {
          const answer = await call(url, host, method);
          expect({ host, url, status: answer.statusCode }).toEqual({ host, url, status: 403 });
          expectErrorBody(answer.body, "SEMCACHE_FORBIDDEN");
          expect(answer.json().error.message).toMatch(/Host header/);
        }
      }
    } finally {
      await server.close();
    }
  });

  it("refuses a rebound request over a real socket, and nothing was cleared", async () => {
    const server = await exactServer();
    try {
      await server.post("/put", { prompt: "kept", answer: "yes" });
      const raw = (host: string) =>
        new Promise<Answer>((resolve, reject) => {
          const sent = request(`${server.url}/clear`, { method: "POST", headers: { host } }, (response) => {
            let body = "";
            response.on("data", (chunk: Buffer) => (body += chunk.toString()));
            response.on("end", () => resolve({ statusCode: response.statusCode ?? 0, headers: {}, body, json: () => JSON.parse(body) }));
          });
          sent.on("error", reject);
          sent.end();
        });
      expect((await raw("rebound.evil.example")).statusCode).toBe(403);
      expect((await server.post("/get", { prompt: "kept" })).json().answer).toBe("yes");
      expect((await raw(new URL(server.url).host)).statusCode).toBe(200);
    } finally {
      await server.close();
    }
  });

  it("is off with API keys (the key decides) and with allow_unauthenticated (the operator chose to serve any name)", async () => {
    for (const settings of [{ apiKeys: ["k"] }, { allowUnauthenticated: true }]) {
      const server = await exactApp({ settings });
      try {
        const answer = await server.call({ method: "GET", url: "/healthz", headers: { host: "semcache.internal:8000" } });
        expect(answer.statusCode).toBe(200);
      } finally {
        await server.close();
      }
    }
  });
});
