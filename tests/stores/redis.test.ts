import { createClient } from "redis";
import { StoreError, ValidationError } from "../../src/core/errors.js";
import { LFU, LRU } from "../../src/core/eviction-policies.js";
import { RedisScalarStore, type RedisClientLike } from "../../src/stores/scalar/redis.js";
import { sampleRecord } from "../../src/testing/scalar-store-contract.js";
import { freePort } from "../helpers/local-services.js";
import { MRU, testServerStoreContracts, testUrl, uniquePrefix } from "../helpers/server-stores.js";

const url = testUrl("redis");

if (url) {
  testServerStoreContracts("redis", (namespace, options) => new RedisScalarStore({ url, namespace, ...options }));

  describe("RedisScalarStore on a shared server", () => {
    const namespace = uniquePrefix("reown");
    const stores: RedisScalarStore[] = [];
    const raw = createClient({ url });
    const open = async (options: { namespace?: string; ttlSeconds?: number } = {}) => {
      const store = new RedisScalarStore({ url, namespace, ...options });
      stores.push(store);
      await store.init();
      return store;
    };
    const keys = (pattern: string) => raw.keys(pattern);
    beforeAll(() => raw.connect());
    afterEach(async () => {
      for (const store of stores.splice(0)) await store.close();
      for (const key of [...(await keys(`${namespace}:*`)), ...(await keys(`${namespace}2:*`))]) await raw.del(key);
    });
    afterAll(() => raw.close());

    it("keeps namespaces apart, and drop removes only its own keys", async () => {
      const a = await open();
      const b = await open({ namespace: `${namespace}2` });
      await a.insert([sampleRecord({ keyHash: "k" }), sampleRecord()]);
      await b.insert([sampleRecord({ keyHash: "other" })]);
      expect(await b.findByKey("k")).toBeNull();
      expect(await a.count()).toBe(2);
      await a.drop();
      expect(await keys(`${namespace}:*`)).toEqual([]);
      expect(await b.count()).toBe(1);
    });

    it("evicts each excess once when two clients evict at the same time", async () => {
      const a = await open();
      const b = await open();
      await a.insert(Array.from({ length: 30 }, (_, i) => sampleRecord({ keyHash: `k${i}`, createdAtMs: i })));
      const evicted = (await Promise.all(Array.from({ length: 10 }, (_, i) => (i % 2 ? a : b).evict(LFU, 20, 2)))).flat();
      expect(evicted).toHaveLength(10);
      expect(new Set(evicted).size).toBe(10);
      expect(await a.count()).toBe(20);
    });

    it("keeps an eviction order one replica registered up to date with another replica's writes", async () => {
      const a = await open();
      const b = await open();
      const [first] = await a.insert([sampleRecord({ createdAtMs: 1 })]);
      expect(await a.evict(MRU, 5, 1)).toEqual([]);
      const [second, third] = await b.insert([sampleRecord({ createdAtMs: 2 }), sampleRecord({ createdAtMs: 3 })]);
      await b.touch([{ id: second, atMs: 99, count: 1 }]);
      expect(await a.evict(MRU, 2, 1)).toEqual([second]);
      expect(await a.evict(LRU, 1, 1)).toEqual([first]);
      expect(await b.count()).toBe(1);
      expect((await b.get(third))?.id).toBe(third);
    });

    it("sets a Redis expiry of twice the ttl on each record, and copes with hashes Redis already dropped", async () => {
      const store = await open({ ttlSeconds: 60 });
      const now = Date.now();
      const [old, , young] = await store.insert([
        sampleRecord({ keyHash: "k", createdAtMs: now, embedding: Float32Array.of(1, 0) }),
        sampleRecord({ keyHash: "k", createdAtMs: now + 1, embedding: Float32Array.of(0, 1) }),
        sampleRecord({ keyHash: "k", createdAtMs: now + 2 }),
      ]);
      expect(await raw.sendCommand(["PEXPIRETIME", `${namespace}:r:${old}`])).toBe(now + 120_000);
      // What Redis does when the expiry passes:
      await raw.del([`${namespace}:r:${young}`, `${namespace}:r:${old + 1}`]);
      expect((await store.findByKey("k"))?.id).toBe(old);
      expect((await store.embeddingsAfter(0, 1)).map((row) => row.id)).toEqual([old]);
      expect(await store.get(young)).toBeNull();
      expect(await store.expire(now + 1)).toEqual([old]);
      expect((await store.expire(now + 10)).sort()).toEqual([old + 1, young]);
      expect(await store.count()).toBe(0);
      expect(await store.purgeDeleted()).toBe(3);
      const [next] = await store.insert([sampleRecord({ createdAtMs: now })]);
      expect(await store.evict(LRU, 0, 5)).toEqual([next]);
    });

    it("fails init with a StoreError naming redis and its address, without the password", async () => {
      const port = await freePort();
      const store = new RedisScalarStore({ url: `redis://:s3cret@127.0.0.1:${port}`, namespace, connectTimeoutMs: 1000 });
      stores.push(store);
      const attempt = store.init();
      await expect(attempt).rejects.toBeInstanceOf(StoreError);
      await expect(attempt).rejects.toMatchObject({ store: "redis" });
      await expect(attempt).rejects.toThrow(`127.0.0.1:${port}`);
      await expect(attempt).rejects.not.toThrow("s3cret");
      await expect(store.count()).rejects.toBeInstanceOf(StoreError);
    });

    it("uses a client passed in and leaves it open on close", async () => {
      const client = createClient({ url });
      const store = new RedisScalarStore({ client: client as unknown as RedisClientLike, namespace });
      stores.push(store);
      await store.init();
      await store.insert([sampleRecord()]);
      await store.close();
      expect(client.isOpen).toBe(true);
      expect(await client.zCard(`${namespace}:live`)).toBe(1);
      await client.close();
    });

    it("rejects bad options with ValidationError", () => {
      expect(() => new RedisScalarStore({ url, namespace: "" })).toThrow(ValidationError);
      expect(() => new RedisScalarStore({ url, namespace: "a b" })).toThrow(ValidationError);
      expect(() => new RedisScalarStore({ url, ttlSeconds: -1 })).toThrow(ValidationError);
      expect(() => new RedisScalarStore({ url: "http://x" })).toThrow(ValidationError);
    });
  });
}
