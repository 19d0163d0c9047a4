import mysql from "mysql2/promise";
import { MariaDbScalarStore, MySqlScalarStore } from "../../src/stores/scalar/mysql.js";
import { testUrl } from "../helpers/server-stores.js";
import { testSqlServerStore } from "../helpers/sql-store-suite.js";

const url = testUrl("mysql");

if (url) {
  testSqlServerStore({
    name: "mysql",
    url,
    create: (options) => new MySqlScalarStore({ url, ...options }),
    raw: async () => {
      const connection = await mysql.createConnection({ uri: url });
      return {
        query: async (sql) => (await connection.query(sql))[0] as Array<Record<string, unknown>>,
        close: () => connection.end(),
      };
    },
  });

  describe("MySqlScalarStore specifics", () => {
    it("compares keys and sessions exactly (binary collation), not case- or accent-insensitively", async () => {
      const store = new MySqlScalarStore({ url, tablePrefix: `tcoll_${process.pid}_` });
      try {
        await store.init();
        const [id] = await store.insert([{ question: "q", answer: "a", answerType: "str", keyHash: "Key", partition: "p", createdAtMs: 1, session: "S" }]);
        expect(await store.findByKey("key")).toBeNull();
        expect(await store.findByKey("Key ")).toBeNull();
        expect((await store.findByKey("Key"))?.id).toBe(id);
        await store.addSession(id, "s");
        expect([...(await store.sessionsOf(id))].sort()).toEqual(["S", "s"]);
        await store.addSession(id, "x".repeat(1000));
        await store.addSession(id, "x".repeat(1000));
        expect(await store.sessionsOf(id)).toHaveLength(3);
      } finally {
        await store.drop();
        await store.close();
      }
    });

    it("uses a pool passed in and leaves it open; the mariadb kind is the same store", async () => {
      const pool = mysql.createPool({ uri: url, connectionLimit: 2 });
      const store = new MariaDbScalarStore({ pool, tablePrefix: `tpool_${process.pid}_` });
      try {
        expect(store.kind).toBe("mariadb");
        await store.init();
        expect(await store.count()).toBe(0);
        await store.close();
        expect((await pool.query("SELECT 1 AS one"))[0]).toEqual([{ one: 1 }]);
      } finally {
        await store.drop();
        await store.close();
        await pool.end();
      }
    });
  });
}
