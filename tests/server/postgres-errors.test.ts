/**
 * A server over PostgreSQL: a NUL in a prompt is the client's mistake (400), not a store outage; a real
 * outage is a 503 whose body names neither the database's URL nor its credentials.
 */
import { Cache, managerFactory } from "../../src/index.js";
import { PostgresScalarStore } from "../../src/stores/scalar/postgres.js";
import { startProxy, testUrl, uniquePrefix, viaPort, type CuttableProxy } from "../helpers/server-stores.js";
import { expectErrorBody, serve, type Served } from "./helpers.js";

const url = testUrl("postgres");
const PASSWORD = "pg-secret-7f3a";

if (url) {
  describe("a postgres-backed server's error bodies", () => {
    const tablePrefix = uniquePrefix("pgerr");
    let proxy: CuttableProxy;
    let storeUrl: string;
    let server: Served;

    beforeAll(async () => {
      const target = new URL(url);
      proxy = await startProxy(target.hostname, Number(target.port || 5432));
      // The test database trusts any password: this one only has to be in the URL, where a leak would show it.
      const withPassword = new URL(viaPort(url, proxy.port));
      withPassword.password = PASSWORD;
      storeUrl = withPassword.toString();
      const cache = await new Cache().init({ dataManager: managerFactory("postgres", { scalarParams: { url: storeUrl, tablePrefix } }) });
      server = await serve(cache);
    });

    afterAll(async () => {
      proxy.restore();
      await server.close();
      const store = new PostgresScalarStore({ url, tablePrefix });
      await store.drop();
      await store.close();
      await proxy.close();
    });

    const leaks = (body: string) => [storeUrl, PASSWORD, `:${proxy.port}`, "://", "postgres://", "postgresql://"].filter((secret) => body.includes(secret));

    it("refuses a NUL with 400 on every route that stores or looks up text, and the store keeps working", async () => {
      const answers = [
        await server.post("/put", { prompt: "a\u0000b", answer: "x" }),
        await server.post("/put", { prompt: "p", answer: "x\u0000y" }),
        await server.post("/get", { prompt: "a\u0000b" }),
        await server.post("/import", { pairs: [{ question: "q\u0000", answer: "a" }] }),
        await server.call({ method: "PUT", url: "/?prompt=a%00b", payload: "x" }),
        await server.call({ method: "PUT", url: "/?prompt=ok", payload: "x\u0000y", headers: { "content-type": "text/plain" } }),
        await server.call({ method: "GET", url: "/?prompt=a%00b" }),
      ];
      for (const answer of answers) {
        expect(answer.statusCode).toBe(400);
        expectErrorBody(answer.body, "SEMCACHE_VALIDATION");
        expect(leaks(answer.body)).toEqual([]);
      }
      expect((await server.post("/put", { prompt: "a b", answer: "stored" })).statusCode).toBe(200);
      expect((await server.post("/get", { prompt: "a b" })).json().answer).toBe("stored");
    });

    it("answers a store outage with 503 and a body that says what failed, never where or as whom", async () => {
      proxy.cut();
      try {
        for (const answer of [await server.post("/put", { prompt: "during", answer: "outage" }), await server.call({ method: "GET", url: "/stats" })]) {
          expect(answer.statusCode).toBe(503);
          expectErrorBody(answer.body, "SEMCACHE_STORE");
          expect(answer.json().error.message).toMatch(/store failed or is unreachable/);
          expect(leaks(answer.body)).toEqual([]);
        }
      } finally {
        proxy.restore();
      }
      expect((await server.post("/get", { prompt: "a b" })).json().answer).toBe("stored");
    }, 60_000);
  });
}
