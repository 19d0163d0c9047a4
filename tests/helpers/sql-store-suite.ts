/**
 * What every server SQL store (PostgreSQL, MySQL/MariaDB) is tested for beyond the contract suites: its
 * tables, the live counter against the rows, evictions from two pools at once, and clear errors.
 */
import { StoreError, ValidationError } from "../../src/core/errors.js";
import { LRU } from "../../src/core/eviction-policies.js";
import type { SqlScalarStore } from "../../src/stores/scalar/sql-store.js";
import type { TableLenConfig } from "../../src/core/contracts/scalar-store.js";
import { sampleRecord } from "../../src/testing/scalar-store-contract.js";
import { freePort } from "./local-services.js";
import { testServerStoreContracts, uniquePrefix } from "./server-stores.js";

/** Plain SQL on the same database, to check what the store wrote. */
export interface RawConnection {
  query(sql: string): Promise<Array<Record<string, unknown>>>;
  close(): Promise<void>;
}

export interface SqlStoreSuiteOptions {
  name: string;
  /** The test database. */
  url: string;
  create(options: { tablePrefix: string; tableLenConfig?: Partial<TableLenConfig>; maxReports?: number; url?: string }): SqlScalarStore;
  raw(): Promise<RawConnection>;
}

/** The URL with another password and port on 127.0.0.1. */
function urlWith(url: string, port: number, password: string): string {
  const parsed = new URL(url);
  Object.assign(parsed, { hostname: "127.0.0.1", port: String(port), password });
  return parsed.toString();
}

export function testSqlServerStore(suite: SqlStoreSuiteOptions): void {
  testServerStoreContracts(suite.name, (tablePrefix, options) => suite.create({ tablePrefix, ...options }));

  describe(`${suite.name} on a shared database`, () => {
    const prefix = uniquePrefix(`${suite.name.slice(0, 2)}own`);
    const stores: SqlScalarStore[] = [];
    let raw: RawConnection;
    const open = async () => {
      const store = suite.create({ tablePrefix: prefix });
      stores.push(store);
      await store.init();
      return store;
    };
    beforeAll(async () => {
      raw = await suite.raw();
    });
    afterEach(async () => {
      for (const store of stores.splice(0)) await store.close();
      const dropper = suite.create({ tablePrefix: prefix });
      await dropper.drop();
      await dropper.close();
    });
    afterAll(() => raw.close());
    const live = async () => Number((await raw.query(`SELECT COUNT(*) AS n FROM ${prefix}question WHERE deleted = 0`))[0].n);

    it("creates the prefixed tables with the documented question columns", async () => {
      await open();
      const columns = await raw.query(
        `SELECT column_name AS name FROM information_schema.columns WHERE table_name = '${prefix}question' ORDER BY ordinal_position`,
      );
      expect(columns.map((c) => c.name)).toEqual([
        "id", "question", "answer", "answer_type", "key_hash", "partition",
        "create_on", "last_access", "hit_count", "deleted", "embedding",
      ]);
      const tables = await raw.query(`SELECT table_name AS name FROM information_schema.tables WHERE table_name LIKE '${prefix}%'`);
      expect(tables.map((t) => t.name).sort()).toEqual(["dep", "meta", "question", "report", "session"].map((t) => `${prefix}${t}`));
    });

    it("keeps the live count equal to the rows across every kind of write, and init twice adds nothing", async () => {
      const store = await open();
      const ids = await store.insert(Array.from({ length: 20 }, (_, i) => sampleRecord({ createdAtMs: i })));
      await store.markDeleted([ids[0], ids[0], ids[1]]);
      await store.expire(5);
      await store.evict(LRU, 10, 3);
      await store.touch(ids.map((id) => ({ id, atMs: 50, count: 1 })));
      await store.purgeDeleted();
      expect(await live()).toBe(12);
      expect(await store.count()).toBe(12);
      await (await open()).init();
      expect(await store.count()).toBe(12);
      await store.clear();
      expect(await store.count()).toBe(0);
      expect(await live()).toBe(0);
    });

    it("evicts each excess once when two pools evict at the same time", async () => {
      const a = await open();
      const b = await open();
      await a.insert(Array.from({ length: 30 }, (_, i) => sampleRecord({ keyHash: `k${i}`, createdAtMs: i })));
      const calls = Array.from({ length: 10 }, (_, i) => (i % 2 === 0 ? a : b).evict(LRU, 20, 2));
      const evicted = (await Promise.all(calls)).flat();
      expect(evicted).toHaveLength(10);
      expect(new Set(evicted).size).toBe(10);
      expect(await b.count()).toBe(20);
      expect(await live()).toBe(20);
    });

    it("inserts from two pools at once get distinct increasing ids and an exact count", async () => {
      const a = await open();
      const b = await open();
      const batches = await Promise.all(
        Array.from({ length: 20 }, (_, i) => (i % 2 === 0 ? a : b).insert([sampleRecord({ keyHash: `k${i}` }), sampleRecord()])),
      );
      const ids = batches.flat();
      expect(new Set(ids).size).toBe(40);
      for (const batch of batches) expect(batch[1]).toBeGreaterThan(batch[0]);
      expect(await a.count()).toBe(40);
      expect(await live()).toBe(40);
    });

    it("fails init with a StoreError naming the store and its address, without the password", async () => {
      const port = await freePort();
      const store = suite.create({ tablePrefix: prefix, url: urlWith(suite.url, port, "s3cret") });
      stores.push(store);
      const attempt = store.init();
      await expect(attempt).rejects.toBeInstanceOf(StoreError);
      await expect(attempt).rejects.toMatchObject({ store: store.kind });
      await expect(attempt).rejects.toThrow(`127.0.0.1:${port}`);
      await expect(attempt).rejects.not.toThrow("s3cret");
      await expect(store.get(1)).rejects.toBeInstanceOf(StoreError);
    });

    it("rejects bad options with ValidationError", () => {
      expect(() => suite.create({ tablePrefix: "x; DROP TABLE y; --" })).toThrow(ValidationError);
      expect(() => suite.create({ tablePrefix: `p${"x".repeat(60)}_` })).toThrow(ValidationError);
      expect(() => suite.create({ tablePrefix: prefix, url: "http://localhost/" })).toThrow(ValidationError);
    });

    it("reports use before init as StoreError", async () => {
      const store = suite.create({ tablePrefix: prefix });
      stores.push(store);
      await expect(store.count()).rejects.toThrow(/init/);
    });
  });
}
