/**
 * A store that stops answering (its connections held open, silent: a hung server, a black-holed route) behind a
 * proxy of the test's own: every store call gives up after timeoutMs, so requests fail open within a bounded time
 * (a lookup misses and the model answers, the failed put is counted), strict calls fail with StoreError, and
 * once the service answers again the same cache works with no fault: no silenced connection was reused.
 */
import { get } from "../../src/core/api.js";
import { Cache } from "../../src/presets/cache.js";
import { StoreError } from "../../src/core/errors.js";
import { loadGptCacheConfig } from "../../src/config/gptcache-config.js";
import { managerFactory } from "../../src/presets/manager-factory.js";
import type { ScalarStore } from "../../src/core/contracts/scalar-store.js";
import { countingCachedModel, silenceableProxy, type SilenceableProxy } from "../helpers/connection-cut.js";
import { TEST_URL_VARS, uniquePrefix, viaPort, type DroppableStore } from "../helpers/server-stores.js";

const TIMEOUT_MS = 400;
/** Scheduling and a real round trip on a loaded test machine, on top of the timeouts themselves. */
const SLACK_MS = 600;
const POOL_SIZE = 2;

const SERVICES: Array<[kind: string, service: keyof typeof TEST_URL_VARS]> = [
  ["postgres", "postgres"],
  ["mysql", "mysql"],
  ["redis", "redis"],
];

async function elapsedMs<T>(run: () => Promise<T>): Promise<{ value: T; ms: number }> {
  const started = performance.now();
  const value = await run();
  return { value, ms: performance.now() - started };
}

for (const [kind, service] of SERVICES) {
  const url = process.env[TEST_URL_VARS[service]];
  describe(`${kind} store that stops answering`, () => {
    if (!url) {
      process.stderr.write(`[skip] ${kind} silent store: ${TEST_URL_VARS[service]} is not set\n`);
      it.skip(`needs ${TEST_URL_VARS[service]}`, () => undefined);
      return;
    }
    const prefix = uniquePrefix(`to${kind.slice(0, 2)}`);
    const scalarParams = (target: string) => ({
      url: target,
      tablePrefix: prefix,
      namespace: prefix,
      poolSize: POOL_SIZE,
      connectTimeoutMs: TIMEOUT_MS,
      timeoutMs: TIMEOUT_MS,
    });
    let proxy: SilenceableProxy;
    let cache: Cache;
    let modelCalls: () => number;
    let ask: (question: string) => Promise<string>;

    beforeEach(async () => {
      const target = new URL(url);
      proxy = await silenceableProxy("127.0.0.1", Number(target.port));
      cache = await new Cache().init({ dataManager: managerFactory(kind, { scalarParams: scalarParams(viaPort(url, proxy.port)) }) });
      ({ ask, calls: modelCalls } = countingCachedModel(cache));
    });
    afterEach(async () => {
      proxy.restore();
      await cache.close().catch(() => undefined);
      await proxy.close();
      const cleaner = managerFactory(kind, { scalarParams: scalarParams(url) }).scalar as ScalarStore & DroppableStore;
      await cleaner.init();
      await cleaner.drop();
      await cleaner.close();
    });

    it("requests answer within the timeout, fail open and are counted; afterwards it hits again without a fault", async () => {
      expect(await ask("stored before")).toBe("answer to stored before");
      expect(await ask("stored before")).toBe("answer to stored before");
      expect(modelCalls()).toBe(1);

      proxy.silence();
      const errors = cache.report.errors;
      // More requests than pooled connections (distinct, or the cache would join them into one): the idle
      // connections and new ones all meet the silence.
      const questions = ["stored before", ...Array.from({ length: 3 * POOL_SIZE - 1 }, (_, i) => `asked while silent ${i}`)];
      const during = await elapsedMs(() => Promise.all(questions.map(ask)));
      expect(during.value).toEqual(questions.map((question) => `answer to ${question}`));
      expect(modelCalls()).toBe(1 + 3 * POOL_SIZE);
      // Each request makes two store calls (the lookup, then the put of the model's answer), each bounded.
      expect(during.ms).toBeLessThan(2 * TIMEOUT_MS + SLACK_MS);
      expect(cache.report.errors).toBeGreaterThanOrEqual(errors + 2 * 3 * POOL_SIZE);

      // A strict call fails with a StoreError that names the timeout, in about the timeout.
      const strict = await elapsedMs(() => get("stored before", { cacheObj: cache }).catch((error: unknown) => error));
      expect(strict.value).toBeInstanceOf(StoreError);
      expect(String(strict.value)).toMatch(/within 400 ms \(timeoutMs\)/);
      expect(strict.ms).toBeLessThan(TIMEOUT_MS + SLACK_MS);

      proxy.restore();
      // Work the callers gave up on (withDeadline already failed them) still holds pooled connections until the
      // drivers' own timers end it (pg's query_timeout, the connect timeouts): timers inside the drivers, with no
      // event to wait on, and the proxy cannot tell (it still sees pg's and Redis's silenced sockets open). Probing the store
      // instead would hide a reused silenced connection, which is what this test catches. So: a fixed wait.
      await new Promise((resolve) => setTimeout(resolve, 2 * TIMEOUT_MS));
      const afterErrors = cache.report.errors;
      const calls = modelCalls();
      expect(await ask("stored before")).toBe("answer to stored before");
      expect(await ask("asked after")).toBe("answer to asked after");
      expect(await ask("asked after")).toBe("answer to asked after");
      expect(modelCalls()).toBe(calls + 1);
      expect(cache.report.errors).toBe(afterErrors);
    });
  });
}

describe("timeoutMs option", () => {
  it("is checked by every server store and read from the GPTCache YAML as timeout_ms", () => {
    for (const kind of ["postgres", "mysql", "mariadb", "redis", "mongodb"]) {
      expect(() => managerFactory(kind, { scalarParams: { host: "127.0.0.1", timeoutMs: 0 } })).toThrow(
        `${kind}: timeoutMs must be a positive integer, got 0`,
      );
      const yaml = `storage_config:\n  manager: ${kind}\n  scalar_params:\n    host: 127.0.0.1\n    timeout_ms: 250\n`;
      expect(loadGptCacheConfig(yaml, {}).storage.scalarParams).toMatchObject({ timeoutMs: 250 });
    }
  });
});
