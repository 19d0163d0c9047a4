import { Cache, type CacheInitOptions } from "../../src/index.js";
import { startFakeOpenAI, type FakeOpenAIOptions, type FakeOpenAIServer } from "../../src/testing/index.js";

/** Per-test resources closed after each test, in reverse order (register `closeAll` in afterEach). */
export function testResources() {
  const cleanups: Array<() => unknown> = [];
  return {
    async closeAll(): Promise<void> {
      for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
    },
    /** A fake OpenAI server for this test. */
    async serve(options: FakeOpenAIOptions = {}): Promise<FakeOpenAIServer> {
      const server = await startFakeOpenAI(options);
      cleanups.push(() => server.close());
      return server;
    },
    /** An initialised cache for this test. */
    async newCache(options: CacheInitOptions = {}): Promise<Cache> {
      const cache = new Cache();
      await cache.init(options);
      cleanups.push(() => cache.close());
      return cache;
    },
    push(cleanup: () => unknown): void {
      cleanups.push(cleanup);
    },
  };
}
