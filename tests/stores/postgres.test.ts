import pg from "pg";
import { PostgresScalarStore } from "../../src/stores/scalar/postgres.js";
import { testUrl } from "../helpers/server-stores.js";
import { testSqlServerStore } from "../helpers/sql-store-suite.js";

const url = testUrl("postgres");

if (url) {
  testSqlServerStore({
    name: "postgres",
    url,
    create: (options) => new PostgresScalarStore({ url, ...options }),
    raw: async () => {
      const client = new pg.Client({ connectionString: url });
      await client.connect();
      return { query: async (sql) => (await client.query(sql)).rows, close: () => client.end() };
    },
  });

  describe("PostgresScalarStore connection settings", () => {
    it("uses a pool passed in and leaves it open on close", async () => {
      const pool = new pg.Pool({ connectionString: url, max: 2 });
      const store = new PostgresScalarStore({ pool, tablePrefix: `tpool_${process.pid}_` });
      try {
        await store.init();
        expect(await store.count()).toBe(0);
        await store.close();
        expect((await pool.query("SELECT 1 AS one")).rows).toEqual([{ one: 1 }]);
      } finally {
        await store.drop();
        await store.close();
        await pool.end();
      }
    });

    it("reads SEMCACHE_POSTGRES_URL when no url or host is given", () => {
      const saved = process.env.SEMCACHE_POSTGRES_URL;
      process.env.SEMCACHE_POSTGRES_URL = "postgres://me:pw@db.example:6543/cache";
      try {
        expect(new PostgresScalarStore().target).toBe("postgres://me:***@db.example:6543/cache");
        expect(new PostgresScalarStore({ host: "other", port: 7000 }).target).toBe("postgres://other:7000");
      } finally {
        if (saved === undefined) delete process.env.SEMCACHE_POSTGRES_URL;
        else process.env.SEMCACHE_POSTGRES_URL = saved;
      }
    });
  });
}
