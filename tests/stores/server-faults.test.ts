/**
 * Faults of the server stores, through a cache: a store down at start fails init with a StoreError naming it; a
 * store that drops mid-run (a TCP proxy in front of the real service is cut) makes lookups fail open (the model
 * is called, the fault counted) and puts fail loudly, and once the link is back the same cache works again.
 */
import { put, get } from "../../src/core/api.js";
import { Cache } from "../../src/presets/cache.js";
import { StoreError } from "../../src/core/errors.js";
import { cached } from "../../src/adapters/function.js";
import { managerFactory } from "../../src/presets/manager-factory.js";
import type { ScalarStore } from "../../src/core/contracts/scalar-store.js";
import { TEST_URL_VARS, startProxy, uniquePrefix, viaPort, type CuttableProxy } from "../helpers/server-stores.js";
import { freePort } from "../helpers/local-services.js";
import { eventually } from "../helpers/wait-until.js";

const SERVICES: Array<[kind: string, service: keyof typeof TEST_URL_VARS]> = [
  ["postgres", "postgres"],
  ["mysql", "mysql"],
  ["redis", "redis"],
];

for (const [kind, service] of SERVICES) {
  const url = process.env[TEST_URL_VARS[service]];
  describe(`${kind} faults through a cache`, () => {
    if (!url) {
      process.stderr.write(`[skip] ${kind} faults: ${TEST_URL_VARS[service]} is not set\n`);
      it.skip(`needs ${TEST_URL_VARS[service]}`, () => undefined);
      return;
    }
    const prefix = uniquePrefix(`sf${kind.slice(0, 2)}`);
    const scalarParams = (target: string) => ({ url: target, tablePrefix: prefix, namespace: prefix, connectTimeoutMs: 2000 });
    let proxy: CuttableProxy;
    let cache: Cache;
    beforeEach(async () => {
      const target = new URL(url);
      proxy = await startProxy("127.0.0.1", Number(target.port));
      cache = new Cache();
    });
    afterEach(async () => {
      proxy.restore();
      await cache.close().catch(() => undefined);
      const cleaner = managerFactory(kind, { scalarParams: scalarParams(url) }).scalar as ScalarStore & { drop(): Promise<void> };
      await cleaner.init();
      await cleaner.drop();
      await cleaner.close();
      await proxy.close();
    });

    it("a store down at start fails init with a StoreError naming it", async () => {
      const port = await freePort();
      const attempt = cache.init({ dataManager: managerFactory(kind, { scalarParams: scalarParams(viaPort(url, port)) }) });
      await expect(attempt).rejects.toBeInstanceOf(StoreError);
      await expect(attempt).rejects.toMatchObject({ store: kind });
      await expect(attempt).rejects.toThrow(String(port));
      expect(cache.initialized).toBe(false);
    });

    it("mid-run: lookups fail open and puts fail loudly while the store is away, then it recovers without a restart", async () => {
      await cache.init({ dataManager: managerFactory(kind, { scalarParams: scalarParams(viaPort(url, proxy.port)) }) });
      let modelCalls = 0;
      const ask = cached(async (question: string) => `model answer ${++modelCalls} to ${question}`, { requestOptions: { cacheObj: cache } });
      await put("stored before", "cached answer", { cacheObj: cache });
      expect(await ask("stored before")).toBe("cached answer");
      expect(modelCalls).toBe(0);

      proxy.cut();
      const errorsBefore = cache.report.errors;
      expect(await ask("stored before")).toBe("model answer 1 to stored before");
      expect(modelCalls).toBe(1);
      expect(cache.report.errors).toBeGreaterThan(errorsBefore);
      await expect(put("during the outage", "lost", { cacheObj: cache })).rejects.toBeInstanceOf(StoreError);
      await expect(get("stored before", { cacheObj: cache })).rejects.toMatchObject({ store: kind });

      proxy.restore();
      // Recovery takes the driver's reconnect (its own backoff, not a timer of ours): retried until a put succeeds.
      await eventually(() => put("after the outage", "kept", { cacheObj: cache }), 5000);
      expect(await get("after the outage", { cacheObj: cache })).toBe("kept");
      expect(await ask("stored before")).toBe("cached answer");
      expect(modelCalls).toBe(1);
      expect(await get("during the outage", { cacheObj: cache })).toBeNull();
    });
  });
}
