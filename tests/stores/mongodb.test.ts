/**
 * MongoDB has no server on this project's machines: the contract suites run only when SEMCACHE_TEST_MONGODB_URL
 * is set. What runs everywhere: the driver loads, options are checked, and a server that is down gives a clear
 * StoreError.
 */
import { StoreError, ValidationError } from "../../src/core/errors.js";
import { LFU } from "../../src/core/eviction-policies.js";
import { MongoScalarStore } from "../../src/stores/scalar/mongodb.js";
import { sampleRecord } from "../../src/testing/scalar-store-contract.js";
import { freePort } from "../helpers/local-services.js";
import { testServerStoreContracts, testUrl, uniquePrefix } from "../helpers/server-stores.js";

const url = testUrl("mongodb");

describe("MongoScalarStore without a server", () => {
  it("fails init with a StoreError naming mongodb and its address, without the password", async () => {
    const port = await freePort();
    const store = new MongoScalarStore({ url: `mongodb://me:s3cret@127.0.0.1:${port}/cache`, connectTimeoutMs: 300 });
    try {
      const attempt = store.init();
      await expect(attempt).rejects.toBeInstanceOf(StoreError);
      await expect(attempt).rejects.toMatchObject({ store: "mongodb" });
      await expect(attempt).rejects.toThrow(`127.0.0.1:${port}`);
      await expect(attempt).rejects.not.toThrow("s3cret");
      await expect(store.count()).rejects.toBeInstanceOf(StoreError);
    } finally {
      await store.close();
    }
  });

  it("rejects bad options with ValidationError", () => {
    expect(() => new MongoScalarStore({ url: "postgres://x/y" })).toThrow(ValidationError);
    expect(() => new MongoScalarStore({ tablePrefix: "a b" })).toThrow(ValidationError);
    expect(() => new MongoScalarStore({ lockLeaseMs: 0 })).toThrow(ValidationError);
  });
});

if (url) {
  testServerStoreContracts("mongodb", (tablePrefix, options) => new MongoScalarStore({ url, tablePrefix, ...options }));

  describe("MongoScalarStore on a shared server", () => {
    const tablePrefix = uniquePrefix("moown");
    const stores: MongoScalarStore[] = [];
    const open = async () => {
      const store = new MongoScalarStore({ url, tablePrefix });
      stores.push(store);
      await store.init();
      return store;
    };
    afterEach(async () => {
      const dropper = stores[0];
      await dropper?.drop();
      for (const store of stores.splice(0)) await store.close();
    });

    it("evicts each excess once and assigns distinct ids when two clients write at the same time", async () => {
      const a = await open();
      const b = await open();
      const ids = (await Promise.all(Array.from({ length: 10 }, (_, i) => (i % 2 ? a : b).insert([sampleRecord({ createdAtMs: i }), sampleRecord()])))).flat();
      expect(new Set(ids).size).toBe(20);
      await a.insert(Array.from({ length: 10 }, (_, i) => sampleRecord({ createdAtMs: 100 + i })));
      const evicted = (await Promise.all(Array.from({ length: 10 }, (_, i) => (i % 2 ? a : b).evict(LFU, 20, 2)))).flat();
      expect(evicted).toHaveLength(10);
      expect(new Set(evicted).size).toBe(10);
      expect(await b.count()).toBe(20);
    });
  });
}
